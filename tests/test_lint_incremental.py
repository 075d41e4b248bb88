"""Editors re-lint a document after every keystroke: its tree is re-parsed incrementally.

`parse.Trees` hands tree-sitter the edit between the old and the new text (the span
between their common prefix and suffix); the incremental parse must give exactly the
tree a fresh parse gives, and the linter exactly the same findings, whatever the edit.
"""

from __future__ import annotations

import pytest

from apispec.lint.extract.parse import Trees, parse
from apispec.lint.extract.tree import extract_tree
from apispec.lint.prefilter import collections

SCRIPT = """import requests
BASE = "https://prtg.example.com:1616/api/v2"   # größer: multibyte before the edits

def devices(session, limit=50):
    return session.get(f"{BASE}/devices", params={"limit": limit, "filter": "status = up"})

requests.get(f"{BASE}/experimental/sensors", params={"sort": "name"})
"""

EDITS = [
    ("/devices", "/experimental/devices"),  # a replacement in the middle
    ('"sort"', '"sort_by"'),
    ("import requests\n", ""),  # a deletion at the start
    ("", "# a comment line at the start\n"),  # an insertion at the start
    ('params={"sort": "name"})\n', 'params={"sort": "name"})\nrequests.get(f"{BASE}/sensors")\n'),
    ("größer", "é"),  # multibyte characters of another width
    ("status = up", "status = Down and favorite = true"),
    ("def devices", "# quiet: no quote\n# def devices\ndef devices"),  # comment lines
    ("    return session", "#    return 1\n    return session"),  # one that ends a body
]


def _apply(text: str, old: str, new: str) -> str:
    if not old:
        return new + text
    return text.replace(old, new, 1)


@pytest.mark.parametrize("old,new", EDITS)
def test_an_incremental_parse_gives_the_fresh_parse_tree(old: str, new: str) -> None:
    trees = Trees()
    first = trees.parse("client.py", SCRIPT, "python")
    edited = _apply(SCRIPT, old, new)
    assert edited != SCRIPT
    again = trees.parse("client.py", edited, "python")
    assert again.tree is not first.tree
    assert str(again.root) == str(parse(edited, "python").root)


def test_a_sequence_of_edits_gives_the_fresh_findings_each_time(monkeypatch) -> None:
    """The tree path reads kept trees when an editor turned them on; every reference of
    every version equals a fresh extraction of that version."""
    from apispec.lint.extract import parse as parse_module

    monkeypatch.setattr(parse_module, "TREES", Trees())
    known = collections()
    text = SCRIPT
    for old, new in EDITS:
        text = _apply(text, old, new)
        kept, _ = extract_tree(text, "python", known, filename="client.py")
        monkeypatch.setattr(parse_module, "TREES", None)
        fresh, _ = extract_tree(text, "python", known, filename="client.py")
        monkeypatch.setattr(parse_module, "TREES", parse_module.TREES or Trees())
        assert kept == fresh
        assert [(r.line, r.path, [q.name for q in r.query]) for r in kept] == [
            (r.line, r.path, [q.name for q in r.query]) for r in fresh
        ]


def test_trees_are_bounded_and_a_closed_document_is_forgotten() -> None:
    trees = Trees(size=3)
    for n in range(5):
        trees.parse(f"doc{n}.py", f"x = {n}\n", "python")
    assert len(trees) == 3  # the least recently used went first
    trees.forget("doc4.py")
    assert len(trees) == 2


def test_the_language_server_keeps_a_documents_tree_and_drops_it_on_close() -> None:
    from apispec.lint.extract import parse as parse_module
    from apispec.lsp.analysis import Analyzer
    from apispec.lsp.documents import Document
    from apispec.lsp.settings import Profiles

    analyzer = Analyzer()
    kept = parse_module.TREES
    assert kept is not None
    doc = Document("untitled:client.py", SCRIPT, 1, "python")
    analyzer.lint(doc, Profiles().profile(None, None))
    before = len(kept)
    analyzer.drop(doc.uri)
    assert len(kept) == before - 1


COMMENTED = """import requests
BASE = "https://prtg.example.com:1616/api/v2"
def sensors():
    \"\"\"The sensors.
# GET /api/v2/sensors, written in the docstring
    \"\"\"
    # requests.get(BASE + "/sensors")   (a quote: not quiet)
    # requests.get(BASE + /devices)
    return requests.get(f"{BASE}/sensors")
"""


def test_comment_lines_are_parsed_as_blank_lines_but_a_strings_bytes_are_its_own() -> None:
    """tree-sitter-python costs n squared for n comment lines after code, so quiet comment
    lines (no quote, backslash or brace) are given to the parser as spaces: the tree is the
    one the file would have without them, and a string's lines that start with `#` stay as
    written for the queries that read its text."""
    parsed = parse(COMMENTED, "python")
    fed = parsed.data.decode()
    assert len(parsed.data) == len(COMMENTED.encode())
    assert "# GET /api/v2/sensors, written in the docstring\n" in fed
    assert '# requests.get(BASE + "/sensors")' in fed
    assert "# requests.get(BASE + /devices)" not in fed
    assert "\n    " + " " * len("# requests.get(BASE + /devices)") + "\n" in fed
    docstring = parsed.root.descendant_for_byte_range(
        COMMENTED.index("The sensors"), COMMENTED.index("The sensors") + 1
    )
    assert docstring is not None and docstring.text is not None
    assert b"/api/v2/sensors" in docstring.text  # the tree's own bytes: the file's
    blank = COMMENTED.replace("    # requests.get(BASE + /devices)\n", "\n")
    assert str(parsed.root) == str(parse(blank, "python").root)


@pytest.mark.parametrize(
    "old,new",
    [
        ("    # requests.get(BASE + /devices)", "    requests.get(BASE + /devices)"),
        ("    return requests", "    # return requests"),
        ('    # requests.get(BASE + "/sensors")', "    # requests.get(BASE + /sensors)"),
    ],
)
def test_an_edit_into_or_out_of_a_quiet_comment_gives_the_fresh_tree(old: str, new: str) -> None:
    trees = Trees()
    trees.parse("client.py", COMMENTED, "python")
    edited = _apply(COMMENTED, old, new)
    assert edited != COMMENTED
    assert str(trees.parse("client.py", edited, "python").root) == str(parse(edited, "python").root)
