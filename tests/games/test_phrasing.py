"""Seat phrasing in messages (games.kit.phrasing): the viewer's own message, "Seat n"
otherwise."""

from __future__ import annotations

from games.kit.account import N_, render
from games.kit.phrasing import addressed, seat_list, seat_name


def test_the_viewer_is_addressed_with_a_message_of_their_own() -> None:
    def leads(viewer: int | None, seat: int) -> str:
        return render(addressed(viewer, seat, N_("You lead."), N_("{seat} leads.")))

    assert leads(1, 1) == "You lead."
    assert leads(1, 0) == "Seat 1 leads."
    assert [leads(None, s) for s in range(2)] == ["Seat 1 leads.", "Seat 2 leads."]


def test_lists() -> None:
    assert seat_name(0) == "Seat 1"
    assert seat_list([]) == ""
    assert seat_list([2]) == "Seat 3"
    assert seat_list([0, 1]) == "Seat 1 and Seat 2"
    assert seat_list([0, 1, 3]) == "Seat 1, Seat 2 and Seat 4"
