"""Detection rules that must hold on code nobody tuned the linter on (issues 12, 18).

Each test lints a small tree under tests/fixtures/lint/generalise/ (one shape
each, as a repository: helpers learnt in one file apply in the others) and
pins the calls `apispec lint --show-calls` lists. The holdout set measured
these shapes first; the fixtures here are written apart from it, so a rule
that passes them is a rule, not a patch for one line.
"""

from __future__ import annotations

from pathlib import Path

from apispec.lint.run import LintRequest, execute

TREES = Path(__file__).parent / "fixtures" / "lint" / "generalise"


def _lint(name: str) -> tuple[list[tuple[str, int, str | None, str]], list[tuple[str, int, str]]]:
    root = TREES / name
    outcome = execute(
        LintRequest(paths=[root], targets=["25.x.122"], fail_on="never", show_calls=True, jobs=1)
    )

    def rel(shown: str) -> str:
        return Path(shown).resolve().relative_to(root.resolve()).as_posix()

    calls = [(rel(c.path), c.line, c.method, c.call) for c in outcome.result.calls]
    findings = [(rel(f.path), f.line, f.code) for f in outcome.result.findings]
    return calls, findings


def test_a_helper_method_is_called_on_its_own_object_not_on_a_dict_or_library() -> None:
    # `get` is a helper method of MonitorClient: `client.get("/version")` is a call,
    # `body.get("code")`, `headers.get(...)`, `resp.json().get(...)` and
    # `requests.get(f"{OTHER}/x")` are a dict's or a library's `get`.
    calls, _ = _lint("member-helpers")
    assert calls == [
        ("go/monitor.go", 14, "GET", "/health"),  # Go's method receiver `m`
        ("inventory.py", 10, "GET", "/experimental/devices"),
        ("inventory.py", 11, "GET", "/version"),  # `client` is handed this API's paths
        ("inventory.py", 12, "GET", "/experimental/license"),
        ("monitor_client.py", 27, "GET", "/health"),  # `self`
    ]


def test_values_of_a_commands_hashtable_or_array_are_never_its_path() -> None:
    # `-Query @{ include = 'location' }`, `-Body @{ tags = @('retired') }` and a script
    # block's string are values; a parenthesised `-f` expression is the path argument.
    calls, _ = _lint("command-groups")
    assert calls == [
        ("Archive-Probes.ps1", 3, "GET", "/experimental/probes"),
        ("Archive-Probes.ps1", 5, "POST", "/experimental/probes/{id}/group"),
        ("Archive-Probes.ps1", 6, "GET", "/health"),
    ]


def test_a_query_built_apart_is_read_and_its_findings_point_where_it_is_written() -> None:
    # `fetch(path, **params)` expands a mapping into a helper's query keywords; a value
    # the linter cannot read (`strconv.Itoa(n)`) still says where its name is written.
    _, findings = _lint("query-apart")
    assert [f for f in findings if f[2] == "API011"] == [
        ("alarms.py", 13, "API011"),
        ("sensors.go", 7, "API011"),
    ]


def test_a_query_value_continues_in_what_is_joined_and_format_slots_take_their_arguments() -> None:
    # `"...?filter=" + [uri]::EscapeDataString('...')` is that filter (not an empty one);
    # `'{0}/x?limit={1}' -f $api, 10000`, `.format(API, 9000)` and `fmt.Sprintf(...%d, 7000)`
    # send the argument's value; an unknown argument is a placeholder, never a finding.
    _, findings = _lint("query-joined")
    assert sorted(f for f in findings if f[2] in ("API006", "API008", "API011")) == [
        ("Get-Inventory.ps1", 3, "API006"),
        ("Get-Inventory.ps1", 5, "API008"),
        ("devices.go", 6, "API008"),
        ("export_sensors.py", 9, "API006"),
        ("export_sensors.py", 11, "API008"),
    ]


