"""The glossary: Ray's words, defined once on the primer page and linked from their first use on
every other page.

The terms live in lessons/glossary.toml, in the order the primer explains them: each has an
`anchor`, the `term` as the glossary prints it, a `definition` (Markdown) and `matches`, the
spellings that count as a use (regular expressions, matched case-insensitively unless
`case = true`). The primer page writes `{{ glossary }}` where the list goes. On every other
lesson and reference page the build links each term's first use in prose to its entry:

    the owner keeps ...  ->  the [owner](00_ray_in_one_page.md#owner) keeps ...

A use inside a heading, an admonition's title, a table, code, a link or a placeholder is not
linked; the next use in prose is. (A link around inline code would take the theme's link colour,
which on the dark scheme does not reach AA contrast on code's background.) So a page never
needs to remember which terms it has defined.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
GLOSSARY_FILE = "lessons/glossary.toml"
PRIMER = "lessons/00_ray_in_one_page.md"  # the page with the glossary, by its docs path
PLACEHOLDER = "{{ glossary }}"
LINKED_SECTIONS = ("lessons/", "reference/")
FENCE = re.compile(r"^\s*(```|~~~)")
# Spans a link must not be put inside: links (text and target), placeholders, HTML, attribute
# lists, bold/italic markers stay as they are (a link may sit inside emphasis).
PROTECTED = re.compile(
    r"\[[^\]]*\]\([^)]*\)"  # a Markdown link
    r"|\{\{[^}]*\}\}"  # a placeholder
    r"|<[^>]+>"  # an HTML tag
    r"|\{:?\s*[#.][^}]*\}"  # an attribute list
    r"|`[^`]*`"  # inline code
)


@dataclass(frozen=True)
class Term:
    anchor: str
    term: str
    definition: str
    pattern: re.Pattern[str]


class GlossaryError(RuntimeError):
    """The glossary file is malformed, or the primer lacks its placeholder."""


def load(repo: Path = REPO) -> list[Term]:
    data = tomllib.loads((repo / GLOSSARY_FILE).read_text(encoding="utf-8"))
    terms = []
    for entry in data.get("term", []):
        missing = {"anchor", "term", "definition", "matches"} - set(entry)
        if missing:
            raise GlossaryError(f"{GLOSSARY_FILE}: entry {entry.get('term', '?')!r} lacks {sorted(missing)}")
        flags = 0 if entry.get("case") else re.IGNORECASE
        alternatives = "|".join(f"(?:{m})" for m in entry["matches"])
        terms.append(
            Term(
                anchor=entry["anchor"],
                term=entry["term"],
                definition=entry["definition"].strip(),
                pattern=re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])", flags),
            )
        )
    anchors = [t.anchor for t in terms]
    if len(set(anchors)) != len(anchors):
        raise GlossaryError(f"{GLOSSARY_FILE}: two terms share an anchor")
    return terms


def render(terms: list[Term]) -> str:
    """The glossary as Markdown: one paragraph per term, each with the anchor pages link to."""
    return "\n\n".join(f"**{t.term}**: {t.definition}\n{{: #{t.anchor} }}" for t in terms) + "\n"


def place(markdown: str, terms: list[Term], where: str) -> str:
    if PLACEHOLDER not in markdown:
        raise GlossaryError(f"{where}: the primer has no '{PLACEHOLDER}' line for the glossary")
    return markdown.replace(PLACEHOLDER, render(terms))


def primer_link(src_path: str) -> str:
    """The primer's path relative to a page at src_path (a docs-relative path)."""
    depth = src_path.count("/")
    here = src_path.rsplit("/", 1)[0] if depth else ""
    if here == PRIMER.rsplit("/", 1)[0]:
        return PRIMER.rsplit("/", 1)[1]
    return "../" * depth + PRIMER


def _skipped(line: str) -> bool:
    stripped = line.lstrip()
    return (
        stripped.startswith(("#", "|", "???", "!!!", "{{ figure"))
        or stripped.startswith("<")  # a block of raw HTML (a figure, a panel)
    )


def link_first_uses(markdown: str, terms: list[Term], src_path: str) -> tuple[str, set[str]]:
    """Link each term's first use in prose to the glossary; return the page and the anchors linked."""
    target = primer_link(src_path)
    remaining = list(terms)
    linked: set[str] = set()
    lines = markdown.splitlines()
    start = 0
    if lines and lines[0].strip() == "---":
        start = next((i + 1 for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
    fenced = False
    for index in range(start, len(lines)):
        line = lines[index]
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or _skipped(line) or not remaining:
            continue
        for term in list(remaining):
            new = _link_once(line, term, target)
            if new is not None:
                line = new
                remaining.remove(term)
                linked.add(term.anchor)
        lines[index] = line
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else ""), linked


def _link_once(line: str, term: Term, target: str) -> str | None:
    """The line with the term's first use in it linked, or None when it has none."""
    position = 0
    for protected in [*PROTECTED.finditer(line), None]:
        end = protected.start() if protected else len(line)
        match = term.pattern.search(line, position, end)
        if match:
            text = match.group(0)
            return f"{line[: match.start()]}[{text}]({target}#{term.anchor}){line[match.end() :]}"
        if protected is None:
            return None
        position = protected.end()
    return None
