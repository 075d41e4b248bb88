"""The JVM's HTTP clients, shared by Java, Kotlin and Groovy (each adds its own rows).

java.net.http and OkHttp request builders, OkHttp's `HttpUrl`, Spring's
`UriComponentsBuilder`, `RestTemplate` (with `RestTemplateBuilder.rootUri`) and
`WebClient`, and the declarative clients (Retrofit, Feign, Spring HTTP interfaces,
`@GetMapping` inside a `@FeignClient`). Builders are objects whose links set parts
(extract/builders.py): the request is what the chain builds.
"""

from __future__ import annotations

from apispec.lint.knowledge import NOWHERE, Client, EnvReader, Factory, Knowledge, Link

_JDK = "java.net.http.HttpRequest"
_OKHTTP = "okhttp3.Request"
_URL = "okhttp3.HttpUrl"
_URIS = "org.springframework.web.util.UriComponentsBuilder"
_REST = "org.springframework.web.client.RestTemplate"
_WEB = "org.springframework.web.reactive.function.client.WebClient"
_SPRING = "org.springframework.web.bind.annotation"
_EXCHANGE = "org.springframework.web.service.annotation"
_REST_CLIENT = "org.springframework.web.client.RestClient"
_APACHE = ("org.apache.http.client.methods", "org.apache.hc.client5.http.classic.methods")
_APACHE_BUILDERS = (
    "org.apache.hc.core5.http.io.support.ClassicRequestBuilder",
    "org.apache.hc.client5.http.async.methods.SimpleRequestBuilder",
)
_URI_BUILDERS = ("org.apache.http.client.utils", "org.apache.hc.core5.net")
_FLUENT = "org.apache.http.client.fluent.Request"
_FLUENT5 = "org.apache.hc.client5.http.fluent.Request"
_JAXRS = ("javax.ws.rs", "jakarta.ws.rs")
_UNIREST = ("kong.unirest.Unirest", "com.mashape.unirest.http.Unirest")
_UPPER = ("GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS")
_LOWER = tuple(v.lower() for v in _UPPER)

FACTORIES = (
    Factory(f"{_JDK}.newBuilder", "jdk.request", url=(0, ""), method="GET"),
    Factory(f"{_OKHTTP}.Builder", "okhttp.request", method="GET"),
    Factory(f"{_URL}.parse", "okhttp.url", url=(0, "")),
    Factory(f"{_URL}.get", "okhttp.url", url=(0, "")),
    Factory(f"{_URL}.Builder", "okhttp.url"),
    *(
        Factory(f"{_URIS}.{name}", "spring.uri", url=(0, ""))
        for name in ("fromUriString", "fromHttpUrl", "fromPath", "fromUri", "newInstance")
    ),
    Factory(_REST, "spring.rest", join="root"),
    Factory("org.springframework.boot.web.client.RestTemplateBuilder", "spring.rest", join="root"),
    Factory(_WEB, "spring.web", join="concat"),  # a field or parameter of the type
    Factory(f"{_WEB}.create", "spring.web", base=(0, ""), join="concat"),
    Factory(f"{_WEB}.builder", "spring.web", join="concat"),
    Factory(f"{_WEB}.Builder", "spring.web", join="concat"),
    Factory("feign.Feign.builder", "feign"),
    Factory("retrofit2.Retrofit.Builder", "retrofit", join="rfc3986"),
    # Spring's RestClient takes WebClient's links
    Factory(_REST_CLIENT, "spring.web", join="concat"),
    Factory(f"{_REST_CLIENT}.create", "spring.web", base=(0, ""), join="concat"),
    Factory(f"{_REST_CLIENT}.builder", "spring.web", join="concat"),
    Factory(f"{_REST_CLIENT}.Builder", "spring.web", join="concat"),
    # text built piece by piece: its `url` is the text so far
    Factory("java.lang.StringBuilder", "java.text", url=(0, "")),
    Factory("java.lang.StringBuffer", "java.text", url=(0, "")),
    # HttpURLConnection: `new URL(u).openConnection()`, then statements on the connection
    Factory("java.net.URL", "java.url", url=(0, ""), method="GET"),
    # Apache HttpClient: request objects (`new HttpGet(u)`), builders, the fluent API
    *(
        Factory(f"{package}.Http{verb.title()}", "apache.request", url=(0, ""))
        for package in _APACHE
        for verb in _UPPER
    ),
    *(
        Factory(f"{builder}.{verb}", "apache.request", url=(0, ""))
        for builder in _APACHE_BUILDERS
        for verb in _LOWER
    ),
    *(Factory(f"{_FLUENT}.{verb.title()}", "apache.request", url=(0, "")) for verb in _UPPER),
    *(Factory(f"{_FLUENT5}.{verb}", "apache.request", url=(0, "")) for verb in _LOWER),
    *(Factory(f"{package}.URIBuilder", "apache.uri", url=(0, "")) for package in _URI_BUILDERS),
    # JAX-RS clients: `client.target(base).path("x").queryParam(k, v).request().get()`
    *(Factory(f"{ws}.client.ClientBuilder.newClient", "jaxrs") for ws in _JAXRS),
    *(Factory(f"{ws}.client.ClientBuilder.newBuilder", "jaxrs") for ws in _JAXRS),
    *(Factory(f"{ws}.client.{name}", "jaxrs") for ws in _JAXRS for name in ("Client", "WebTarget")),
    # Unirest: `Unirest.get(u).queryString(k, v).asJson()`
    *(
        Factory(f"{unirest}.{verb}", "unirest", url=(0, ""))
        for unirest in _UNIREST
        for verb in _LOWER
    ),
    # Micronaut: `HttpRequest.GET("/x")` handed to its client
    *(
        Factory(f"io.micronaut.http.HttpRequest.{verb}", "micronaut.request", url=(0, ""))
        for verb in _UPPER
    ),
)

