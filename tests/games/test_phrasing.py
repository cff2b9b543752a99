"""Seat phrasing in messages (games.kit.phrasing): "You" for the viewer, "Seat n" otherwise."""

from __future__ import annotations

from games.kit.phrasing import Phrasing, plural, seat_list, seat_name


def test_the_viewer_is_you_and_the_verb_agrees() -> None:
    you = Phrasing(1)
    assert you.who(1) == "You" and you.who(1, start=False) == "you"
    assert you.who(0) == you.who(0, start=False) == "Seat 1"
    assert you.whose(1) == "Your" and you.whose(1, start=False) == "your"
    assert you.whose(2) == "Seat 3's"
    assert you.who_does(1, "lead", "leads") == "You lead"
    assert you.who_does(0, "lead", "leads", start=False) == "Seat 1 leads"


def test_a_spectator_sees_every_seat_by_name() -> None:
    nobody = Phrasing(None)
    assert [nobody.who(s) for s in range(2)] == ["Seat 1", "Seat 2"]


def test_lists_and_counts() -> None:
    assert seat_name(0) == "Seat 1"
    assert seat_list([]) == ""
    assert seat_list([2]) == "Seat 3"
    assert seat_list([0, 1]) == "Seat 1 and Seat 2"
    assert seat_list([0, 1, 3]) == "Seat 1, Seat 2 and Seat 4"
    assert plural(1, "point") == "1 point" and plural(0, "point") == "0 points"
