"""The one static server for the built site: `make serve`, the browser tests and the benchmark.

Why not plain `python -m http.server`: it sends no Cache-Control, so Chromium's caching of a
reload is left to heuristics, and it lacks the .wasm/.mjs types (streaming wasm compilation
needs application/wasm). The cache policy:
- names with a content hash (JupyterLite's and Material's bundles, `1031.b91a70b.js`): cached
  for a year, immutable: a change gives a new name;
- everything else (pages, configs, the Pyodide core, the wheels and their lock): `no-cache`,
  i.e. kept but revalidated on every use; an unchanged file costs a 304 with no body. Wheels
  keep their names across rebuilds while their sha256 in the lock changes, and a stale cached
  wheel would fail the lock's integrity check, so they must not be served as immutable.

    python hooks/site_server.py site [--port 8000]
"""

from __future__ import annotations

import argparse
import functools
import http.server
import re
import threading
from pathlib import Path

HASHED_NAME = re.compile(r"[.-][0-9a-f]{7,}(\.min)?\.(js|css|woff2?|svg|png)$")
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",  # streaming compilation needs the right type
        ".mjs": "text/javascript",
        ".whl": "application/octet-stream",
    }

    def end_headers(self):
        path = self.path.split("?", 1)[0]
        self.send_header("Cache-Control", IMMUTABLE if HASHED_NAME.search(path) else REVALIDATE)
        super().end_headers()

    def log_message(self, *args):
        pass


def serve(directory: Path, port: int = 0, handler=SiteHandler):
    """Serve directory on 127.0.0.1 in a daemon thread; returns (server, base URL)."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", port), functools.partial(handler, directory=str(directory))
    )
    # A page closed mid-download resets its connections; that is not a server failure.
    server.handle_error = lambda request, address: None
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def main() -> None:
    parser = argparse.ArgumentParser(description="Serve the built site on 127.0.0.1.")
    parser.add_argument("directory", type=Path)
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    server, url = serve(args.directory, args.port)
    print(f"Serving {args.directory} on {url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()


if __name__ == "__main__":
    main()