LINKS = (
    Link("object:jdk.request", ("uri",), "url"),
    Link("object:jdk.request", _UPPER, "verb"),
    Link("object:jdk.request", ("method",), "method"),
    Link("object:jdk.request", ("header", "setHeader"), "headers"),
    Link("object:okhttp.request", ("url",), "url"),
    Link("object:okhttp.request", _LOWER, "verb"),
    Link("object:okhttp.request", ("method",), "method"),
    Link("object:okhttp.request", ("header", "addHeader"), "headers"),
    Link(
        "object:okhttp.url",
        ("addPathSegment", "addEncodedPathSegment", "addPathSegments", "addEncodedPathSegments"),
        "segments",
    ),
    Link(
        "object:okhttp.url",
        (
            "addQueryParameter",
            "setQueryParameter",
            "addEncodedQueryParameter",
            "setEncodedQueryParameter",
        ),
        "query",
    ),
    Link("object:okhttp.url", ("resolve",), "resolve"),
    Link("object:okhttp.url", ("scheme",), "scheme"),
    Link("object:okhttp.url", ("host",), "host"),
    Link("object:okhttp.url", ("port",), "port"),
    Link("object:spring.uri", ("path",), "path"),
    Link("object:spring.uri", ("pathSegment",), "segments"),
    Link("object:spring.uri", ("queryParam",), "query"),
    Link("object:spring.uri", ("queryParams",), "queries"),
    Link("object:spring.uri", ("uri",), "url"),
    Link("object:spring.rest", ("rootUri",), "base"),
    Link("object:spring.rest", ("defaultHeader",), "headers"),
    Link("object:spring.web", ("baseUrl",), "base"),
    Link("object:spring.web", ("defaultHeader", "header"), "headers"),
    Link("object:spring.web", _LOWER, "verb"),
    Link("object:spring.web", ("method",), "method"),
    Link("object:spring.web", ("uri",), "url", argument="spring.uri", template=1),
    Link("object:feign", ("target",), "base"),
    Link("object:feign", ("requestInterceptor",), "callback", argument="feign.template"),
    Link("object:feign.template", ("header",), "headers"),
    Link("object:retrofit", ("baseUrl",), "base"),
    Link("object:java.text", ("append",), "path"),
    Link("object:java.url", ("openConnection",), kind="java.connection"),
    Link("object:java.connection", ("setRequestMethod",), "method"),
    Link("object:java.connection", ("setRequestProperty", "addRequestProperty"), "headers"),
    Link("object:apache.request", ("setHeader", "addHeader", "header"), "headers"),
    Link("object:apache.uri", ("addParameter", "setParameter"), "query"),
    Link("object:apache.uri", ("appendPath", "appendPathSegments", "setPathSegments"), "segments"),
    Link("object:apache.request", ("setURI", "setUri"), "url"),
    Link("object:jaxrs", ("target",), "url"),
    Link("object:jaxrs", ("path",), "segments"),
    Link("object:jaxrs", ("queryParam",), "query"),
    Link("object:jaxrs", ("header",), "headers"),
    Link("object:jaxrs", _LOWER, "verb"),
    Link("object:jaxrs", ("method",), "method"),
    Link("object:unirest", ("queryString",), "query"),
    Link("object:unirest", ("header",), "headers"),
    Link("object:micronaut.request", ("header",), "headers"),
)


def _rest(
    callees: tuple[str, ...],
    method: str | tuple[int, str] = "prefix",
    on: str = "object:spring.rest",
) -> Client:
    """A `RestTemplate` method: URI template variables are its last arguments."""
    return Client(on, callees, (0, "url"), method, template=1)


