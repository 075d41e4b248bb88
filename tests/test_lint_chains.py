"""Java and Kotlin clients: request builders, URI templates, declarative clients (issue 18).

A request built as a chain of calls names its method before the path
(WebClient), after it (OkHttp, java.net.http) or in the chain that holds the
lambda building the URI; Retrofit, Feign and Spring HTTP interfaces declare
requests with annotations, which are routes only in a server's controller.
"""

from __future__ import annotations

import pytest

from apispec.lint.config import Config
from apispec.lint.engine import Options, lint_text
from apispec.lint.extract import extract_references

NEWEST = Options(Config(), ("25.x.122",))
# the fields the snippets call: the tree reader knows a receiver by its declaration
JAVA_HEAD = (
    'class C {\n  static final String BASE = "https://prtg.example.com:1616/api/v2";'
    " WebClient web; Map<String, String> PATHS = new HashMap<>();\n"
)
KOTLIN_HEAD = 'const val BASE = "https://prtg.example.com:1616/api/v2"\n'


def calls(text: str, filename: str) -> list[tuple[int, str | None, str]]:
    return [(r.line, r.method, r.path) for r in extract_references(text, filename)]


@pytest.mark.parametrize(
    ("code", "method"),
    [
        # java.net.http: the verb after the URI
        (
            'HttpRequest.newBuilder(URI.create(BASE + "/experimental/devices/" + id)).DELETE().build();',
            "DELETE",
        ),
        (
            'HttpRequest.newBuilder(URI.create(BASE + "/experimental/sensors/" + id))\n'
            '    .method("PATCH", BodyPublishers.ofString(body)).build();',
            "PATCH",
        ),
        # OkHttp: .url(...).post(body)
        (
            'new Request.Builder().url(BASE + "/experimental/devices/" + id + "/move").post(b).build();',
            "POST",
        ),
        # WebClient: the verb before the path
        (
            'web.method(HttpMethod.POST).uri(BASE + "/experimental/sensors/{id}/move", id).retrieve();',
            "POST",
        ),
        ('web.delete().uri(BASE + "/experimental/sensors/{id}", id).retrieve();', "DELETE"),
        # RestTemplate: the call's name, or HttpMethod.X among its arguments
        ('rest.postForLocation(BASE + "/experimental/groups/{g}/devices", device, g);', "POST"),
        (
            'rest.exchange(BASE + "/experimental/sensors/{id}", HttpMethod.PATCH, body, Void.class, id);',
            "PATCH",
        ),
    ],
)
def test_builder_chains_name_the_method(code: str, method: str) -> None:
    text = JAVA_HEAD + "  void f() {\n    " + code + "\n  }\n}\n"
    found = calls(text, "Client.java")
    assert [m for _, m, _ in found] == [method], found
    assert found[0][0] == 4  # the line of the path, a URI template's {id} a parameter


def test_a_uri_built_in_a_lambda_takes_the_method_of_the_chain_around_it() -> None:
    text = (
        "// prtg\nclass SensorClient(private val web: WebClient) {\n"
        "  suspend fun down() = web.get()\n"
        '    .uri { it.path("/experimental/sensors").queryParam("filter", "status = Down").build() }\n'
        "    .retrieve()\n"
        '  suspend fun rename(id: Long) = web.patch().uri { b -> b.path("/experimental/sensors/{id}").build(id) }\n'
        "}\n"
    )
    assert calls(text, "SensorClient.kt") == [
        (4, "GET", "/experimental/sensors"),
        (6, "PATCH", "/experimental/sensors/{}"),
    ]
    findings = [(f.line, f.code) for f in lint_text(text, "SensorClient.kt", NEWEST)]
    assert (4, "API006") in findings  # the queryParam link is the call's query: `Down`


