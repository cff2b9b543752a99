"""Who a mute at a table covers: the muted person, and fresh identities behind which the
server can tell the same person.

Making a new guest is free, so a mute on one user id alone is undone at once. When the host
mutes someone, the room records where that person's sessions were opened — the browsers'
marks (app/people/browser_mark.py) and the network addresses — and when. While the mute
lasts it also covers:

- anyone speaking from one of those browsers (a guest made after clearing the session
  cookie, or after logging out, in the browser that held the muted identity);
- any guest made after the mute whose connection comes from one of those addresses (a new
  guest in a private window, or another browser on the same machine or network).

Accounts that existed before are covered by their own mute only when they speak from
another browser; guests made before the mute are not covered by the address (they are
other people as far as the server can tell); the host is never covered.

A moderator's ban keeps the same mark of the banned account's sessions, and refuses a
new guest from them the same way (app/people/origins.py ``covers``).
"""

from __future__ import annotations

from app.people.origins import Speaker, covers
from app.rooms.records import LiveRoom


def is_muted(room: LiveRoom, speaker: Speaker) -> bool:
    """Whether the host's mutes at ``room`` cover ``speaker``."""
    if speaker.user_id in room.muted:
        return True
    if speaker.user_id == room.host_id:
        return False
    return any(covers(mark, speaker) for mark in room.mute_marks.values())