# RestTemplate's method names no other library shares: called on an object the file
# says nothing of (a field of a snippet, an injected template), they are its requests
_REST_OWN = ("getForObject", "getForEntity", "postForObject", "postForEntity", "postForLocation")
_REST_OWN_TOO = ("patchForObject", "headForHeaders", "optionsForAllow")


def _declared(
    on: str,
    callees: tuple[str, ...],
    url: tuple[int, str],
    method: str | tuple[int, str] = "prefix",
) -> Client:
    return Client(on, callees, url, method, template=1, declared=True)


CLIENTS = (
    Client(_JDK, ("newBuilder",), (0, ""), chain=True),
    Client("object:jdk.request", ("uri",), (0, ""), chain=True),
    Client("object:okhttp.request", ("url",), (0, ""), chain=True),
    Client("object:spring.web", ("uri",), (0, ""), chain=True, template=1),
    _rest(_REST_OWN),
    _rest(("put", "delete", *_REST_OWN_TOO)),
    _rest(("exchange", "execute"), (1, "method")),
    _rest((*_REST_OWN, *_REST_OWN_TOO), on="object:*"),
    _rest(("exchange",), (1, "method"), on="object:*"),
    Client("object:java.url", ("openConnection",), NOWHERE, chain=True),
    *(
        Client(package, (f"Http{verb.title()}",), (0, ""), verb, chain=True)
        for package in _APACHE
        for verb in _UPPER
    ),
    *(Client(builder, _LOWER, (0, ""), chain=True) for builder in _APACHE_BUILDERS),
    Client(_FLUENT, tuple(v.title() for v in _UPPER), (0, ""), chain=True),
    Client(_FLUENT5, _LOWER, (0, ""), chain=True),
    Client("object:jaxrs", ("target", "path"), (0, ""), chain=True),
    *(Client(unirest, _LOWER, (0, ""), chain=True) for unirest in _UNIREST),
    Client("io.micronaut.http.HttpRequest", _UPPER, (0, ""), chain=True),
    # declarative clients: an annotation is the request (java.py and kotlin.py say which);
    # its URI template's variables are the method's parameters
    _declared("retrofit2.http", _UPPER, (0, "value")),
    _declared("retrofit2.http", ("HTTP",), (-1, "path"), (-1, "method")),
    _declared("feign", ("RequestLine",), (0, "value"), "line"),
    _declared(_EXCHANGE, tuple(f"{v.title()}Exchange" for v in _UPPER), (0, "value|url")),
    _declared(_EXCHANGE, ("HttpExchange",), (0, "value|url"), (-1, "method")),
    _declared(_SPRING, tuple(f"{v.title()}Mapping" for v in _UPPER), (0, "value|path")),
    _declared(_SPRING, ("RequestMapping",), (0, "value|path"), (-1, "method")),
    _declared("io.micronaut.http.annotation", tuple(v.title() for v in _UPPER), (0, "value|uri")),
)

TRANSFORMS = {
    "java.lang.String.format": "format:printf",
    "java.lang.String.join": "join_first",
    "java.text.MessageFormat.format": "format:brace",
    "java.lang.String.valueOf": "identity",
    "java.lang.Long.toString": "identity",
    "java.lang.Integer.toString": "identity",
    "java.util.Objects.requireNonNull": "identity",
    "java.net.URI.create": "identity",
    "java.net.URI": "identity",
    ".toURL": "object:java.url",
    "java.net.URLEncoder.encode": "identity",
    "java.net.URLDecoder.decode": "identity",
    "java.util.stream.Stream.of": "list",
    "java.util.List.of": "list",
    "java.util.Set.of": "list",
    "java.util.Arrays.asList": "list",
    ".HashMap": "dict",
    ".LinkedHashMap": "dict",
    ".TreeMap": "dict",
    ".ArrayList": "list",
    ".LinkedList": "list",
    ".stream": "receiver",
    ".entrySet": "entries",
    ".values": "values",
    ".getKey": "item:0",
    ".getValue": "item:1",
    ".toList": "receiver",
    ".collect": "collect",
    ".toString": "receiver",
    ".trim": "receiver",
    ".strip": "receiver",
    ".replaceAll": "receiver",
    ".toUri": "receiver",
    ".toUriString": "receiver",
}

ENV_READERS = {
    r.qualified: r
    for r in (
        EnvReader("java.lang.System.getenv", (0, ""), NOWHERE),
        EnvReader("java.lang.System.getenv().getOrDefault"),
        EnvReader("java.lang.System.getProperty"),
    )
}

