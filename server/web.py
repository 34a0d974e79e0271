"""The web client's HTTP side: `riichi-server` serves the page on its own port.

`GET /` is the lobby, `/join/CODE` and `/watch/CODE` open a table's links, `/games/ID` a
finished game's replay, `/replay` the replay of a dropped Tenhou log and `/events/ID/register`
an event's self-registration (the same page: it reads its address), and the built files (web/
built into server/webclient/ by scripts/setup.sh, package data of this package) are served as
they are, gzipped for a browser that takes it.
Every response carries a validator (ETag, Last-Modified) and a Content-Security-Policy that
allows no inline script and nothing from anywhere but this server; the page's websocket is
on the same origin (a request with `Upgrade: websocket` is the protocol's, at any path).
The files are read once, when the server starts: a request never touches the file system.
"""

from __future__ import annotations

import email.utils
import gzip
import hashlib
import re
import socket
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import Any

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

WEB_ROOT = Path(__file__).resolve().parent / "webclient"
PAGE = "index.html"
# The page's own addresses: a code is what server/lobby.py makes (token_urlsafe), at most 64 long;
# a finished game's replay (/games/ID), the replay of a dropped log (/replay) and an event's
# self-registration (/events/ID/register: server/events/registration.py).
PAGE_PATH = re.compile(r"^/(?:|index\.html|(?:join|watch)/[A-Za-z0-9_-]{1,64}/?|games/\d{1,18}/?|replay/?"
                       r"|events/[0-9a-f]{1,32}/register/?)$")
CONTENT_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
                 ".css": "text/css; charset=utf-8", ".svg": "image/svg+xml", ".json": "application/json",
                 ".md": "text/plain; charset=utf-8"}
# Nothing but this server: no inline script or style, no frames, no form posted elsewhere.
# img-src blob: for the tile front and back, which the page draws once into bitmaps (web/src/tiles.ts).
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; connect-src 'self';"
       " base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = (("Content-Security-Policy", CSP), ("X-Content-Type-Options", "nosniff"),
                    ("Referrer-Policy", "no-referrer"), ("Cross-Origin-Opener-Policy", "same-origin"))
# The page, its script and its style are checked again on every load (a new version shows at
# once); the tile art does not change between versions and is kept for a day.
CACHE_PAGE = "no-cache"
CACHE_ART = "public, max-age=86400"
NOT_BUILT = ("the web client is not built: run scripts/setup.sh (it needs Node.js 18 or later), then start"
             " riichi-server again\n")


@dataclass(frozen=True)
class StaticFile:
    """One file as it is sent: its bytes, gzipped when that is smaller, and its validators."""

    body: bytes
    gzipped: bytes | None
    etag: str
    modified: str
    content_type: str
    cache: str


def load_file(path: Path, name: str) -> StaticFile:
    body = path.read_bytes()
    packed = gzip.compress(body, compresslevel=9, mtime=0)
    digest = hashlib.sha256(body).hexdigest()[:20]
    return StaticFile(body=body, gzipped=packed if len(packed) < len(body) else None, etag=f'"{digest}"',
                      modified=email.utils.formatdate(path.stat().st_mtime, usegmt=True),
                      content_type=CONTENT_TYPES[path.suffix],
                      cache=CACHE_ART if name.startswith("tiles/") else CACHE_PAGE)


class WebClient:
    """The built files of the web client, by the path they are served at."""

    def __init__(self, root: Path = WEB_ROOT):
        self.files: dict[str, StaticFile] = {}
        if root.is_dir():
            for path in sorted(root.rglob("*")):
                name = path.relative_to(root).as_posix()
                if path.is_file() and path.suffix in CONTENT_TYPES and name != "build.json":
                    self.files[name] = load_file(path, name)

    @property
    def built(self) -> bool:
        return PAGE in self.files

    def respond(self, request: Request, path: str) -> Response:
        """The answer to a GET of `path` (without its query) that is not a websocket's."""
        if PAGE_PATH.match(path):
            if not self.built:
                return plain(HTTPStatus.SERVICE_UNAVAILABLE, NOT_BUILT)
            return self.send(request, self.files[PAGE])
        found = self.files.get(path.lstrip("/")) if path.startswith("/") and path != "/" + PAGE else None
        if found is None:
            return plain(HTTPStatus.NOT_FOUND, f"nothing here: {path[:80]} (the page is at /)\n")
        return self.send(request, found)

    def send(self, request: Request, file: StaticFile) -> Response:
        gz = file.gzipped is not None and takes_gzip(request.headers)
        etag = file.etag[:-1] + '-gz"' if gz else file.etag
        headers = Headers([("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close"),
                           ("Content-Type", file.content_type), ("Cache-Control", file.cache), ("ETag", etag),
                           ("Last-Modified", file.modified), *SECURITY_HEADERS])
        if file.gzipped is not None:
            headers["Vary"] = "Accept-Encoding"
        if fresh(request.headers, etag, file.modified):
            headers["Content-Length"] = "0"
            return Response(HTTPStatus.NOT_MODIFIED.value, HTTPStatus.NOT_MODIFIED.phrase, headers, b"")
        body = file.gzipped if gz else file.body
        if gz:
            headers["Content-Encoding"] = "gzip"
        headers["Content-Length"] = str(len(body))
        return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, headers, body)


def takes_gzip(headers: Headers) -> bool:
    accepted = ",".join(headers.get_all("Accept-Encoding")).lower()
    for part in accepted.split(","):
        coding, _, params = part.strip().partition(";")
        if coding.strip() == "gzip" and params.replace(" ", "") not in ("q=0", "q=0.0", "q=0.00", "q=0.000"):
            return True
    return False


def fresh(headers: Headers, etag: str, modified: str) -> bool:
    """Whether the browser's copy is this one (RFC 9110 13.1.2: If-None-Match wins over
    If-Modified-Since)."""
    if "If-None-Match" in headers:
        wanted = {tag.strip().removeprefix("W/") for tag in ",".join(headers.get_all("If-None-Match")).split(",")}
        return "*" in wanted or etag in wanted
    return headers.get("If-Modified-Since") == modified


def answer(status: HTTPStatus, body: bytes, content_type: str, cache: str = "no-store") -> Response:
    """A whole answer (not a built file's): `body` as it is sent, with the headers every answer of
    this server carries (the security headers among them)."""
    headers = Headers([("Date", email.utils.formatdate(usegmt=True)), ("Connection", "close"),
                       ("Content-Type", content_type), ("Content-Length", str(len(body))),
                       ("Cache-Control", cache), *SECURITY_HEADERS])
    return Response(status.value, status.phrase, headers, body)


def plain(status: HTTPStatus, text: str) -> Response:
    return answer(status, text.encode(), "text/plain; charset=utf-8")


def page_url(host: str, port: int) -> str:
    """The lobby's address for people: a server on every interface is named by its host name."""
    if host in ("", "0.0.0.0", "::"):
        host = socket.gethostname()
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def is_websocket(request: Request) -> bool:
    return "websocket" in ",".join(request.headers.get_all("Upgrade")).lower()


def web_request(client: WebClient | None, request: Any, path: str) -> Response | None:
    """For App.process_request: the page's answer to a plain HTTP request, None for a
    websocket's handshake (or when the server serves no page)."""
    if client is None or is_websocket(request):
        return None
    return client.respond(request, path)
