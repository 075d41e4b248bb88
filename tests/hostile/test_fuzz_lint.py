"""Fuzzing `apispec lint` (issue 11, acceptance 2): generated files under generated names.

Files are real files on disk, written into a fresh directory per example: text
assembled from the shapes client code takes (URLs, paths of the registry,
query strings, filters, quotes, calls in several languages) mixed with
arbitrary text, under names with any bytes a POSIX file name may hold. Every
run must end with exit 0, 1 or 2 and without a traceback, in every format.
The CLI runs in-process: hundreds of process start-ups would dwarf the lint.
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apispec.cli import main
from apispec.lint.report import FORMATS
from apispec.registry.load import load_registry

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PATHS = [*sorted({e.path for e in load_registry().endpoints}), "/health", "/objects/count"]
EXTENSIONS = [
    ".py",
    ".js",
    ".ts",
    ".go",
    ".ps1",
    ".sh",
    ".rb",
    ".php",
    ".java",
    ".cs",
    ".md",
    ".ipynb",
    ".json",
    ".yaml",
    ".html",
    ".txt",
    "",
]

_path = st.sampled_from(PATHS).map(lambda p: p.replace("{id}", "42"))
_query = st.lists(
    st.tuples(
        st.sampled_from(["filter", "limit", "offset", "include", "sort_by", "take", "x"]),
        st.text(max_size=12),
    ),
    max_size=3,
).map(lambda pairs: "&".join(f"{k}={v}" for k, v in pairs))
_url = st.tuples(
    st.sampled_from(["https://prtg.example.com:1616/api/v2", "{base}", "$base/api/v2", ""]),
    _path,
    _query,
).map(lambda t: f"{t[0]}{t[1]}" + (f"?{t[2]}" if t[2] else ""))
_quote = st.sampled_from(['"', "'", "`", '"""', ""])
_call = st.tuples(
    st.sampled_from(
        [
            "requests.get(",
            "fetch(",
            "Invoke-RestMethod -Uri ",
            "curl -H 'Authorization: Bearer x' ",
            "http.Get(",
            "client.GetAsync(",
            "$http->get(",
            "HTTParty.get(",
            'api("GET", ',
        ]
    ),
    _quote,
    _url,
).map(lambda t: f"{t[0]}{t[1]}{t[2]}{t[1]})")
_noise = st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=40
) | st.sampled_from(
    [
        "${",
        "{{",
        "\\",
        '"""',
        "# apispec: ignore",
        "apispec: ignore[API002]",
        "\r\n",
        "\t" * 30,
        "%",
        "\ufeff",
        "\x00",
    ]
)
_text = st.lists(st.one_of(_call, _url, _noise), max_size=12).map("\n".join)
_name = (
    st.binary(min_size=1, max_size=12)
    .map(lambda b: b.replace(b"/", b"_").replace(b"\0", b"_"))
    .filter(lambda b: b not in (b".", b".."))
)


@SETTINGS
@given(
    files=st.lists(
        st.tuples(
            _name,
            st.sampled_from(EXTENSIONS),
            _text,
            st.sampled_from(["utf-8", "utf-16", "latin-1"]),
        ),
        min_size=1,
        max_size=4,
    ),
    fmt=st.sampled_from(FORMATS),
    fail_on=st.sampled_from(["error", "warning", "info", "never"]),
)
def test_lint_any_files_under_any_names(
    files: list[tuple[bytes, str, str, str]], fmt: str, fail_on: str
) -> None:
    with tempfile.TemporaryDirectory() as root:
        for name, extension, text, encoding in files:
            with open(os.path.join(os.fsencode(root), name + extension.encode()), "wb") as file:
                file.write(text.encode(encoding, errors="replace"))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["lint", root, "--format", fmt, "--fail-on", fail_on, "--jobs", "1"])
    assert code in (0, 1, 2), err.getvalue()
    assert "Traceback" not in out.getvalue() + err.getvalue()
    out.getvalue().encode("utf-8")  # strict: no lone surrogate reached the report
