"""Share links: a failing run found by check() travels as a link; decoding it gives back the same
exercise, token and code; a link made for another version of the exercise says so; and the
notebook the replay page builds (start, the shared code, replay) shows the same failure."""

from __future__ import annotations

import re

import pytest
from grader_support import REPO, grade_file

from faultlines import notebook
from faultlines.grader import exercise, grade, share, submission, tokens
from faultlines.grader.budgets import HOOKS, instrument

STARTER = (REPO / "exercises/fault05/starter.py").read_text()


def _starter_token() -> str:
    report = grade_file("fault05", REPO / "exercises/fault05/starter.py")
    assert report.first_failure is not None
    return report.first_failure.token


def test_a_link_decodes_to_the_run_it_was_made_from():
    token = _starter_token()
    code = STARTER + "\n# naïve: «charge» once — maybe 💸\n"  # non-ASCII code survives the round trip
    link = notebook.share_link("fault05", token, code, "https://example.org/course/")
    assert link.startswith("https://example.org/course/exercises/replay/#s=")
    assert re.fullmatch(r"[A-Za-z0-9_-]+", link.split("#s=", 1)[1]), "the payload must be URL-safe"
    for text in (link, link.split("#", 1)[1], link.split("#s=")[1]):
        run = share.decode(text)
        assert run == share.SharedRun("fault05", token, code)
    assert share.stale(run, exercise.load("fault05").version) is None


@pytest.mark.parametrize(
    ("address", "base"),
    [
        # the kernel's own script, in the site's lab: where the kernel reads its address from
        (
            "http://127.0.0.1:8000/lite/extensions/@jupyterlite/pyodide-kernel-extension/static/comlink.worker.js",
            "http://127.0.0.1:8000/",
        ),
        (
            "https://someone.github.io/fault-lines/lite/lab/index.html?path=fault05.ipynb",
            "https://someone.github.io/fault-lines/",
        ),
        ("https://course.example/lite/notebooks/index.html#here", "https://course.example/"),
        ("file:///home/me/notebook.ipynb", None),  # a local Jupyter: no site, so no link
        ("http://localhost:8888/lab/tree/fault05.ipynb", None),
    ],
)
def test_the_link_is_absolute_from_the_sites_base(address, base):
    # A relative link in a notebook output is resolved by JupyterLab inside its file drive, and
    # means nothing in a new tab or on a phone: the link names the site.
    assert share.site_base(address) == base


def test_outside_the_lab_there_is_no_share_link():
    report = grade_file("fault05", REPO / "exercises/fault05/starter.py")
    assert share.kernel_site_base() is None
    assert "Share this failing run" not in notebook.CheckResult(report, STARTER)._repr_html_()


def test_a_link_for_another_version_says_so():
    token = _starter_token()
    old = token.replace(".v1.", ".v0.")
    run = share.decode(share.SharedRun("fault05", old, STARTER).link())
    message = share.stale(run, 1)
    assert message is not None
    assert "version 0 of fault05, which is now version 1" in message and "\n" not in message


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("../../exercises/replay/#s=@@@", "damaged"),
        ("#s=" + share.SharedRun("fault05", "x", "y").fragment()[:-7], "damaged"),
        ("#s=eyJhIjoxfQ", "does not hold a failing run"),  # {"a":1}
        ("#s=" + share.SharedRun("fault05", "FL1.nope", "").fragment(), "not a replay token"),
    ],
)
def test_a_damaged_link_is_one_readable_line(text, says):
    with pytest.raises(share.ShareError) as caught:
        share.decode(text)
    assert says in str(caught.value) and "\n" not in str(caught.value)


def test_a_link_whose_token_names_another_exercise_is_refused():
    token = _starter_token()
    with pytest.raises(share.ShareError, match="names fault06 but its token is for fault05"):
        share.decode(share.SharedRun("fault06", token, STARTER).link())


def _cells(tmp_path, *sources: str) -> dict:
    """Run cells as the lab does after fl.start(): each compiled with the budget ticks, from a
    file of its own (IPython keeps each cell's text where inspect and linecache find it)."""
    namespace: dict = {"__name__": "__main__", **HOOKS}
    for source in sources:
        cell = tmp_path / f"cell{len(list(tmp_path.iterdir()))}.py"
        cell.write_text(source)
        exec(instrument(source, str(cell)), namespace)
    return namespace


def test_the_replay_notebook_shows_the_shared_failure_and_its_timeline(tmp_path, capsys):
    ex = exercise.load("fault05")
    learner = "import math  # a learner's own import travels with the cell\n\n" + STARTER
    (tmp_path / "found").mkdir()
    (tmp_path / "replayed").mkdir()
    found = _cells(tmp_path / "found", learner)
    sub = submission.from_namespace(found, ex.entry)
    failure = grade.grade(ex, sub).first_failure
    assert failure is not None
    link = notebook.share_link(ex.id, failure.token, notebook.shared_code(sub), "http://127.0.0.1:8000/")

    run = share.decode(link)  # what the replay page does, then the notebook it writes
    assert run.code == learner
    namespace = _cells(
        tmp_path / "replayed", f"from faultlines import notebook as fl\nfl.start({run.exercise!r})", run.code
    )
    result = eval("fl.replay(t)", {**namespace, "t": run.token})
    out = capsys.readouterr().out
    assert result is not None and [name for name, _ in result.violations] == ["charged-at-most-once"]
    assert "broken invariant: charged-at-most-once" in out and "task.start attempt=process_order#1/" in out
    assert "different code" not in out  # the link carries the code the token was found on
    html = result._repr_html_()
    assert 'class="fl-replay-run fl-failed"' in html and "task.start attempt=process_order#1/" in html


def test_replaying_a_stale_token_in_a_notebook_is_one_line_not_a_traceback(tmp_path, capsys):
    stale = _starter_token().replace(".v1.", ".v0.")
    namespace = _cells(tmp_path, "from faultlines import notebook as fl", STARTER)
    assert eval("fl.replay(t)", {**namespace, "t": stale}) is None
    out = capsys.readouterr().out.strip()
    assert out.startswith("cannot replay: this token was made for version 0 of fault05")
    assert len(out.splitlines()) == 1
    with pytest.raises(tokens.TokenError):  # the grader's own call still raises, for the CLI
        tokens.check_version(tokens.decode(stale), 1)
