"""Who someone is, as far as the server can tell beyond their user id: the browser and the
network address they speak from, and the mark of where a person's sessions were opened
(``{"at", "browsers", "addresses"}``, app/store/people.py) that a mute at a table
(app/chat/mutes.py) or a moderator's ban (app/moderation/sanctions.py) keeps, and whom
such a mark covers.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any


@dataclass(frozen=True)
class Speaker:
    """Someone saying something at a table, as far as the server can tell who they are."""

    user_id: str
    browser: str | None = None  # the mark of the browser they speak from
    address: str | None = None  # the network address they speak from
    guest_since: datetime | None = None  # when the guest was made (None: an account)


def covers(mark: dict[str, Any], speaker: Speaker) -> bool:
    """Whether a mark of where a person's sessions were opened (``{"at", "browsers",
    "addresses"}``, app/store/people.py) covers ``speaker``: one of its browsers, or a
    guest made since ``at`` from one of its addresses."""
    if speaker.browser is not None and speaker.browser in mark["browsers"]:
        return True
    made = speaker.guest_since
    fresh = made is not None and made >= datetime.fromisoformat(mark["at"].rstrip("Z"))
    return fresh and speaker.address is not None and speaker.address in mark["addresses"]
