"""The static files (static/), each under a content-hashed address that may be cached for a
year, and each page's ES-module graph, for the page to preload at once.

Everything under static/ is read once, when the app is made. A file's hashed address
puts the first 12 hex digits of a SHA-256 before its extension: ``/static/css/base.css``
is also ``/static/css/base.0123456789ab.css``. Under its hashed address a file is sent
with ``Cache-Control: public, max-age=31536000, immutable`` (the address changes when the
file does); under its plain address it is sent with ``no-cache`` (the browser asks again
each time, and an ``ETag`` lets the server answer 304). Templates name a file by its plain
path through the one ``static_url`` helper (a Jinja2 global) and get the hashed address.

ES modules import each other by relative paths (``import { h } from "../lib/dom.js"``).
Under its hashed address a module's relative imports are rewritten to the hashed addresses
of what they import, so a whole graph of modules is cached together and never mixed with
an older version of one of its parts. A module's hash covers its own text and the text of
every module it reaches (cycles included), so it changes whenever anything it runs does.
Under its plain address a module is sent as written, importing plain addresses.

A page's entry module imports others, which import more: fetched one by one, each level
waits for the one before (a chain of requests). ``module_graph`` lists every module an
entry reaches, found from the import statements at start-up, and the page names each in a
``<link rel="modulepreload">``, so the browser asks for all of them at once.

Text files (scripts, stylesheets, SVG) are kept gzip-compressed as well, and sent so to a
browser that accepts gzip; the rest of the site's responses are compressed as they are
sent (``GZipMiddleware``, app/main.py), which leaves these alone.
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.types import Receive, Scope, Send

PREFIX = "/static/"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
HASH_DIGITS = 12
COMPRESSIBLE = frozenset({".js", ".css", ".svg", ".json", ".txt", ".html", ".map"})
MEDIA_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}

# A relative specifier in a static import or re-export: `from "./x.js"`, `import "./x.js"`.
# Only "./" and "../" paths ending in ".js" are taken, so prose that happens to say "from"
# cannot match.
IMPORT = re.compile(r"""(\bfrom|\bimport)(\s*)(["'])(\.\.?/[^"'\s]+?\.js)\3""")
HASHED = re.compile(rf"^(?P<stem>.+)\.[0-9a-f]{{{HASH_DIGITS}}}(?P<ext>\.[A-Za-z0-9]+)$")


@dataclass(frozen=True)
class Asset:
    """One static file as sent: its plain path, hashed path, and bodies."""

    path: str  # "js/lib/dom.js"
    hashed: str  # "js/lib/dom.0123456789ab.js"
    plain_body: bytes  # as written
    hashed_body: bytes  # as written, imports rewritten to hashed addresses
    plain_gzip: bytes | None
    hashed_gzip: bytes | None
    media_type: str
    plain_etag: str
    hashed_etag: str


def _imports(text: str, path: str) -> list[str]:
    """The static files (paths under static/) a module imports, in order."""
    base = PurePosixPath(path).parent
    found = []
    for match in IMPORT.finditer(text):
        target = _normalise(base / match.group(4))
        if target not in found:
            found.append(target)
    return found


def _etag(body: bytes) -> str:
    """A weak validator: the same for the plain and the gzip-compressed body."""
    return 'W/"' + hashlib.sha256(body).hexdigest()[:20] + '"'


def _normalise(path: PurePosixPath) -> str:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            if parts:
                parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def _with_hash(path: str, digest: str) -> str:
    pure = PurePosixPath(path)
    return str(pure.with_name(f"{pure.stem}.{digest}{pure.suffix}"))


def _relative(from_path: str, to_path: str) -> str:
    """``to_path`` as a relative specifier from the module at ``from_path``."""
    start = PurePosixPath(from_path).parent.parts
    target = PurePosixPath(to_path).parts
    common = 0
    while common < min(len(start), len(target) - 1) and start[common] == target[common]:
        common += 1
    ups = len(start) - common
    rest = "/".join(target[common:])
    return ("../" * ups if ups else "./") + rest


class Assets:
    """Every file under ``root``, by plain and hashed path, and the modules' graph.

    ``joined`` names files made by joining others, in order (each ending its line):
    ``{"css/site.css": ["css/base.css", ...]}``; they are served as if they were files."""

    def __init__(self, root: Path, joined: dict[str, list[str]] | None = None) -> None:
        self.root = root
        sources = {
            file.relative_to(root).as_posix(): file.read_bytes()
            for file in sorted(root.rglob("*"))
            if file.is_file() and not file.name.startswith(".")
        }
        for name, parts in (joined or {}).items():
            sources[name] = b"".join(sources[part].rstrip(b"\n") + b"\n" for part in parts)
        self.graph: dict[str, list[str]] = {
            path: [p for p in _imports(body.decode("utf-8"), path) if p in sources]
            for path, body in sources.items()
            if path.endswith(".js")
        }
        digests = {path: self._digest(path, sources) for path in sources}
        self.by_plain: dict[str, Asset] = {}
        self.by_hashed: dict[str, Asset] = {}
        for path, body in sources.items():
            hashed = _with_hash(path, digests[path])
            served = self._rewrite(path, body, digests) if path in self.graph else body
            suffix = PurePosixPath(path).suffix
            media_type = MEDIA_TYPES.get(suffix) or (
                mimetypes.guess_type(path)[0] or "application/octet-stream"
            )
            compress = suffix in COMPRESSIBLE
            asset = Asset(
                path=path,
                hashed=hashed,
                plain_body=body,
                hashed_body=served,
                plain_gzip=gzip.compress(body, 9, mtime=0) if compress else None,
                hashed_gzip=gzip.compress(served, 9, mtime=0) if compress else None,
                media_type=media_type,
                plain_etag=_etag(body),
                hashed_etag=_etag(served),
            )
            self.by_plain[path] = asset
            self.by_hashed[hashed] = asset

    def _digest(self, path: str, sources: dict[str, bytes]) -> str:
        """The hash of a file, and for a module of every module it reaches."""
        digest = hashlib.sha256()
        for reached in [path, *sorted(self.module_graph(path))] if path in self.graph else [path]:
            digest.update(reached.encode() + b"\0" + sources[reached] + b"\0")
        return digest.hexdigest()[:HASH_DIGITS]

    def _rewrite(self, path: str, body: bytes, digests: dict[str, str]) -> bytes:
        base = PurePosixPath(path).parent

        def hashed(match: re.Match[str]) -> str:
            target = _normalise(base / match.group(4))
            if target not in digests:
                return match.group(0)
            specifier = _relative(path, _with_hash(target, digests[target]))
            quote = match.group(3)
            return f"{match.group(1)}{match.group(2)}{quote}{specifier}{quote}"

        return IMPORT.sub(hashed, body.decode("utf-8")).encode("utf-8")

    def url(self, path: str) -> str:
        """The hashed address of the static file at ``path`` (as under static/)."""
        asset = self.by_plain.get(path.lstrip("/"))
        if asset is None:
            raise LookupError(f"No static file {path!r}.")
        return PREFIX + asset.hashed

    def module_graph(self, entry: str) -> list[str]:
        """Every module ``entry`` reaches through its imports (itself not included), in
        the order a depth-first walk meets them."""
        seen: list[str] = []
        stack = list(reversed(self.graph.get(entry, [])))
        while stack:
            path = stack.pop()
            if path in seen or path == entry:
                continue
            seen.append(path)
            stack.extend(reversed(self.graph.get(path, [])))
        return seen

    def preloads(self, entry: str) -> list[str]:
        """The hashed addresses of every module the entry module reaches."""
        return [self.url(path) for path in self.module_graph(entry.lstrip("/"))]

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve ``/static/<path>`` (mounted at /static: the path arrives without it)."""
        response = self.response(scope["path"].removeprefix(scope.get("root_path", "")), scope)
        await response(scope, receive, send)

    def response(self, path: str, scope: Scope) -> Response:
        """The answer for a path under /static/; a missing file raises the 404 the app's
        error handlers put in its one error shape (app/http/errors.py)."""
        path = path.lstrip("/")
        if scope["method"] not in ("GET", "HEAD"):
            raise HTTPException(405, "Static files are only read.", headers={"Allow": "GET, HEAD"})
        asset = self.by_hashed.get(path)
        if asset is not None:
            return self._send(scope, asset, hashed=True, cache=IMMUTABLE)
        asset = self.by_plain.get(path)
        if asset is not None:
            return self._send(scope, asset, hashed=False, cache=REVALIDATE)
        match = HASHED.match(path)
        stale = self.by_plain.get(match["stem"] + match["ext"]) if match else None
        if stale is not None:
            # An address from another version (a page from before a deploy): the file as
            # it is now, never to be kept.
            return self._send(scope, stale, hashed=True, cache=REVALIDATE)
        raise HTTPException(404, f"There is no static file {path!r}.")

    def _send(self, scope: Scope, asset: Asset, *, hashed: bool, cache: str) -> Response:
        if hashed:
            body, packed, etag = asset.hashed_body, asset.hashed_gzip, asset.hashed_etag
        else:
            body, packed, etag = asset.plain_body, asset.plain_gzip, asset.plain_etag
        headers = {"Cache-Control": cache, "ETag": etag}
        request_headers = Headers(scope=scope)
        if packed is not None:
            headers["Vary"] = "Accept-Encoding"
        if etag in request_headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)
        if packed is not None and "gzip" in request_headers.get("accept-encoding", ""):
            headers["Content-Encoding"] = "gzip"
            body = packed
        return Response(body, media_type=asset.media_type, headers=headers)


STATIC_DIR = Path(__file__).resolve().parents[2] / "static"


def site_stylesheets(root: Path = STATIC_DIR) -> list[str]:
    """Every stylesheet of the site in the order of the cascade (a later one may refine an
    earlier one): the shared ones, then each game's own (css/games/<game>.css)."""
    games = sorted(f"css/games/{f.name}" for f in (root / "css" / "games").glob("*.css"))
    return [f"css/{name}.css" for name in STYLESHEETS] + games


# The shared stylesheets, one per concern (docs/client.md lists what each styles).
STYLESHEETS = [
    "base",
    "header",
    "controls",
    "lobby",
    "table",
    "hand",
    "panels",
    "cards",
    "pages",
    "talk",
    "accounts",
    "social",
    "phone",
    "aids",
]
SITE_CSS = "css/site.css"


@cache
def site_assets() -> Assets:
    """The site's static files, read once per process (the app reads them when it is made),
    with every stylesheet joined into one (css/site.css): one request, not seventeen, blocks
    a page's first paint."""
    return Assets(STATIC_DIR, {SITE_CSS: site_stylesheets()})
