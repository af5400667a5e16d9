"""The one static server for the built site: `make serve`, the browser tests and the benchmark.

It answers as a static host does (GitHub Pages, Netlify, a plain nginx), so what works here
works there:
- a missing path gets the site's own 404.html with status 404, never a directory listing;
- text, JavaScript, JSON and wasm go gzip-compressed to a browser that accepts it (archives,
  wheels and images are compressed already and go as they are);
- the site can sit under a sub-path (`--base /fault-lines/`), as a project page does.

Cache policy (why not plain `python -m http.server`: it sends no Cache-Control, so Chromium's
caching of a reload is left to heuristics):
- names with a content hash (JupyterLite's and Material's bundles, `1031.b91a70b.js`, the boot
  pack): cached for a year, immutable: a change gives a new name;
- everything else (pages, configs, the Pyodide core, the wheels and their lock): `no-cache`,
  i.e. kept but revalidated on every use; an unchanged file costs a 304 with no body. Wheels
  keep their names across rebuilds while their sha256 in the lock changes, and a stale cached
  wheel would fail the lock's integrity check, so they must not be served as immutable.

The benchmark slows it down to a home link (`Link`): the browser's own throttling misses the
fetches a service worker makes, so the server is where the link is simulated.

    python -m hooks.site_build.serve site [--port 8000] [--base /fault-lines/]   (from the repository root)
"""

from __future__ import annotations

import argparse
import email.utils
import functools
import gzip
import http.server
import io
import re
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

HASHED_NAME = re.compile(r"[.-][0-9a-f]{7,}(\.min)?\.(js|css|woff2?|svg|png|pack\.gz)$")
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
# Compressed on the fly, as static hosts do for text-like types; the rest is compressed already.
COMPRESSIBLE = {
    ".html",
    ".js",
    ".mjs",
    ".css",
    ".json",
    ".svg",
    ".wasm",
    ".ipynb",
    ".txt",
    ".xml",
    ".map",
    ".py",
}
CHUNK = 64 * 1024


@dataclass
class Link:
    """A network link shared by every connection: `rate` bytes/s and `latency` seconds per request."""

    rate: float
    latency: float
    _next_free: float = 0.0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def send(self, size: int) -> None:
        """Wait until `size` more bytes could have crossed the link (a shared token bucket)."""
        with self._lock:
            now = time.monotonic()
            self._next_free = max(self._next_free, now) + size / self.rate
            wait = self._next_free - now
        if wait > 0:
            time.sleep(wait)


@functools.lru_cache(maxsize=256)
def _gzipped(path: str, mtime: float, size: int) -> bytes:
    # Keyed by mtime and size too: a rebuild under a running server must not serve stale bytes.
    return gzip.compress(Path(path).read_bytes(), compresslevel=6, mtime=0)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",  # streaming compilation needs the right type
        ".mjs": "text/javascript",
        ".whl": "application/octet-stream",
        ".ipynb": "application/x-ipynb+json",
    }
    base = "/"  # the sub-path the site is published under
    link: Link | None = None  # set (on a subclass) to simulate a slower network
    sent_bytes: list[int] | None = None  # set (on a subclass) to count body bytes sent

    def log_message(self, *args):
        pass

    def _site_path(self) -> str | None:
        """The request's path inside the site (no query), or None if it is outside the base."""
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        if not path.startswith(self.base):
            return None
        return "/" + path[len(self.base) :]

    def send_head(self):
        if self.link:
            time.sleep(self.link.latency)
        site_path = self._site_path()
        if site_path is None:
            return self._not_found()
        local = Path(self.translate_path(site_path))
        if local.is_dir():
            if not site_path.endswith("/"):
                self.send_response(301)
                self.send_header("Location", self.base + site_path[1:] + "/")
                self.send_header("Content-Length", "0")
                self.end_headers()
                return None
            local = local / "index.html"
        if not local.is_file():
            return self._not_found()
        stat = local.stat()
        if self._not_modified(stat.st_mtime):
            self.send_response(304)
            self._cache_header(site_path)
            self.end_headers()
            return None
        compress = local.suffix in COMPRESSIBLE and "gzip" in self.headers.get("Accept-Encoding", "")
        data = _gzipped(str(local), stat.st_mtime, stat.st_size) if compress else local.read_bytes()
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(local)))
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        if compress:
            self.send_header("Content-Encoding", "gzip")
        self._cache_header(site_path)
        self.end_headers()
        return io.BytesIO(data)

    def _cache_header(self, site_path: str) -> None:
        self.send_header("Cache-Control", IMMUTABLE if HASHED_NAME.search(site_path) else REVALIDATE)
        if Path(site_path).suffix in COMPRESSIBLE:
            self.send_header("Vary", "Accept-Encoding")

    def _not_modified(self, mtime: float) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError):
            return False
        return int(mtime) <= when.timestamp()

    def _not_found(self):
        page = Path(self.directory) / "404.html"
        body = page.read_bytes() if page.is_file() else b"<h1>404 Not Found</h1>"
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", REVALIDATE)
        self.end_headers()
        return io.BytesIO(body)

    def copyfile(self, source, outputfile):
        while chunk := source.read(CHUNK):
            if self.link:
                self.link.send(len(chunk))
            outputfile.write(chunk)
            if self.sent_bytes is not None:
                self.sent_bytes.append(len(chunk))


def handler_for(
    base: str = "/",
    link: Link | None = None,
    sent_bytes: list[int] | None = None,
    handler: type[SiteHandler] = SiteHandler,
) -> type[SiteHandler]:
    """A handler class serving under `base` (e.g. "/fault-lines/"), optionally over a slow link."""
    if not (base.startswith("/") and base.endswith("/")):
        raise ValueError(f"the base path must start and end with '/': {base!r}")
    return type("ConfiguredSiteHandler", (handler,), {"base": base, "link": link, "sent_bytes": sent_bytes})


class QuietServer(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address) -> None:
        pass  # a page closed mid-download resets its connections; that is not a server failure


def serve(
    directory: Path, port: int = 0, handler: type[SiteHandler] = SiteHandler
) -> tuple[QuietServer, str]:
    """Serve directory on 127.0.0.1 in a daemon thread; returns (server, URL of the site's root)."""
    server = QuietServer(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}{handler.base}"


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the built site on 127.0.0.1.")
    parser.add_argument("directory", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument(
        "--base", default="/", help="sub-path the site is published under, e.g. /fault-lines/"
    )
    args = parser.parse_args()
    if not (args.directory / "index.html").is_file():
        parser.exit(2, f"{args.directory} holds no built site (index.html): run `make site` first\n")
    try:
        handler = handler_for(args.base)
    except ValueError as error:
        parser.exit(2, f"{error}\n")
    server, url = serve(args.directory, args.port, handler)
    print(f"Serving {args.directory} on {url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