def test_path_segment_links_spell_one_path_and_query_links_are_its_query() -> None:
    text = (
        "// prtg, port 1616\nclass Jobs {\n"
        "  String jobsOf(long group) throws IOException {\n"
        "    HttpUrl url = api.newBuilder()\n"
        '        .addPathSegment("experimental")\n'
        '        .addPathSegment("groups")\n'
        "        .addPathSegment(Long.toString(group))\n"
        '        .addPathSegment("autodiscoveryjob")\n'
        '        .addQueryParameter("take", "50")\n'
        "        .build();\n"
        "    return execute(new Request.Builder().url(url).post(EMPTY).build());\n"
        "  }\n}\n"
    )
    assert calls(text, "Jobs.java") == [(5, "POST", "/experimental/groups/{}/autodiscoveryjob")]
    findings = [(f.line, f.code) for f in lint_text(text, "Jobs.java", NEWEST)]
    assert (5, "API007") in findings  # the spec lists this creation endpoint with GET
    listing = (
        text.replace('"groups"', '"devices"')
        .replace(
            '        .addPathSegment(Long.toString(group))\n        .addPathSegment("autodiscoveryjob")\n',
            "",
        )
        .replace(".post(EMPTY)", ".get()")
    )
    assert calls(listing, "Jobs.java") == [(5, "GET", "/experimental/devices")]
    findings = [(f.line, f.code) for f in lint_text(listing, "Jobs.java", NEWEST)]
    assert (7, "API011") in findings  # `take` for `limit`, in a link of its own


def test_ktor_requests_take_parameters_from_their_block() -> None:
    text = (
        KOTLIN_HEAD
        + 'suspend fun channels(client: HttpClient) = client.get("$BASE/experimental/channels") {\n'
        + '    parameter("sort", "-name")\n'
        + "}\n"
        + "suspend fun jobs(client: HttpClient) = client.get {\n"
        + '    url { takeFrom(BASE); appendPathSegments("experimental", "autodiscoveryjobs") }\n'
        + "}\n"
    )
    assert calls(text, "Ktor.kt") == [
        (2, "GET", "/experimental/channels"),
        (6, "GET", "/experimental/autodiscoveryjobs"),
    ]
    assert (3, "API011") in [(f.line, f.code) for f in lint_text(text, "Ktor.kt", NEWEST)]


def test_retrofit_feign_and_spring_interfaces_declare_requests() -> None:
    text = (
        "// base https://prtg.example.com:1616/api/v2/\ninterface PrtgApi {\n"
        '  @GET("usergroups") suspend fun groups(): List<G>\n'
        '  @HTTP(method = "DELETE", path = "experimental/groups/{id}") suspend fun drop(@Path("id") id: String)\n'
        '  @RequestLine("PATCH /experimental/sensors/{id}") fun edit(@Param("id") id: String)\n'
        '  @PostExchange("/experimental/devices/{id}/move") fun move(@PathVariable id: String)\n'
        "}\n"
    )
    assert calls(text, "PrtgApi.kt") == [
        (3, "GET", "/usergroups"),
        (4, "DELETE", "/experimental/groups/{}"),
        (5, "PATCH", "/experimental/sensors/{}"),
        (6, "POST", "/experimental/devices/{}/move"),
    ]


def test_mapping_annotations_are_requests_in_a_feign_client_and_routes_in_a_controller() -> None:
    client = (
        '// prtg\n@FeignClient(name = "prtg", url = "${prtg.url}/api/v2")\ninterface Prtg {\n'
        '  @GetMapping("/experimental/devices") List<Device> devices();\n'
        '  @RequestMapping(method = RequestMethod.DELETE, value = "/experimental/devices/{id}")\n'
        "  void delete(@PathVariable String id);\n}\n"
    )
    assert calls(client, "Prtg.java") == [
        (4, "GET", "/experimental/devices"),
        (5, "DELETE", "/experimental/devices/{}"),
    ]
    server = client.replace(
        '@FeignClient(name = "prtg", url = "${prtg.url}/api/v2")', "@RestController"
    )
    assert calls(server, "Prtg.java") == []


