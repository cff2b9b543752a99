"""People: who a request is, and the rules for their names and passwords.

- ``sessions``    — ``Authenticator`` and ``Identity``: sessions in the database, looked up
                    through a short-lived cache; guests and accounts opened;
- ``cookie``      — the session cookie: a session id, signed;
- ``browser_mark`` — the browser's mark: a signed random id kept across logouts, recorded
                     with each session (what a mute at a table also covers);
- ``names``       — display names, usernames and passwords checked; new people's ids and names;
- ``passwords``   — password hashes (argon2id, of the password's NFKC form);
- ``hashing_pool`` — the few threads of their own that hashing runs on, with a short queue;
- ``idle_guests`` — the clean-up of guests unused for a month that left no record
                    (``python -m app.people remove-idle-guests``);
- ``confusables`` — names that look alike fold to one key (UTS #39).
"""
