"""Data a page hands its scripts, written as JSON inside a ``<script>`` block.

An HTML parser reads a script block's text before any JSON parser does, and reacts to
more than ``</script>``: ``<!--`` followed by ``<script`` puts it in a state where the
block's own ``</script>`` no longer ends it, so the rest of the page (its module script
included) is swallowed. JSON lets any character of a string be written as a ``\\u`` escape,
so every ``<``, ``>`` and ``&`` is, and the block's text holds none of them; U+2028 and
U+2029 are escaped too, as older JavaScript parsers end a line at them. The JSON parser
reads back exactly the same data.

Every template embeds its data through the ``script_json`` filter (registered with the
pages' templates in app/routes/pages.py).
"""

from __future__ import annotations

from typing import Any

import orjson
from markupsafe import Markup

_ESCAPES = str.maketrans(
    {
        "<": "\\u003c",
        ">": "\\u003e",
        "&": "\\u0026",
        "\u2028": "\\u2028",
        "\u2029": "\\u2029",
    }
)


def script_json(data: Any) -> Markup:
    """``data`` as JSON that may stand as the whole text of a ``<script>`` block."""
    return Markup(orjson.dumps(data).decode().translate(_ESCAPES))
