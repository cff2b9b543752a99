"""Ratings per game, with OpenSkill's Plackett-Luce model (2 to 6 players a match).

- ``model``  — the model, a match's ranks from its result, and the rating shown;
- ``ledger`` — ``settle_match``, run inside the transaction that finishes a match (the
               event log's finishing hook), and ``rebuild``, which recomputes every rating
               from the match records;
- ``python -m app.ratings rebuild`` runs ``rebuild`` on DATABASE_URL.
"""

from app.ratings.ledger import rebuild, settle_match

__all__ = ["rebuild", "settle_match"]
