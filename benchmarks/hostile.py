"""Inputs that made the linter super-linear, timed at 1x, 4x and 16x their size.

Each case is one row of CASES: a name, a runner, and the input at n units.
Every case must grow at most linearly: 4 per 4x is linear, and the growth
per 4x, (time(16x) / time(1x)) ** 0.5, must stay at or below 5 (the margin
absorbs noise of a shared machine). A case that grows faster is printed with
`SUPER-LINEAR` and the script exits 1.

Runners time the work in the running process (the registry loaded, as a lint
worker has it), so start-up does not hide the growth: one file for the linter;
one filter for the filter engine (checked, printed, explained, completed,
compared, compiled, evaluated: the inputs that once overflowed the stack); one
lint result for a report format or the suppression writer (linted before the clock
starts); the mock's
selection of a 900-term `or` over a growing list (the request that froze
the mock). A new kind of input is a runner in RUNNERS and rows that name it.

Usage: python benchmarks/hostile.py [--scale K] [--only SUBSTRING]
  --scale K   multiply every case's 1x size by K (default 1)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# the checkout's own package, whatever another installed copy says
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

MAX_RATIO = 5.0


@dataclass(frozen=True)
class Case:
    name: str  # what grows
    runner: str  # a key of RUNNERS
    argument: str  # what the runner needs besides the text (lint: the file name)
    make: Callable[[int], object]  # the input of n units (built before the clock starts)
    units: int  # n at 1x: large enough that noise does not decide the ratio


def repeat(head: str, unit: str, tail: str = "\n") -> Callable[[int], str]:
    """head + n units + tail; `{i}` in the unit is its number."""
    if "{i}" in unit:
        return lambda n: head + "".join(unit.replace("{i}", str(i)) for i in range(n)) + tail
    return lambda n: head + unit * n + tail


_SH = "#!/bin/sh\n# monitor.example.com:1616\n"
_PY = 'import requests\nBASE = "https://monitor.example.com:1616/api/v2"\n'
_URL = 'u = "https://prtg.example.com:1616/api/v2/experimental/devices"\n'
_PHP = "<?php\n$" + _URL
_YML = "u: https://prtg.example.com:1616/api/v2/experimental/devices\n"


def _nested(inner: str, opener: str, closer: str, tail: str = "") -> Callable[[int], str]:
    """A script with n openers, a call, then n closers."""
    return lambda n: _SH + inner + opener * n + 'curl "$B/api/v2/devices"\n' + closer * n + tail


def _sh_wrappers(n: int) -> str:
    """f1 calls f0 calls curl, ... fn: every wrapper is another's caller."""
    chain = "".join(f'f{i}() {{ f{i - 1} "$1"; }}\n' for i in range(1, n))
    return _SH + 'f0() { curl -s "$B$1"; }\n' + chain + f"f{n - 1} /api/v2/devices\n"