def test_the_method_set_apart_from_the_path_reaches_every_branch_and_curl_option_array() -> None:
    # Each branch of `$target = if {...} elseif {...} else {...}` is sent by the later
    # `-Method Post`; `curl_setopt_array` options count as curl_setopt's, and a body
    # (CURLOPT_POSTFIELDS) makes libcurl POST.
    calls, _ = _lint("methods-apart")
    assert [(f, line, m) for f, line, m, _ in calls] == [
        ("Archive-Devices.ps1", 5, "POST"),
        ("Archive-Devices.ps1", 8, "POST"),
        ("Archive-Devices.ps1", 11, "POST"),
        ("session.php", 4, "POST"),
        ("session.php", 10, "DELETE"),
    ]


def test_makefile_recipes_are_shell_and_a_header_variable_goes_to_the_call_naming_it() -> None:
    # A recipe's curl is a call; `HDR="Authorization: ${TOKEN}"` goes to the curl that
    # sends "$HDR" (no Bearer: API009), the vendor's Basic header to no call of this API.
    calls, findings = _lint("shell-lines")
    assert [(f, line, p) for f, line, _, p in calls] == [
        ("Makefile", 6, "/settings/public"),
        ("alarms.sh", 8, "/experimental/sensors"),
    ]
    assert [f for f in findings if f[2] == "API009"] == [("alarms.sh", 5, "API009")]


def test_a_secret_in_a_name_value_record_is_found_and_a_key_is_never_a_value() -> None:
    # Postman variables name the secret under "key"; "value" after `"key": "token",`
    # is the next key, not the token's literal value.
    from apispec.lint.secrets import find_secrets

    text = (TREES / "secrets" / "Lab.postman_environment.json").read_text(encoding="utf-8")
    found = [(text[s.span.start : s.span.end], s.kind) for s in find_secrets(text, "lab.json")]
    assert found == [("c41d9e07b2a84f6e95d3a1b8e7f02c6d", "API key")]


def test_a_test_file_is_told_by_the_projects_own_directories_not_those_above_it(
    tmp_path: Path,
) -> None:
    # A checkout under a directory named `tests` (a CI workspace, a fixture tree) is not
    # all test files: the literal token of its client is a secret; the dummy token of
    # its own `tests/` directory is not.
    project = tmp_path / "tests" / "checkout"
    (project / "tests").mkdir(parents=True)
    (project / ".apispec.toml").write_text("", encoding="utf-8")
    (project / "client.py").write_text(
        "import requests\n"
        'API = "https://prtg.example.net:1616/api/v2"\n'
        'HEADERS = {"Authorization": "Bearer test-9f2c4e1a7b3d5f6a8c0e"}\n'
        'requests.get(f"{API}/devices", headers=HEADERS)\n',
        encoding="utf-8",
    )
    (project / "tests" / "test_client.py").write_text(
        (project / "client.py").read_text(encoding="utf-8"), encoding="utf-8"
    )
    outcome = execute(
        LintRequest(
            paths=[project],
            targets=["25.x.122"],
            config=project / ".apispec.toml",
            fail_on="never",
            jobs=1,
        )
    )
    secrets = [
        Path(f.path).relative_to(project).as_posix()
        for f in outcome.result.findings
        if f.code == "API010"
    ]
    assert secrets == ["client.py"]


def test_a_helper_is_called_only_from_files_of_its_own_language() -> None:
    # `api` is a Python helper; in a Postman collection the words "api", "experimental",
    # "devices" of a URL's `path` array are segments of the `raw` URL, not calls of it.
    calls, _ = _lint("helper-languages")
    assert [(f, line, p) for f, line, _, p in calls] == [
        ("Monitor.postman_collection.json", 9, "/experimental/devices"),
        ("monitor.py", 10, "/health"),
    ]


