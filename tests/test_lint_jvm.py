"""Java, Kotlin and Groovy on the tree path: what the inline-expectation fixtures
(tests/fixtures/lint/inline/java|kotlin|groovy/, read by tests/test_lint_inline.py) do not
show line by line: file languages, a builder's query, Kotlin templates, a Jenkinsfile's
shell step, a Java wrapper called from Kotlin.
"""

from __future__ import annotations

from pathlib import Path

from apispec.lint.extract import extract, extract_references, language_of
from apispec.lint.helpers import HelperTable

INLINE = Path(__file__).parent / "fixtures" / "lint" / "inline"


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
    java = (INLINE / "java" / "clients" / "sdk" / "MonitorClient.java").read_text(encoding="utf-8")
    defined = extract(java, "sdk/MonitorClient.java").helpers
    kotlin = (
        'package org.acme.netmon.sdk\nfun sweep(client: MonitorClient) = client.get("health")\n'
    )
    refs = extract(kotlin, "sdk/Sweep.kt", helpers=HelperTable(defined)).references
    assert [(r.method, r.path) for r in refs] == [("GET", "/health")]