CASES: tuple[Case, ...] = (
    # issue 11, point 8: super-linear regular expressions
    Case(
        "yaml: long runs of spaces inside a line",
        "lint",
        "play.yml",
        repeat("# prtg\nurl: /api/v2/devices x", " ", "y\n"),
        1_000_000,
    ),
    Case(
        "yaml: long indentation runs",
        "lint",
        "play.yml",
        repeat("# prtg\nurl: /api/v2/devices\n", " ", "x: 1\n"),
        1_000_000,
    ),
    Case(
        "yaml: many uri tasks",
        "lint",
        "play.yml",
        repeat("# prtg\n", "- uri:\n    url: /api/v2/devices/{i}\n    method: DELETE\n"),
        1_000,
    ),
    Case("shell: a long run of ${", "lint", "run.sh", repeat(_SH + 'curl "', "${", '"\n'), 50_000),
    Case(
        "shell: a long run of ${ unquoted", "lint", "run.sh", repeat(_SH + "curl x", "${"), 50_000
    ),
    Case(
        "url: a long ?a=1&a=1&... query",
        "lint",
        "client.py",
        repeat(_PY + 'requests.get(f"{BASE}/experimental/devices?', "a=1&", '")\n'),
        2_000,
    ),
    Case(
        'markdown: a long run of "/api/v2',
        "lint",
        "notes.md",
        repeat("prtg\n```\n", '"/api/v2', "\n```\n"),
        5_000,
    ),
    Case("markdown: unclosed fences", "lint", "notes.md", repeat("prtg\n", "```\n"), 5_000),
    # issue 18, point 3: openers with no closer after them, unclosed strings of escapes
    Case("java: /* openers, no closer", "lint", "C.java", repeat(_URL, "/* "), 10_000),
    Case("javascript: /* openers, no closer", "lint", "c.js", repeat(_URL, "/* "), 10_000),
    Case("php: /* openers, no closer", "lint", "c.php", repeat(_PHP, "/* "), 10_000),
    Case('powershell: @" openers, no closer', "lint", "c.ps1", repeat(_URL, '@"\n'), 10_000),
    Case("powershell: <# openers, no closer", "lint", "c.ps1", repeat(_URL, "<# "), 10_000),
    Case("ruby: =begin openers, no closer", "lint", "c.rb", repeat(_URL, "=begin\n"), 10_000),
    Case(
        "ruby: heredoc openers, no terminator", "lint", "c.rb", repeat(_URL, "x = <<~EOS\n"), 5_000
    ),
    Case("ruby: %( openers, no closer", "lint", "c.rb", repeat(_URL, "x = %("), 10_000),
    Case(
        "php: heredoc openers, no terminator", "lint", "c.php", repeat(_PHP, "$x = <<<EOT\n"), 5_000
    ),
    Case(
        "shell: heredoc openers, no terminator", "lint", "c.sh", repeat(_URL, "cat <<EOF\n"), 5_000
    ),
    Case(
        "shell: $( nested deep", "lint", "c.sh", _nested('curl "$B/api/v2/', "$(", ")", '"'), 2_000
    ),
    Case(
        "shell: if blocks nested deep", "lint", "c.sh", _nested("", "if x; then\n", "fi\n"), 2_000
    ),
    Case("shell: each wrapper calls the one before", "lint", "c.sh", _sh_wrappers, 500),
    Case(
        "makefile: many variables and recipe lines",
        "lint",
        "Makefile",
        repeat(
            "# prtg :1616\nAPI = https://prtg:1616/api/v2\nall:\n",
            'V{i} := $(API)/devices/{i}\n\tcurl -s "$(V{i})"\n',
        ),
        500,
    ),
    Case(
        "dockerfile: many ENV and RUN lines",
        "lint",
        "Dockerfile",
        repeat(
            "FROM alpine\n# prtg :1616\n",
            'ENV U{i}=https://prtg:1616/api/v2/devices/{i}\nRUN curl -s "$U{i}"\n',
        ),
        500,
    ),
    Case(
        "python: triple-quote openers, no closer", "lint", "c.py", repeat(_URL, 'x = """\n'), 10_000
    ),
    Case('python: \\" in an unclosed string', "lint", "c.py", repeat(_URL + '"', '\\"'), 10_000),
    Case('ruby: \\" in an unclosed string', "lint", "c.rb", repeat(_URL + '"', '\\"'), 10_000),
    Case('php: \\" in an unclosed string', "lint", "c.php", repeat(_PHP + '"', '\\"'), 10_000),
    Case('csharp: \\" in an unclosed string', "lint", "c.cs", repeat(_URL + '"', '\\"'), 10_000),
    Case('yaml: \\" in an unclosed string', "lint", "c.yml", repeat(_YML + 'x: "', '\\"'), 10_000),
    Case('javascript: ${" in a template', "lint", "c.js", repeat(_URL + "x = `", '${"'), 10_000),
    # issue 11, point 9 / issue 15, point 3: no rescan of the file per call
    Case(
        "shell: many curl calls",
        "lint",
        "calls.sh",
        repeat(
            _SH + 'T="x"\n', 'curl -H "Authorization: Bearer $T" "$B/api/v2/devices/{i}?limit=10"\n'
        ),
        800,
    ),
    Case(
        "python: many calls with headers",
        "lint",
        "calls.py",
        repeat(_PY, 'requests.get(f"{BASE}/devices/{i}", headers={"Authorization": tok})\n'),
        800,
    ),
    # issue 18: Terraform's own string scanner, clients with a base set later
    Case(
        "terraform: strings nested in interpolations",
        "lint",
        "main.tf",
        repeat('# prtg :1616\nx = "', '${"', '"\n'),
        2_000,
    ),
    Case(
        "terraform: heredocs never closed",
        "lint",
        "main.tf",
        repeat(
            "# prtg :1616\n", "x = <<EOT\n", 'y = "https://prtg:1616/api/v2/experimental/devices"\n'
        ),
        2_000,
    ),
    Case(
        "go: many resty clients",
        "lint",
        "client.go",
        repeat("package x\n// prtg :1616\n", "r := resty.New()\n", 'r.R().Get("health")\n'),
        1_000,
    ),
    # the tree reader: one name reused by every function (its assignments, the calls on
    # it and the requests it holds are looked up by scope, never scanned per read)
    Case(
        "python: many functions, one client name",
        "lint",
        "calls.py",
        repeat(
            _PY,
            "def f{i}():\n    s = requests.Session()\n"
            '    s.headers["Authorization"] = "Bearer x"\n'
            '    r = s.get(f"{BASE}/devices/{i}", params={"limit": 10})\n',
        ),
        100,
    ),
    Case(
        "csharp: many methods, one client name",
        "lint",
        "Calls.cs",
        repeat(
            "// prtg :1616\nclass C {\n",
            "async Task F{i}() { var http = new HttpClient(); "
            'var r = await http.GetAsync("https://prtg:1616/api/v2/devices/{i}"); }\n',
            "}\n",
        ),
        100,
    ),
    Case(
        "javascript: many functions, one client name",
        "lint",
        "calls.js",
        repeat(
            "// prtg :1616\n",
            "async function f{i}() { const api = axios.create({ baseURL: "
            '"https://prtg:1616/api/v2" }); await api.get("/devices/{i}", '
            "{ params: { limit: 10 } }); }\n",
        ),
        100,
    ),
    Case(
        "rust: many functions, one client name",
        "lint",
        "calls.rs",
        repeat(
            "// prtg :1616\n",
            "async fn f{i}() { let c = reqwest::Client::new(); "
            'c.get("https://prtg:1616/api/v2/devices/{i}").query(&[("limit", "10")])'
            ".send().await; }\n",
        ),
        100,
    ),
    Case(
        "ruby: many methods, one request name",
        "lint",
        "calls.rb",
        repeat(
            "# prtg :1616\nrequire 'net/http'\n",
            "def f{i}\n  uri = URI('https://prtg:1616/api/v2/devices/{i}')\n"
            "  req = Net::HTTP::Get.new(uri)\n  req['Authorization'] = 'Bearer x'\n"
            "  Net::HTTP.start(uri.host, uri.port) { |h| h.request(req) }\nend\n",
        ),
        100,
    ),
    Case(
        "php: many functions, one handle name",
        "lint",
        "calls.php",
        repeat(
            "<?php\n// prtg :1616\n",
            "function f{i}() { $ch = curl_init('https://prtg:1616/api/v2/devices/{i}'); "
            "curl_setopt($ch, CURLOPT_HTTPHEADER, ['Authorization: Bearer x']); "
            "return curl_exec($ch); }\n",
        ),
        100,
    ),
    Case(
        "go: many functions, one request name",
        "lint",
        "calls.go",
        repeat(
            "package x\n// prtg :1616\n",
            'func f{i}() { req, _ := http.NewRequest("GET", "https://prtg:1616/api/v2/devices/{i}", nil); '
            'req.Header.Set("Authorization", "Bearer x"); http.DefaultClient.Do(req) }\n',
        ),
        100,
    ),
    Case(
        "java: many methods, one request name",
        "lint",
        "Calls.java",
        repeat(
            "// prtg :1616\nclass C {\n",
            "void f{i}() throws Exception { var req = HttpRequest.newBuilder()"
            '.uri(URI.create("https://prtg:1616/api/v2/devices/{i}")).header("Authorization", '
            '"Bearer x").GET().build(); client.send(req, BodyHandlers.ofString()); }\n',
            "}\n",
        ),
        100,
    ),
    Case(
        "json: many paths in one array",
        "lint",
        "paths.json",
        repeat('{"host": "prtg", "paths": [', '"/api/v2/devices", ', '""]}\n'),
        1_000,
    ),
    # issue 22, points 5 and 6: test-double names beside a long word run; .http requests
    *(
        Case(
            f"{name}: test doubles named, a long word run",
            "lint",
            name,
            repeat(head + 'x = "https://prtg:1616/api/v2/experimental/objects"\n', "a"),
            16_000,
        )
        for name, head in (
            ("c.js", 'import { rest } from "msw";\n// mock\n'),
            ("c.cs", "// fake mock\n"),
            ("c.rb", "# mock responses\n"),
        )
    ),
    Case(
        ".http: requests without blank lines",
        "lint",
        "calls.http",
        repeat(
            "",
            "GET https://prtg:1616/api/v2/experimental/objects?offset={i}\n"
            "Authorization: Bearer t\n",
        ),
        2_000,
    ),
    # issue 22, acceptance 2: Python's bracketed lines joined for tree-sitter (joined.py)
    Case(
        "python: continuation lines at column 0",
        "lint",
        "c.py",
        repeat(
            _PY + "def f():\n",
            '    requests.get(\nf"{BASE}/experimental/objects", params={\n"limit": {i}})\n',
        ),
        500,
    ),
    Case(
        "python: a bracket never closed, then many lines",
        "lint",
        "c.py",
        repeat(
            _PY + "x = (\ndef f():\n", '    requests.get(\nf"{BASE}/experimental/objects")  # {i}\n'
        ),
        500,
    ),
    Case(
        "json: many requests",
        "lint",
        "collection.json",
        repeat(
            '{"host": "prtg", "item": [',
            '{"url": "/api/v2/devices/{i}", "method": "GET"}, ',
            "{}]}\n",
        ),
        800,
    ),
)


