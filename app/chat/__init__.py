"""Table talk: chat in two channels, reactions, and who may read and write what.

Chat is not a game action: it never changes a match's state or version and never goes
through the referee. A message is stored (so a restart keeps it) and then handed to
whoever delivers it — this process's connections and, with several processes, the
others through Redis.

- ``text``    — cleaning what people type, the length limit, the fixed set of reactions;
- ``access``  — who reads and who writes which channel, and the refusals;
- ``mutes``   — who a mute covers: the person, and fresh guests from their browser or address;
- ``recent``  — a room's last messages per channel, as this process knows them, kept per
                room (``RecentChats``: the chat's own storage, not the room's);
- ``outlet``  — what a message is on its way out, and the interface of those who deliver it;
- ``service`` — ``Chat``: say, react, the recent messages; the parts wired together.
"""
