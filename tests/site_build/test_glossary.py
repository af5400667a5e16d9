"""The glossary (lessons/glossary.toml, hooks/site_build/glossary.py): every term of "Ray in one
page" is defined once, and every lesson and reference page links each term it uses, at its first
use in prose, to that definition.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hooks.site_build import glossary

REPO = Path(__file__).resolve().parents[2]
TERMS = glossary.load(REPO)
LINKED_PAGES = [
    p
    for section in glossary.LINKED_SECTIONS
    for p in sorted((REPO / "docs" / section).glob("*.md"))
    if f"{section}{p.name}" != glossary.PRIMER
]
LINK = re.compile(r"\[([^\]]*)\]\(([^)]*)\)")


def _docs_path(page: Path) -> str:
    return page.relative_to(REPO / "docs").as_posix()


def _first_uses(markdown: str) -> dict[str, tuple[int, int, bool]]:
    """Per anchor: (line, column) of the term's first use outside code and headings, and whether
    that use is the text of a link to the term's glossary entry. Scans independently of the
    linker: links are read as links, not skipped."""
    found: dict[str, tuple[int, int, bool]] = {}
    fenced = False
    for number, line in enumerate(markdown.splitlines()):
        if line.strip().startswith(("```", "~~~")):
            fenced = not fenced
            continue
        if fenced or glossary._skipped(line):
            continue
        links = [(m.start(), m.end(), m.group(1), m.group(2)) for m in LINK.finditer(line)]
        for term in TERMS:
            if term.anchor in found:
                continue
            for match in term.pattern.finditer(line):
                inside = next((lk for lk in links if lk[0] <= match.start() < lk[1]), None)
                if inside is not None and not inside[3].endswith(f"#{term.anchor}"):
                    continue  # a use inside another link's text is not prose of its own
                if line.count("`", 0, match.start()) % 2 == 1:
                    continue  # inside inline code: not prose
                found[term.anchor] = (number, match.start(), inside is not None)
                break
    return found


def test_the_glossary_defines_the_system_model():
    anchors = {t.anchor for t in TERMS}
    assert {
        "driver",
        "worker",
        "raylet",
        "object-store",
        "owner",
        "gcs",
        "lease",
        "placement-group",
        "bundle",
    } <= anchors


def test_the_primer_places_the_glossary_once():
    primer = (REPO / "docs" / glossary.PRIMER).read_text(encoding="utf-8")
    rendered = glossary.place(primer, TERMS, glossary.PRIMER)
    assert rendered.count("{: #") == len(TERMS)
    for term in TERMS:
        assert f"**{term.term}**:" in rendered and f"{{: #{term.anchor} }}" in rendered


@pytest.mark.parametrize("page", LINKED_PAGES, ids=lambda p: p.stem)
def test_every_term_is_linked_at_its_first_use(page: Path):
    src = _docs_path(page)
    linked, anchors = glossary.link_first_uses(page.read_text(encoding="utf-8"), TERMS, src)
    unlinked = {a: pos for a, pos in _first_uses(linked).items() if not pos[2]}
    assert not unlinked, f"{src}: first uses not linked to the glossary: {unlinked}"
    assert anchors == set(_first_uses(linked)), src


def test_links_resolve_from_both_sections():
    assert glossary.primer_link("lessons/03_lineage.md") == "00_ray_in_one_page.md"
    assert glossary.primer_link("reference/options.md") == "../lessons/00_ray_in_one_page.md"


def test_the_linker_skips_headings_code_and_titles():
    page = (
        "# The owner\n\n"
        '??? question "Who is the owner?"\n'
        "    Call `owner_of(x)` first.\n\n"
        "An `ObjectRef` names a value; its owner keeps it, and the owner again.\n"
    )
    out, anchors = glossary.link_first_uses(page, TERMS, "lessons/x.md")
    assert out.splitlines()[0] == "# The owner"
    assert "`owner_of(x)`" in out and "[`owner_of" not in out
    assert "An `ObjectRef` names" in out  # code is never linked: see glossary.py on contrast
    assert "its [owner](00_ray_in_one_page.md#owner) keeps it, and the owner again" in out
    assert anchors == {"owner"}