def chain(terms: int, word: str = "or", op: str = "=") -> str:
    return f" {word} ".join(f'id {op} "{n}"' for n in range(terms))


def nested(levels: int) -> str:
    text = "status = up"
    for n in range(levels):
        text = f'id = "{n}" {"and" if n % 2 else "or"} ({text})'
    return text


def records(count: int) -> list[dict[str, object]]:
    return [
        {"id": str(n), "status": "up", "basic.host": f"10.0.{n % 250}.{n % 7}", "basic.tags": []}
        for n in range(count)
    ]


def compiled_or(n: int) -> object:
    """A chain no record matches, so every term runs on every record."""
    from apispec.filters import compile

    return compile(" or ".join(f'id = "x{k}"' for k in range(n)))


def mock_selection(count: int) -> object:
    """The mock's worker-thread selection: a 900-term `or` on an unindexed property."""
    from apispec.mock.lists import ListQuery
    from apispec.mock.selection import Selection

    text = " or ".join(f'basic.host = "10.9.{n}.1"' for n in range(900))
    query = ListQuery(100, 0, text, None, False, None)  # type: ignore[arg-type]
    return Selection(query, records(count), None, None, float("inf"), 25.0, lambda: False)


CASES += (
    # issue 22, point 7: the `full` report of many findings on one long line
    Case(
        "full report: N findings on one URL",
        "report",
        "full",
        lambda n: linted(
            _PY
            + 'requests.get(f"{BASE}/experimental/devices?'
            + "&".join(f"p{i}=1" for i in range(n))
            + '")\n'
        ),
        1_000,
    ),
    # issue 22, point 2: suppressions written after the mappings and strings lines end in
    Case(
        "add-suppressions: N calls, each a mapping over lines",
        "suppress",
        "c.py",
        lambda n: suppressible(
            _PY
            + "".join(
                f'requests.get(f"{{BASE}}/experimental/objects", params={{\n    "limit": {5000 + i},\n}})\n'
                for i in range(n)
            )
        ),
        500,
    ),
)

