"""The games kit: what every game folder builds on, written once.

- ``base``: the rules contract (``Rules``, ``Previews``, ``IllegalAction``), ``states``
  (a match is its log) and the checks every game makes the same way;
- ``engine``: ``Engine``, the shared part of every rules class (options, the opening of a
  match, the keys every view shares);
- ``tricks``: the trick-taking step that several games share;
- ``cards``, ``options``, ``frozen``, ``phrasing``: card codes and seeded shuffles, table
  options, changing frozen states, naming seats in messages;
- ``account``: accounts of moves as message ids with their arguments, the ``N_`` marker,
  and their rendering in a language; ``words``: wording shared by the describers;
  ``sampling``: the dealing shared by the samplers;
- ``game``: ``Game``, the bundle a game folder hands the registry (games/__init__.py).
"""