DEFAULT_IMPORTS = {
    name: f"{package}.{name}"
    for package, names in (
        ("java.lang", ("String", "System", "Long", "Integer", "StringBuilder", "StringBuffer")),
        ("java.net", ("URI", "URL", "URLEncoder", "URLDecoder", "HttpURLConnection")),
        ("org.apache.http.client.methods", tuple(f"Http{v.title()}" for v in _UPPER)),
        ("java.net.http", ("HttpRequest",)),
        ("java.util", ("Objects", "List", "Set", "Arrays")),
        ("java.util.stream", ("Stream",)),
        # a snippet's library classes and annotations, where one library owns the name
        # (an import of another library's class of the name wins)
        ("okhttp3", ("Request", "HttpUrl")),
        ("org.springframework.web.client", ("RestTemplate", "RestClient")),
        ("org.springframework.web.reactive.function.client", ("WebClient",)),
        ("org.springframework.web.util", ("UriComponentsBuilder",)),
        ("org.springframework.http", ("HttpMethod",)),
        ("retrofit2.http", (*_UPPER, "HTTP")),
        ("feign", ("RequestLine",)),
        (_SPRING, ("RequestMapping", "RequestMethod", *(f"{v.title()}Mapping" for v in _UPPER))),
        (_EXCHANGE, ("HttpExchange", *(f"{v.title()}Exchange" for v in _UPPER))),
    )
    for name in names
}

MATCHERS = frozenset(
    {
        "startsWith",
        "endsWith",
        "contains",
        "matches",
        "equals",
        "equalsIgnoreCase",
        "isEqualTo",
        "assertEquals",
        "assertNotEquals",
        "assertThat",
        "assertTrue",
        "assertFalse",
        "equalTo",
        "withPath",
        "expect",
        "verify",
        "urlEqualTo",
        "urlPathEqualTo",
        "urlMatching",
        "urlPathMatching",
        "compile",
        "split",
        "replace",
        "indexOf",
        "removePrefix",
        "removeSuffix",
        "requestTo",
        "requestToUriTemplate",
        "containsString",
        "hasPath",
    }
)


def rows(
    language: str,
    *,
    clients: tuple[Client, ...] = (),
    factories: tuple[Factory, ...] = (),
    links: tuple[Link, ...] = (),
    transforms: dict[str, str] | None = None,
    route_callees: frozenset[str] = frozenset(),
    mocks: tuple[str, ...] = (),
    fluent: frozenset[str] = frozenset(),
    default_imports: dict[str, str] | None = None,
) -> Knowledge:
    """The shared JVM rows with a language's own added."""
    return Knowledge(
        language=language,
        factories={f.qualified: f for f in (*FACTORIES, *factories)},
        clients=[*CLIENTS, *clients],
        links=[*LINKS, *links],
        fluent_kinds=frozenset(
            {
                "jdk.request",
                "okhttp.request",
                "okhttp.url",
                "spring.uri",
                "spring.rest",
                "spring.web",
                "feign",
                "feign.template",
                "retrofit",
                "java.text",
                "java.url",
                "java.connection",
                "apache.request",
                "apache.uri",
                "jaxrs",
                "unirest",
                "micronaut.request",
            }
        )
        | fluent,
        binders=frozenset({"target", "create"}),
        env_readers=ENV_READERS,
        transforms={**TRANSFORMS, **(transforms or {})},
        mutators={"put": "set", "add": "append", "addAll": "extend", "putAll": "merge"},
        header_setters=frozenset({"header", "addHeader", "setHeader"}),
        self_names=frozenset({"this"}),
        constructors=frozenset({"<init>"}),
        default_imports={**DEFAULT_IMPORTS, **(default_imports or {})},
        # fully qualified names written in code (`java.net.URLEncoder.encode(s, cs)`)
        modules=frozenset({"java", "javax", "jakarta", "kotlin", "okhttp3", "org", "com", "io"}),
        mocks=(
            "com.github.tomakehurst.wiremock",
            "okhttp3.mockwebserver",
            "org.mockserver",
            "org.mockito",
            "io.mockk",
            "org.springframework.test",
            "io.restassured",
            "mockwebserver3",
            *mocks,
        ),
        route_callees=frozenset({"route", "routing"}) | route_callees,
        routers=frozenset({"app", "router", "javalin", "routes", "route", "server"}),
        matchers=MATCHERS,
        request_marks=frozenset({*_UPPER, "HTTP", "RequestLine", "HttpExchange"})
        | frozenset(f"{v.title()}Exchange" for v in _UPPER),
        route_marks=frozenset({"RequestMapping", "Path"})
        | frozenset(f"{v.title()}Mapping" for v in _UPPER)
        | frozenset(v.title() for v in _UPPER),
        client_marks=frozenset({"FeignClient", "RegisterRestClient", "Client", "HttpExchange"}),
        server_marks=frozenset({"RestController", "Controller"}),
        # Spring's `HttpMethod.PATCH` and `RequestMethod.DELETE` name their verb, imported
        # or not (a snippet)
        constants={
            f"{kind}.{verb}": verb for kind in ("HttpMethod", "RequestMethod") for verb in _UPPER
        },
        types_by_name=True,
        implicit_this=True,
        scope="directory",
    )
