"""The helpers that change frozen states (games.kit.frozen) give what the long way gives."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.kit.frozen import add_at, evolve, freeze, remove_card, thaw


@dataclass(frozen=True)
class Table:
    hands: tuple[tuple[str, ...], ...]
    turn: int


def test_evolve_is_dataclasses_replace_and_leaves_the_input_alone() -> None:
    before = Table(hands=(("AS",), ("KD",)), turn=0)
    after = evolve(before, turn=1)
    assert after == replace(before, turn=1) and type(after) is Table
    assert before == Table(hands=(("AS",), ("KD",)), turn=0)
    assert hash(after) == hash(replace(before, turn=1))


def test_add_at_adds_points_or_appends_cards_to_one_seat() -> None:
    assert add_at((1, 2, 3), 1, 10) == (1, 12, 3)
    assert add_at((("AS",), ()), 1, ("KD", "QD")) == (("AS",), ("KD", "QD"))


def test_remove_card_takes_it_from_that_hand_only() -> None:
    hands = (("AS", "KD"), ("AS", "2C"))
    assert remove_card(hands, 0, "AS") == (("KD",), ("AS", "2C"))


def test_records_freeze_to_tuples_and_thaw_to_json() -> None:
    record = freeze({"seat": 1, "type": "gift", "givers": [0, 2], "card": "QD"})
    assert record == (("seat", 1), ("type", "gift"), ("givers", (0, 2)), ("card", "QD"))
    assert thaw(record) == {"seat": 1, "type": "gift", "givers": [0, 2], "card": "QD"}
    assert thaw(record, hidden={"QD"}) == {"seat": 1, "type": "gift", "givers": [0, 2]}
    assert thaw(None) is None and thaw(()) is None
