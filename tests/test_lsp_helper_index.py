"""The workspace helper table the language server keeps: which file's helpers count, and when."""

from __future__ import annotations

from pathlib import Path

from apispec.lint.helpers import Helper
from apispec.lsp.helper_index import HelperIndex

FOLDER = Path("/work/tree")
API = str(FOLDER / "prtg_api.py")
REPORT = str(FOLDER / "report.py")
GET = (Helper("_get", 0, "path"),)
CALL = "summary = _get('/sensor-status-summary')\n"


def _index() -> HelperIndex:
    index = HelperIndex()
    todo, _ = index.walked(FOLDER, {API: (1, 1, 1, 1), REPORT: (2, 2, 2, 2)})
    assert sorted(todo) == [API, REPORT]
    assert index.set_file(FOLDER, API, (1, 1, 1, 1), ("profile", b"api"), GET)
    assert not index.set_file(FOLDER, REPORT, (2, 2, 2, 2), ("profile", b"report"), ())
    return index


def test_a_caller_depends_on_the_table_and_a_file_on_its_own_helpers_does_not() -> None:
    index = _index()
    digest = index.dependency(FOLDER, CALL, REPORT)
    assert digest is not None
    assert index.dependency(FOLDER, CALL, API) is None  # its own definition: the first pass
    assert index.dependency(FOLDER, "print('no helper here')\n", REPORT) is None
    assert index.dependency(None, CALL, REPORT) is None  # outside every workspace folder


def test_an_unchanged_file_is_not_learnt_again_and_content_is_learnt_once() -> None:
    index = _index()
    todo, changed = index.walked(FOLDER, {API: (1, 1, 1, 1), REPORT: (2, 2, 2, 3)})
    assert todo == [REPORT] and not changed
    assert index.learnt("profile", b"api") == GET
    assert index.learnt("another profile", b"api") is None


def test_an_open_buffer_wins_over_its_file_until_it_is_closed() -> None:
    index = _index()
    assert index.set_open(API, 2, ()) == [FOLDER]  # the helper edited away, unsaved
    assert index.dependency(FOLDER, CALL, REPORT) is None
    assert index.set_open(API, 3, ()) == []  # nothing new
    assert index.close(API) == [FOLDER]  # the file on disk still defines it
    assert index.dependency(FOLDER, CALL, REPORT) is not None


def test_a_deleted_or_no_longer_walked_file_takes_its_helpers_along() -> None:
    index = _index()
    assert index.forget_file(API) == [FOLDER]
    assert index.table(FOLDER) is None
    index = _index()
    _, changed = index.walked(FOLDER, {REPORT: (2, 2, 2, 2)})  # now ignored, or gone
    assert changed and index.dependency(FOLDER, CALL, REPORT) is None