FILTER_RECORDS = 500
CASES += (
    # issue 11, points 10 and 13: the filter engine and the mock on long chains
    Case("filter check: `or` chain", "check", "", chain, 250),
    Case("filter check: `==` slip in every term", "check", "", lambda n: chain(n, op="=="), 250),
    Case("filter check: nesting past the bound", "check", "", nested, 250),
    Case("filter fmt: `or` chain", "fmt", "", chain, 250),
    Case("filter explain: `and` chain", "explain", "", lambda n: chain(n, "and"), 250),
    Case("filter complete: after an `or` chain", "complete", "", lambda n: chain(n) + " and ", 250),
    Case("filter trees: equality and hash", "equal", "", chain, 250),
    Case("filter compile: `and` chain", "compile", "", lambda n: chain(n, "and"), 250),
    Case(
        f"filter evaluate: `or` chain, {FILTER_RECORDS} records", "evaluate", "", compiled_or, 250
    ),
    Case("mock: 900-term `or` over N records", "select", "", mock_selection, 500),
)


def _lint_runner() -> Callable[[Any, str], object]:
    from apispec.lint.config import Config
    from apispec.lint.engine import Checker, Options
    from apispec.lint.pool import fewer_collections
    from apispec.registry.load import load_registry

    registry = load_registry()
    checker = Checker(registry, Options(Config(), (registry.newest_release.text,)))

    def run(text: str, filename: str) -> None:
        with fewer_collections():  # as `apispec lint` runs
            checker.lint_text(text, filename)

    return run


