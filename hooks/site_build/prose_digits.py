"""The digit check: a lesson's prose states no number the build did not compute or quote.

A number on a lesson page either comes from code the build runs, `{{ num NN_slug.key }}`
(lesson_numbers.py), or is a constant quoted with where it comes from:

    Ray stores a return under {{ const 100 KiB source=ray:max_direct_call_object_size }} inline.

`{{ const VALUE source=WHERE }}` renders as VALUE; WHERE names the source (see SOURCES), so a
reader of the Markdown, and a reviewer, can check it. Any other digit in a lesson's prose stops
the build with the page, the line and the text, so a number typed by hand cannot drift from the
run it describes.

Not prose, so not checked: the front matter, fenced code, inline code, tables (their cells are
placeholders or labels), HTML tags, link targets and placeholders. Allowed in prose, because
they are names rather than quantities:

- a list marker (`1. `) and a lesson's number ("lesson 5", "Lessons 3 and 4");
- a step of the lab or a section of it ("Step 3", "section 2"), which names a cell;
- a digit inside a word (`N1`, `PG_A`, `fault05`, `p99`, `node:1`);
- the Ray release the course is pinned to, "Ray 2.60" (tests/site_build/test_prose_digits.py
  checks it against the conformance recording's version).
"""

from __future__ import annotations

import re

RAY_RELEASE = "2.60"
SOURCES = ("ray:", "seed:", "paper:", "issue:", "pr:", "doc:")
CONST = re.compile(r"\{\{ const (?P<value>.+?) source=(?P<source>\S+) \}\}")
PLACEHOLDER = re.compile(r"\{\{[^}]*\}\}")
FENCE = re.compile(r"^\s*(```|~~~)")
HIDDEN = [
    re.compile(r"`[^`]*`"),  # inline code
    re.compile(r"<[^>]+>"),  # HTML tags (an entity's digits stay: they are prose)
    re.compile(r"\]\([^)]*\)"),  # link targets
    re.compile(r"\{:?\s*[#.][^}]*\}"),  # attribute lists: { #id .class }
]
ALLOWED = [
    re.compile(r"^\s*\d+\.\s"),  # a list marker
    re.compile(r"\b[Ll]essons? \d+(?:(?:,| and| or| to|–)\s*\d+)*"),
    re.compile(r"\b(?:[Ss]teps?|[Ss]ections?) \d+(?:(?:,| and| or| to|–)\s*\d+)*"),
    re.compile(r"[A-Za-z_:][\w:]*\d\w*"),  # a digit inside a word or identifier
    re.compile(rf"\bRay {re.escape(RAY_RELEASE)}\b"),
]
DIGIT = re.compile(r"\d")
# A placeholder that starts a line and is followed by ". ": filled with a number, Markdown reads
# the line as an ordered list's item and cuts the paragraph there.
LIST_TRAP = re.compile(r"^\s*\{\{ (?:num|const) [^}]*\}\}\. ", re.MULTILINE)


class DigitError(RuntimeError):
    """Lesson prose states a number by hand; the message lists every one, by line."""


def check_constants(markdown: str, where: str) -> None:
    for match in CONST.finditer(markdown):
        if not match.group("source").startswith(SOURCES):
            raise DigitError(
                f"{where}: {{{{ const {match.group('value')} source={match.group('source')} }}}} names "
                f"no known kind of source (one of {', '.join(SOURCES)})"
            )


def fill_constants(markdown: str) -> str:
    """`{{ const VALUE source=WHERE }}` -> VALUE."""
    return CONST.sub(lambda m: m.group("value"), markdown)


def prose_lines(markdown: str):
    """(line number, text) for each line of prose, with what is not prose removed."""
    lines = markdown.splitlines()
    start = 0
    if lines and lines[0].strip() == "---":
        start = next((i + 1 for i in range(1, len(lines)) if lines[i].strip() == "---"), 0)
    fenced = False
    for number, line in enumerate(lines[start:], start=start + 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if fenced or line.lstrip().startswith("|"):
            continue
        text = PLACEHOLDER.sub(" ", line)
        for pattern in HIDDEN:
            text = pattern.sub(" ", text)
        yield number, text


def offenders(markdown: str) -> list[tuple[int, str]]:
    """Lines whose prose has a digit that is neither computed, quoted nor allowed."""
    found = []
    for number, text in prose_lines(markdown):
        for pattern in ALLOWED:
            text = pattern.sub(" ", text)
        if DIGIT.search(text):
            found.append((number, text.strip()))
    return found


def check(markdown: str, where: str) -> None:
    """Raise DigitError listing every typed number in a lesson page's prose."""
    check_constants(markdown, where)
    trap = LIST_TRAP.search(markdown)
    if trap:
        line = markdown.count("\n", 0, trap.start()) + 1
        raise DigitError(
            f"{where}:{line}: a placeholder starts the line and is followed by '. ': filled with a "
            f"number, Markdown reads it as a list item. Move a word in front of it."
        )
    bad = offenders(markdown)
    if bad:
        listing = "\n".join(f"  {where}:{number}: {text}" for number, text in bad)
        raise DigitError(
            f"{len(bad)} line(s) of lesson prose state a number by hand. Compute it in the lesson's "
            f"numbers module and write {{{{ num NN_slug.key }}}}, or quote a constant with "
            f"{{{{ const VALUE source=... }}}}:\n{listing}"
        )
