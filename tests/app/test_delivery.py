"""How pages and static files reach the browser: compressed, static files under
content-hashed addresses cached for a year, every module a page runs named for preloading,
and a description on every page."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath

import pytest
from fastapi.testclient import TestClient

from app.http.assets import IMMUTABLE, Assets, site_assets
from tests.app.helpers import NewClient, account
from tests.app.test_accounts import finished_guest_match

GZIP = {"Accept-Encoding": "gzip"}
STATIC_IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*["'](\.\.?/[^"']+\.js)["']""")


class Head(HTMLParser):
    """The addresses a page names: its module scripts, preloads, stylesheets, its icon, and
    its meta description."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[str] = []
        self.preloads: list[str] = []
        self.styles: list[str] = []
        self.icons: list[str] = []
        self.description: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "script" and a.get("type") == "module" and a.get("src"):
            self.scripts.append(str(a["src"]))
        elif tag == "link" and a.get("rel") == "modulepreload":
            self.preloads.append(str(a["href"]))
        elif tag == "link" and a.get("rel") == "stylesheet":
            self.styles.append(str(a["href"]))
        elif tag == "link" and a.get("rel") == "icon":
            self.icons.append(str(a["href"]))
        elif tag == "meta" and a.get("name") == "description":
            self.description = a.get("content")


def read_head(html: str) -> Head:
    head = Head()
    head.feed(html)
    return head


def pages(new_client: NewClient) -> tuple[TestClient, dict[str, str]]:
    """A signed-up browser, and a path for every kind of page: home, lobby, table as watcher,
    review, history, player, leaderboard, rules, and a bad link."""
    client = account(new_client, "ada")
    room = client.post("/api/rooms", json={"game": "cupid"}).json()
    return client, {
        "review": f"/matches/{finished_guest_match(client)}",
        "player": "/players/ada",
        "home": "/",
        "room": f"/rooms/{room['id']}",
        "watch": f"/rooms/{room['id']}/watch",
        "history": "/history",
        "leaderboard": "/leaderboard",
        "rules": "/rules/cups",
        "message": "/rooms/NOPE99",
    }


def fetch_module_graph(client: TestClient, entry: str) -> set[str]:
    """Every module address the browser would load from ``entry``, following its imports
    as served (so, the hashed addresses the rewritten imports name)."""
    seen: set[str] = set()
    todo = [entry]
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        assert response.status_code == 200, url
        base = PurePosixPath(url).parent
        for specifier in STATIC_IMPORT.findall(response.text):
            todo.append(str(PurePosixPath(*_resolve(base / specifier))))
    return seen


def _resolve(path: PurePosixPath) -> list[str]:
    parts: list[str] = []
    for part in path.parts:
        if part == "..":
            parts.pop()
        elif part != ".":
            parts.append(part)
    return parts


def test_pages_json_scripts_and_stylesheets_come_compressed(new_client: NewClient) -> None:
    ann = new_client("Ann")
    page = ann.get("/", headers=GZIP)
    assert page.headers["content-encoding"] == "gzip"
    assert "Accept-Encoding" in page.headers["vary"]
    head = read_head(page.text)
    for url in (head.scripts[0], head.styles[0], head.preloads[0]):
        response = ann.get(url, headers=GZIP)
        assert response.status_code == 200, url
        assert response.headers["content-encoding"] == "gzip", url
    games = ann.get("/api/games", headers=GZIP)
    assert games.headers["content-type"].startswith("application/json")
    assert games.headers["content-encoding"] == "gzip"
    # A browser that does not say it takes gzip gets the plain text.
    plain = ann.get(head.scripts[0], headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.text.startswith("//")


def test_a_review_and_the_downloads_arrive_whole_when_compressed(new_client: NewClient) -> None:
    ann = new_client("Ann")
    match_id = finished_guest_match(ann)
    plain = ann.get(f"/api/matches/{match_id}/review", headers={"Accept-Encoding": "identity"})
    packed = ann.get(f"/api/matches/{match_id}/review", headers=GZIP)
    assert packed.headers["content-encoding"] == "gzip"
    assert int(packed.headers["content-length"]) < len(plain.content) / 4
    assert packed.json() == plain.json()
    for name in ("record.json", "transcript.txt"):
        response = ann.get(f"/api/matches/{match_id}/{name}", headers=GZIP)
        assert response.status_code == 200, response.text
        assert response.headers["content-encoding"] == "gzip"
        assert response.headers["content-disposition"].startswith("attachment;")
        assert response.content == ann.get(f"/api/matches/{match_id}/{name}").content


def test_static_files_under_hashed_addresses_are_kept_a_year(new_client: NewClient) -> None:
    ann = new_client("Ann")
    head = read_head(ann.get("/").text)
    named = [*head.scripts, *head.preloads, *head.styles, *head.icons]
    assert named
    for url in named:
        assert re.search(r"\.[0-9a-f]{12}\.(js|css|svg)$", url), url
        response = ann.get(url)
        assert response.status_code == 200, url
        assert response.headers["cache-control"] == IMMUTABLE, url
    # The plain address still works, kept only until the browser asks again.
    plain = ann.get("/static/css/base.css")
    assert plain.status_code == 200
    assert plain.headers["cache-control"] == "no-cache"
    again = ann.get("/static/css/base.css", headers={"If-None-Match": plain.headers["etag"]})
    assert again.status_code == 304
    missing = ann.get("/static/css/nothing.css")
    assert missing.status_code == 404
    assert missing.json()["code"] == "not_found"
    # An address from another version of the file: today's file, never kept.
    stale = ann.get("/static/css/base.000000000000.css")
    assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"
    assert stale.content == plain.content


def test_a_hashed_address_changes_with_anything_its_module_runs(tmp_path: Path) -> None:
    root = tmp_path
    (root / "js" / "lib").mkdir(parents=True)
    (root / "js" / "pages").mkdir()
    (root / "js" / "lib" / "a.js").write_text('import { b } from "./b.js";\nexport const a = b;\n')
    (root / "js" / "lib" / "b.js").write_text('import { a } from "./a.js";\nexport const b = 1;\n')
    (root / "js" / "pages" / "p.js").write_text('import { a } from "../lib/a.js";\n')
    before = Assets(root)
    page = before.by_plain["js/pages/p.js"]
    assert page.hashed_body.decode().startswith(
        f'import {{ a }} from "../lib/{PurePosixPath(before.url("js/lib/a.js")).name}";'
    )
    assert before.module_graph("js/pages/p.js") == ["js/lib/a.js", "js/lib/b.js"]
    (root / "js" / "lib" / "b.js").write_text('import { a } from "./a.js";\nexport const b = 2;\n')
    after = Assets(root)
    # b changed: so did everything that reaches it (a cycle included), and nothing else.
    for path in ("js/lib/a.js", "js/lib/b.js", "js/pages/p.js"):
        assert before.url(path) != after.url(path), path


def test_every_module_a_page_runs_is_preloaded(new_client: NewClient) -> None:
    ann, paths = pages(new_client)
    for name, path in paths.items():
        page = ann.get(path)
        assert page.status_code in (200, 404), name
        head = read_head(page.text)
        assert len(head.scripts) == 1, name
        graph = fetch_module_graph(ann, head.scripts[0])
        assert graph - {head.scripts[0]} == set(head.preloads), name
        assert len(head.preloads) == len(set(head.preloads)), name


def test_the_room_page_preloads_the_table(new_client: NewClient) -> None:
    ann = new_client("Ann")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    head = read_head(ann.get(f"/rooms/{room['id']}").text)
    names = {PurePosixPath(url).name.split(".")[0] for url in head.preloads}
    assert {"table", "socket", "dom", "cards"} <= names


@pytest.mark.parametrize(
    "path", ["/", "/history", "/leaderboard", "/rules/usurp", "/players/nobody"]
)
def test_every_page_has_a_description(new_client: NewClient, path: str) -> None:
    description = read_head(new_client(None).get(path).text).description
    assert description and len(description) > 50, (path, description)


def test_rooms_reviews_and_players_have_descriptions(new_client: NewClient) -> None:
    ann, paths = pages(new_client)
    for name, path in paths.items():
        description = read_head(ann.get(path).text).description
        assert description and len(description) > 50, (name, description)
    assert site_assets().url("css/base.css").startswith("/static/css/base.")


def test_every_stylesheet_is_in_the_one_the_pages_link(new_client: NewClient) -> None:
    assets = site_assets()
    joined = assets.by_plain["css/site.css"].plain_body.decode()
    for path in assets.by_plain:
        if path.endswith(".css") and path != "css/site.css":
            assert assets.by_plain[path].plain_body.decode().strip() in joined, path
    head = read_head(new_client(None).get("/rules/cupid").text)
    assert head.styles == [assets.url("css/site.css")]


def test_the_play_socket_is_never_compressed(new_client: NewClient) -> None:
    ann = new_client("Ann")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    with ann.websocket_connect(f"/ws/rooms/{room['id']}", headers=GZIP) as socket:
        first = socket.receive_text()  # a text frame of plain JSON, not gzip bytes
    assert first.startswith("{")
