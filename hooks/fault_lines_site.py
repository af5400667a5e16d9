"""The MkDocs hook (mkdocs.yml `hooks:`): hands each of MkDocs' events to the site build's
pipeline (hooks/site_build/pipeline.py, where the steps and their order are).

MkDocs loads this file by path with its folder on sys.path while it runs it, which is how the
`site_build` package below is found; inside the package, imports are relative.

FAULT_LINES_SKIP_LITE=1 skips the JupyterLite build: a quick `mkdocs build --strict` for checking
pages and links only.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from site_build import pipeline

log = logging.getLogger("mkdocs.hooks.fault_lines")
_build: pipeline.SiteBuild | None = None  # one per build: `mkdocs serve` rebuilds


def _current() -> pipeline.SiteBuild:
    if _build is None:
        raise SystemExit("fault_lines_site: a page event came before on_pre_build")
    return _build


def on_config(config, **kwargs):
    return pipeline.add_nav(config)


def on_pre_build(config, **kwargs):
    global _build
    _build = pipeline.prepare(
        with_lab=os.environ.get("FAULT_LINES_SKIP_LITE") != "1", log=log.info, nav=config["nav"]
    )


def on_files(files, config, **kwargs):
    return pipeline.add_files(_current(), files, config)


def on_page_markdown(markdown, page, config, files, **kwargs):
    return pipeline.fill_page(_current(), markdown, page.file.src_path, page.url, page.meta)


def on_post_build(config, **kwargs):
    pipeline.finish(_current(), Path(config["site_dir"]), warn=log.warning)
