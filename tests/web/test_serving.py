"""riichi-server serves the web client on its own port (server/web.py), from a real server
process: the lobby and each table's links, the built files with cache validators and gzip,
a Content-Security-Policy that allows no inline script and nothing from elsewhere, and the
websocket on the same port as before.  Bad paths get a 404 and the server goes on."""

from __future__ import annotations

import gzip
import http.client
import importlib.resources
import re
import subprocess
from pathlib import Path

import pytest
from websockets.datastructures import Headers

from protocol.client import Client
from server.web import CSP, WebClient

REPO = Path(__file__).resolve().parents[2]
# one server for these requests: none of them changes what another sees
pytestmark = pytest.mark.server(shared=True)

CODE = "RrRPvRkuQWpEoeuv"


def get(port: int, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    body = response.read()
    conn.close()
    return response.status, {k.lower(): v for k, v in response.getheaders()}, body


def test_the_lobby_and_a_tables_links_are_the_page_with_a_policy_that_allows_no_inline_script(server):
    pages = [get(server.port, path) for path in ("/", f"/join/{CODE}", f"/watch/{CODE}", "/?from=mail")]
    assert {status for status, _, _ in pages} == {200}
    status, headers, html = pages[0]
    assert all(body == html for _, _, body in pages)
    assert headers["content-type"] == "text/html; charset=utf-8"
    policy = headers["content-security-policy"]
    assert policy == CSP
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'none'" and directives["script-src"] == "'self'"
    assert directives["img-src"] == "'self' blob:"  # blob: the tile front and back the page draws once
    assert directives["connect-src"] == "'self'"  # the websocket: this origin only
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy and "http" not in policy
    assert headers["x-content-type-options"] == "nosniff"
    text = html.decode()
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", text, re.S)
    assert scripts and all('src="/' in attrs and body.strip() == "" for attrs, body in scripts)
    assert "<style" not in text and " style=" not in text
    assert not re.search(r"\son[a-z]+=", text)  # no inline handlers
    assert not re.search(r"(src|href)=\"(https?:)?//", text)  # nothing from anywhere else


def test_every_file_the_page_refers_to_is_served(server):
    _, _, html = get(server.port, "/")
    _, _, css = get(server.port, "/app.css")
    _, _, js = get(server.port, "/app.js")
    referred = set(re.findall(r'(?:src|href)="(/[^"]*)"', html.decode()))
    referred |= set(re.findall(r'url\("?(/[^")]+)"?\)', css.decode()))
    assert {"/app.js", "/app.css", "/tiles/Chun.svg"} <= referred
    # the script names each picture (web/src/tiles.ts): the suits' 1-9 and red fives, the honours, front and back
    script = js.decode()
    names = [f"{suit}{n}" for suit in ("Man", "Pin", "Sou") for n in range(1, 10)]
    names += [f"{suit}5-Dora" for suit in ("Man", "Pin", "Sou")]
    names += ["Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun", "Front", "Back"]
    assert all(word in script for word in ("Man", "Pin", "Sou", "-Dora", "Shaa", "Hatsu", "Front", "Back", "/tiles/"))
    referred |= {f"/tiles/{name}.svg" for name in names}
    for path in sorted(referred):
        status, headers, body = get(server.port, path)
        assert status == 200 and body, path


def test_static_files_carry_validators_answer_304_and_come_gzipped_when_asked(server):
    status, headers, body = get(server.port, "/tiles/Pin5.svg")
    assert status == 200 and headers["content-type"] == "image/svg+xml" and body.startswith(b"<?xml")
    etag, modified = headers["etag"], headers["last-modified"]
    assert get(server.port, "/tiles/Pin5.svg", **{"If-None-Match": etag})[0] == 304
    assert get(server.port, "/tiles/Pin5.svg", **{"If-None-Match": f'"other", W/{etag}'})[0] == 304
    assert get(server.port, "/tiles/Pin5.svg", **{"If-Modified-Since": modified})[0] == 304
    assert get(server.port, "/tiles/Pin5.svg", **{"If-None-Match": '"other"'})[0] == 200
    status, zipped, packed = get(server.port, "/tiles/Pin5.svg", **{"Accept-Encoding": "gzip, deflate"})
    assert status == 200 and zipped["content-encoding"] == "gzip" and zipped["vary"] == "Accept-Encoding"
    assert gzip.decompress(packed) == body and len(packed) < len(body) / 2
    assert zipped["etag"] != etag  # the gzipped bytes are another representation
    assert get(server.port, "/tiles/Pin5.svg", **{"Accept-Encoding": "gzip", "If-None-Match": zipped["etag"]})[0] == 304
    assert "content-encoding" not in get(server.port, "/tiles/Pin5.svg", **{"Accept-Encoding": "gzip;q=0"})[1]
    assert get(server.port, "/app.js")[1]["cache-control"] == "no-cache"  # a new version shows at once


@pytest.mark.asyncio
async def test_bad_paths_get_a_404_and_the_websocket_still_answers_on_the_same_port(server):
    for path in ("/nothing", "/join/", "/join/bad%20code", "/join/a/b", "/tiles/../../server/app.py",
                 "/tiles/%2e%2e/app.js", "/build.json", "/watch/" + "x" * 65, "//etc/passwd", "/app.js/"):
        status, headers, body = get(server.port, path)
        assert status == 404, path
        assert body.decode().count("\n") == 1 and "content-security-policy" in headers
    assert get(server.port, "/healthz")[0] == 200
    client = await Client.connect(server.url, "alice")
    assert client.welcome["type"] == "welcome"
    await client.close()


def test_a_server_without_a_built_client_says_how_to_build_it(tmp_path):
    client = WebClient(root=tmp_path / "nothing-here")
    assert not client.built

    class Request:  # what websockets hands process_request: only its headers are read
        headers = Headers()

    response = client.respond(Request(), "/")
    assert response.status_code == 503 and b"scripts/setup.sh" in response.body
    assert client.respond(Request(), "/app.js").status_code == 404


def test_the_built_client_is_package_data_built_from_the_current_sources():
    built = importlib.resources.files("server") / "webclient"
    names = {p.name for p in built.iterdir()}
    assert {"index.html", "app.js", "app.css", "tiles"} <= names, "run scripts/setup.sh: it builds web/"
    tiles = {p.name for p in (built / "tiles").iterdir()}
    assert len([n for n in tiles if n.endswith(".svg")]) == 40 and {"README.md", "LICENSE.md"} <= tiles
    note = (built / "tiles" / "README.md").read_text()
    assert "FluffyStuff/riichi-mahjong-tiles" in note and "public domain" in note
    fresh = subprocess.run(["node", str(REPO / "web" / "build.mjs"), "--fresh"], capture_output=True)
    assert fresh.returncode == 0, "server/webclient/ is older than web/: run scripts/setup.sh (it builds it)"