def linted(text: str) -> object:
    """The lint result of one file, for a report runner (made before the clock starts)."""
    from apispec.lint.config import Config
    from apispec.lint.engine import Checker, LintResult, Options
    from apispec.registry.load import load_registry

    registry = load_registry()
    target = registry.newest_release.text
    findings = Checker(registry, Options(Config(), (target,))).lint_text(text, "c.py")
    return LintResult(findings, [], 1, (target,))


def suppressible(text: str) -> object:
    """A file's text and findings, for the suppression writer (linted before the clock)."""
    result = linted(text)
    return text, result.findings  # type: ignore[attr-defined]


def _suppress_runner() -> Callable[[Any, str], object]:
    from apispec.lint.pool import fewer_collections
    from apispec.lint.rewrite import add_suppressions

    def run(given: tuple[str, list[Any]], name: str) -> object:
        with fewer_collections():  # as `apispec lint --add-suppressions` runs
            return add_suppressions(given[0], given[1], name)

    return run


def _report_runner() -> Callable[[Any, str], object]:
    from apispec.lint.report import render

    return lambda result, fmt: render(fmt, result)


def _filter_runners() -> dict[str, Callable[[Any, str], object]]:
    from apispec.filters import check, compile, complete, format, parse
    from apispec.filters.format import outline, parenthesized

    rows = records(FILTER_RECORDS)

    def equal(text: str, _: str) -> bool:
        one, two = parse(text).tree, parse(text.replace(" = ", "=")).tree
        return one == two and hash(one) == hash(two)

    def explain(text: str, _: str) -> object:
        tree = parse(text).tree
        return outline(tree), parenthesized(tree)

    return {
        "check": lambda text, _: check(text),
        "fmt": lambda text, _: format(text),
        "explain": explain,
        "complete": lambda text, _: complete(text),
        "equal": equal,
        "compile": lambda text, _: compile(text),
        "evaluate": lambda flt, _: flt.select(rows),
        "select": lambda selection, _: selection.run(),
    }


def _runner(name: str) -> Callable[[], Callable[[Any, str], object]]:
    return lambda: _filter_runners()[name]


RUNNERS: dict[str, Callable[[], Callable[[Any, str], object]]] = {
    "lint": _lint_runner,
    "report": _report_runner,
    "suppress": _suppress_runner,
    **{name: _runner(name) for name in ("check", "fmt", "explain", "complete", "equal")},
    **{name: _runner(name) for name in ("compile", "evaluate", "select")},
}


def timed(run: Callable[[Any, str], object], text: object, argument: str) -> float:
    """CPU seconds, the best of a few runs (fewer for slow ones): noise only ever adds time.

    CPU time rather than wall time, because other work on the machine does not
    stretch it.
    """
    best = float("inf")
    spent = 0.0
    while spent < 1.0 or best == float("inf"):
        start = time.process_time()
        run(text, argument)
        took = time.process_time() - start
        best = min(best, took)
        spent += took
        if took > 0.3:
            break
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    runners: dict[str, Callable[[Any, str], object]] = {}
    worst = 0.0
    print(f"{'case':46} {'1x':>9} {'4x':>9} {'16x':>9}  4x/1x  16x/4x  per 4x")
    for case in CASES:
        if args.only not in case.name:
            continue
        run = runners.get(case.runner) or runners.setdefault(case.runner, RUNNERS[case.runner]())
        n = max(1, int(case.units * args.scale))
        times = [timed(run, case.make(n * k), case.argument) for k in (1, 4, 16)]
        ratios = [times[1] / times[0], times[2] / times[1]]
        growth = (times[2] / times[0]) ** 0.5
        worst = max(worst, growth)
        flag = "  SUPER-LINEAR" if growth > MAX_RATIO else ""
        print(
            f"{case.name:46} {times[0] * 1000:7.1f}ms {times[1] * 1000:7.1f}ms "
            f"{times[2] * 1000:7.1f}ms  {ratios[0]:5.1f}  {ratios[1]:6.1f}  {growth:6.1f}{flag}",
            flush=True,
        )
    print(f"worst growth per 4x: {worst:.1f} (linear: 4, limit {MAX_RATIO})")
    return 0 if worst <= MAX_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