@pytest.mark.parametrize(
    ("code", "filter_line"),
    [
        ('String f = String.join(" AND ", "status = down", "favorite = true");', 1),
        (
            'String f = Stream.of("status = down", "favorite = true")\n    .collect(Collectors.joining(" AND "));',
            2,
        ),
        ('val f = listOf("status = down", "favorite = true").joinToString(" AND ")', 1),
    ],
)
def test_filters_joined_in_java_and_kotlin_are_checked(code: str, filter_line: int) -> None:
    text = (
        "// prtg\nfun f() {\n" + code + "\n"
        'rest.getForObject(BASE + "/experimental/devices?filter={f}", Map.class, f)\n'
        '.queryParam("filter", f)\n}\n'
    )
    filename = "F.kt" if code.startswith("val") else "F.java"
    findings = [(f.line, f.code) for f in lint_text(text, filename, NEWEST)]
    assert (2 + filter_line, "API006") in findings  # upper-case AND, at the separator's line


def test_a_map_put_of_a_path_is_a_dispatch_table_not_an_http_put() -> None:
    text = JAVA_HEAD + '  static { PATHS.put("probes", "/experimental/probes"); }\n}\n'
    assert calls(text, "Paths.java") == [(3, None, "/experimental/probes")]


def test_wiremock_stubs_and_their_responses_are_never_calls() -> None:
    text = (
        "// prtg\nclass T {\n  void t() {\n"
        '    stubFor(get(urlPathEqualTo("/api/v2/experimental/devices"))\n'
        '        .willReturn(okJson("[{\\"href\\":\\"/api/v2/devices/2050\\"}]")));\n'
        "  }\n}\n"
    )
    assert calls(text, "PrtgTest.java") == []


def test_uri_template_variables_take_the_calls_last_arguments() -> None:
    text = (
        JAVA_HEAD
        + "  List<?> down(int n) {\n"
        + '    return rest.getForObject(BASE + "/experimental/devices?filter={f}&limit={n}",\n'
        + '        List.class, "status = Down", 5000);\n'
        + "  }\n}\n"
    )
    query = {q.name: q.value for q in extract_references(text, "Down.java")[0].query}
    assert query == {"filter": "status = Down", "limit": "5000"}
    assert {(5, "API006"), (5, "API008")} <= set(
        (f.line, f.code) for f in lint_text(text, "Down.java", NEWEST)
    )


def test_micronaut_controllers_declare_routes_and_its_clients_requests() -> None:
    server = '// prtg\n@Controller("/api/v2")\nclass Fake {\n  @Get("/experimental/devices") List<D> d() { return null; }\n}\n'
    assert calls(server, "Fake.java") == []
    client = server.replace('@Controller("/api/v2")', '@Client("${prtg.url}/api/v2")')
    assert calls(client, "Fake.java") == [(4, "GET", "/experimental/devices")]


def test_a_function_body_is_no_table_and_type_arguments_are_skipped() -> None:
    text = (
        KOTLIN_HEAD
        + "fun refresh(client: HttpClient) {\n"
        + '    val url = "$BASE/experimental/devices".toHttpUrl().newBuilder()\n'
        + '        .addQueryParameter("take", "5").build()\n'
        + "    http.newCall(Request.Builder().url(url).build()).execute()\n"
        + '    rest.exchange<List<Device>>("$BASE/experimental/probes/$id", HttpMethod.DELETE)\n'
        + '    val license = client.get<String>("$BASE/experimental/license")\n'
        + "}\n"
    )
    found = extract_references(text, "Refresh.kt")
    # the body's DELETE belongs to its own statement, not to the URL built above it
    assert [(r.line, r.method, r.path) for r in found] == [
        (3, "GET", "/experimental/devices"),  # OkHttp's Request.Builder sends GET unless told
        (6, "DELETE", "/experimental/probes/{}"),
        (7, "GET", "/experimental/license"),
    ]
    assert [(q.name, q.value) for q in found[0].query] == [("take", "5")]
