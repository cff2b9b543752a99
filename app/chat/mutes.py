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

A moderator's ban keeps the same mark of the banned account's sessions, and ``covers``
refuses a new guest from them the same way (app/moderation/sanctions.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from app.rooms.records import LiveRoom


@dataclass(frozen=True)
class Speaker:
    """Someone saying something at a table, as far as the server can tell who they are."""

    user_id: str
    browser: str | None = None  # the mark of the browser they speak from
    address: str | None = None  # the network address they speak from
    guest_since: datetime | None = None  # when the guest was made (None: an account)


def is_muted(room: LiveRoom, speaker: Speaker) -> bool:
    """Whether the host's mutes at ``room`` cover ``speaker``."""
    if speaker.user_id in room.muted:
        return True
    if speaker.user_id == room.host_id:
        return False
    return any(covers(mark, speaker) for mark in room.mute_marks.values())


def covers(mark: dict[str, Any], speaker: Speaker) -> bool:
    """Whether a mark of where a person's sessions were opened (``{"at", "browsers",
    "addresses"}``, app/store/people.py) covers ``speaker``: one of its browsers, or a
    guest made since ``at`` from one of its addresses."""
    if speaker.browser is not None and speaker.browser in mark["browsers"]:
        return True
    made = speaker.guest_since
    fresh = made is not None and made >= datetime.fromisoformat(mark["at"].rstrip("Z"))
    return fresh and speaker.address is not None and speaker.address in mark["addresses"]
