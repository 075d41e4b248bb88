"""Java, Kotlin and Groovy on the tree path: inline expectations, as CodeQL tests its models.

Every line of tests/fixtures/lint/jvm/ that makes a call carries `$ call=METHOD /path` in a
comment (`?` where the code shows no method, `{}` for each parameter); the tree is linted
as a user lints a repository (`apispec lint --show-calls`: wrappers of one file are in
scope in the others) and the calls found must be exactly those. The negative files
(routes, test doubles, log lines, a pipeline that calls nothing) yield nothing.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from apispec.lint.extract import extract, extract_references, language_of
from apispec.lint.helpers import HelperTable

TREE = Path(__file__).parent / "fixtures" / "lint" / "jvm"
_EXPECTED = re.compile(r"\$ call=(\S+) (\S+)")
_PARAM = re.compile(r"\{[^}]*\}")

Call = tuple[str, int, str | None, str]


def _expected(root: Path) -> set[Call]:
    found: set[Call] = set()
    for path in sorted(root.rglob("*")):
        if not path.is_file() or "negative" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in _EXPECTED.finditer(line):
                method = None if m.group(1) == "?" else m.group(1)
                found.add((path.relative_to(root).as_posix(), number, method, m.group(2)))
    return found


def _lint(root: Path, *paths: str) -> dict[str, list[dict[str, object]]]:
    command = [sys.executable, "-m", "apispec", "lint", *paths, "--target", "25.x.122"]
    done = subprocess.run(
        [*command, "--format", "json", "--show-calls"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, list[dict[str, object]]] = json.loads(done.stdout)
    return found


def _calls(report: dict[str, list[dict[str, object]]]) -> set[Call]:
    return {
        (str(c["path"]), int(str(c["line"])), c.get("method"), _PARAM.sub("{}", str(c["call"])))  # type: ignore[misc]
        for c in report["calls"]
    }


@pytest.mark.parametrize("language", ["java", "kotlin", "groovy"])
def test_calls_are_exactly_the_inline_expectations(language: str) -> None:
    report = _lint(TREE, language)
    expected = {call for call in _expected(TREE) if call[0].startswith(language + "/")}
    assert expected, language
    assert _calls(report) == expected


def test_negative_files_yield_no_call_and_no_finding() -> None:
    """Routes (Spring, Javalin, Ktor), test doubles (MockRestServiceServer), paths in log
    lines and comparisons, and a pipeline that only mentions the API."""
    assert _lint(TREE, "negative")["calls"] == []
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "negative", "--target", "25.x.122"],
        cwd=TREE,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


def test_jvm_files_are_languages_of_their_own() -> None:
    assert language_of("Client.java") == "java"
    assert language_of("Client.kt") == "kotlin"
    assert language_of("build.gradle.kts") == "kotlin"
    assert language_of("Tools.groovy") == "groovy"
    assert language_of("ci/Jenkinsfile") == "groovy"


def _one(text: str, filename: str) -> list[tuple[str | None, str, dict[str, str | None]]]:
    return [
        (r.method, r.path, {q.name: q.value for q in r.query})
        for r in extract_references(text, filename)
    ]


def test_builder_links_give_the_query_and_the_method() -> None:
    java = """// prtg
HttpUrl url = HttpUrl.parse(BASE).newBuilder()
    .addPathSegments("experimental/sensors")
    .addQueryParameter("filter", "status = down")
    .build();
Request request = new Request.Builder().url(url).delete().build();
"""
    imports = "import okhttp3.HttpUrl;\nimport okhttp3.Request;\n"
    assert _one(imports + java, "Sweep.java") == [
        ("DELETE", "/experimental/sensors", {"filter": "status = down"})
    ]


def test_kotlin_templates_and_quoting_by_code() -> None:
    """`$id` is a parameter; `joinToString { "\\"$it\\"" }` quotes each element."""
    kotlin = """// prtg
import java.net.URLEncoder
val api = "https://prtg.example:1616/api/v2"
fun tagged(id: Long, tags: List<String>) {
    val filter = tags.joinToString(" or ") { "tags contains \\"$it\\"" }
    java.net.URL("$api/experimental/groups/$id/devices?filter=$filter").readText()
}
"""
    ((_, path, query),) = _one(kotlin, "Tags.kt")
    assert path == "/experimental/groups/{}/devices"
    assert query["filter"] == 'tags contains "$it" or tags contains "$it"'


def test_a_jenkinsfile_sh_step_is_shell_and_points_into_the_step() -> None:
    text = (
        'def api = "https://prtg.ci:1616/api/v2"\n'
        "node {\n"
        '    sh "curl -X PATCH -d @body.json ${api}/experimental/sensors/12"\n'
        "}\n"
    )
    (ref,) = extract_references(text, "Jenkinsfile")
    assert (ref.method, ref.path, ref.line) == ("PATCH", "/experimental/sensors/{}", 3)
    assert text.splitlines()[2][ref.column - 1 :].startswith("/experimental/sensors/12")


def test_a_java_wrapper_is_in_scope_in_kotlin() -> None:
    """One JVM: a Kotlin file calls a Java class's wrapper method."""
    java = (TREE / "java" / "sdk" / "MonitorClient.java").read_text(encoding="utf-8")
    defined = extract(java, "sdk/MonitorClient.java").helpers
    kotlin = (
        'package org.acme.netmon.sdk\nfun sweep(client: MonitorClient) = client.get("health")\n'
    )
    refs = extract(kotlin, "sdk/Sweep.kt", helpers=HelperTable(defined)).references
    assert [(r.method, r.path) for r in refs] == [("GET", "/health")]