def test_ci_workflow_scripts_are_shell_with_the_workflows_environment() -> None:
    # GitHub Actions `run:` (plain, `|`, folded `>`) and GitLab `script:` items are shell;
    # `env:`/`variables:` entries at any level are its variables; `${{ ... }}` is a value.
    calls, findings = _lint("ci-scripts")
    assert [(f, line, p) for f, line, _, p in calls] == [
        (".github/workflows/nightly.yml", 11, "/health"),
        (".github/workflows/nightly.yml", 15, "/experimental/groups"),
        (".github/workflows/nightly.yml", 20, "/devices"),
        (".gitlab-ci.yml", 7, "/settings/public"),
        (".gitlab-ci.yml", 8, "/experimental/devices/{id}/settings"),
    ]
    assert [(f, line, c) for f, line, c in findings if c in ("API009", "API011", "API001")] == [
        (".github/workflows/nightly.yml", 15, "API011"),
        (".github/workflows/nightly.yml", 19, "API009"),
        (".gitlab-ci.yml", 8, "API001"),
    ]


def test_a_base_variable_with_another_literal_host_reads_like_that_url_written_out() -> None:
    # `PAGE_API` names a host that is not this API's: `${PAGE_API}/incidents` is that
    # product's, as `https://api.pages.example.org/api/v2/incidents` would be (and
    # beside this API's own base, even a registry collection after it is the other's).
    calls, _ = _lint("other-bases")
    # A host variable named for this API (`$PRTG_HOST/api/v2/version`) names it, as the
    # URL's own text does; another variable before `/api/v2` with an unknown first
    # segment is another product's.
    # A base the file also joins registry paths onto (`{BASE}/experimental/devices`) is
    # this API's whatever its host: `{BASE}/health` is a call.
    assert [(f, line, p) for f, line, _, p in calls] == [
        ("own_server.py", 7, "/health"),
        ("own_server.py", 11, "/experimental/devices"),
        ("post_status.sh", 7, "/sensors/{id}"),
        ("version_check.sh", 4, "/version"),
    ]


def test_a_header_in_the_options_of_a_splatted_hashtable_belongs_to_the_calls_splatting_it() -> (
    None
):
    # `Headers = @{ Authorization = ... }` is a key of `$shared`; the call splatting
    # `@shared` sends it (no Bearer: API009); `$vendor`'s header goes to no call of this API.
    _, findings = _lint("splatted-headers")
    assert [f for f in findings if f[2] == "API009"] == [("Get-Alarms.ps1", 4, "API009")]


def test_clauses_added_to_a_list_over_several_statements_are_joined_with_every_clause() -> None:
    # `clauses.append(...)`, `where.push(...)`, `terms.Add(...)`, `$c[] = ...`,
    # `array_push($c, ...)`, Go's `parts = append(parts, ...)`: each added clause is in
    # the joined filter, so a wrong separator (`AND`, `OR`, `&&`) and a wrong clause
    # (an unquoted interpolated id) are reported where they are written.
    _, findings = _lint("clauses-appended")
    assert findings == [
        ("Report.cs", 11, "API006"),  # FLT005 `paused` (info)
        ("Report.cs", 13, "API006"),  # `AND`
        ("alarms.py", 11, "API006"),  # `parentid = {probe_id}` unquoted
        ("board.ts", 7, "API006"),  # `OR`
        ("probes.php", 5, "API006"),  # FLT005 `Down` (info)
        ("sensors.go", 17, "API006"),  # `&&`
    ]


def test_a_header_in_the_request_an_own_helper_builds_is_checked_once() -> None:
    # The helper's request joins this API's base with its path parameter: it is no call
    # itself, but every call of the helper sends its header (a headers object it names,
    # a builder's `.header(...)`). Another service's helper (`desk`) keeps its `Basic`;
    # Ruby's lower-case symbol key `authorization:` is a header too.
    _, findings = _lint("helper-headers")
    assert [f for f in findings if f[2] == "API009"] == [
        ("Exporter.java", 15, "API009"),
        ("report.rb", 4, "API009"),
        ("sync.mjs", 3, "API009"),
    ]


def test_a_tuple_pattern_of_a_switch_arm_or_case_is_compared_not_requested() -> None:
    # An HttpMessageHandler fake's `("GET", "/api/v2/x") => ...` arms and Python's
    # `case ("GET", "/api/v2/x"):` match requests; the test's own request is a call.
    calls, _ = _lint("switch-tuples")
    assert calls == [("tests/FakePrtgHandler.cs", 23, "GET", "/experimental/probes")]
