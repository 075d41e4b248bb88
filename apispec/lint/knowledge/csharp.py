"""C#: HttpClient, HttpRequestMessage, RestSharp, Flurl, Refit; string.Format and Join.

Types are used by their own names (a `using` opens a namespace), so rows name them
bare: `HttpClient`, `RestRequest`. A request object (`new HttpRequestMessage(method,
url)`, `new RestRequest(resource, method)`) is the request: the client that sends it
later adds nothing the code shows. Flurl sends from the URL itself
(`url.AppendPathSegment("x").GetJsonAsync<T>()`): its verbs take their URL from the
object they are called on.
"""

from __future__ import annotations

import re

from apispec.lint.knowledge import NOWHERE, RECEIVER, Client, EnvReader, Factory, Knowledge

# HttpClient's verb methods, by the method they send
_HTTPCLIENT = {
    "GET": (
        "GetAsync",
        "GetStringAsync",
        "GetByteArrayAsync",
        "GetStreamAsync",
        "GetFromJsonAsync",
        "GetFromJsonAsAsyncEnumerable",
    ),
    "POST": ("PostAsync", "PostAsJsonAsync"),
    "PUT": ("PutAsync", "PutAsJsonAsync"),
    "PATCH": ("PatchAsync", "PatchAsJsonAsync"),
    "DELETE": ("DeleteAsync", "DeleteFromJsonAsync"),
}

# Flurl's verbs on a URL (a string or a `Url`)
_FLURL = {
    "GET": (
        "GetAsync",
        "GetJsonAsync",
        "GetStringAsync",
        "GetStreamAsync",
        "GetBytesAsync",
        "DownloadFileAsync",
    ),
    "POST": (
        "PostAsync",
        "PostJsonAsync",
        "PostStringAsync",
        "PostUrlEncodedAsync",
        "PostMultipartAsync",
    ),
    "PUT": ("PutAsync", "PutJsonAsync", "PutStringAsync"),
    "PATCH": ("PatchAsync", "PatchJsonAsync", "PatchStringAsync"),
    "DELETE": ("DeleteAsync",),
    "HEAD": ("HeadAsync",),
    "OPTIONS": ("OptionsAsync",),
}

_VERB_NAMES = ("Get", "Post", "Put", "Patch", "Delete", "Head", "Options")

KNOWLEDGE = Knowledge(
    language="csharp",
    factories={
        f.qualified: f
        for f in (
            Factory("HttpClient", "HttpClient", (-1, "BaseAddress"), NOWHERE, NOWHERE, "rfc3986"),
            Factory("FlurlClient", "FlurlClient", (0, "BaseUrl"), NOWHERE, NOWHERE, "slash"),
        )
    },
    clients=[
        *(
            Client("object:HttpClient", names, (0, "requestUri"), verb)
            for verb, names in _HTTPCLIENT.items()
        ),
        Client("object:HttpClient", ("SendAsync", "Send"), NOWHERE, "GET"),
        # an HttpClient injected or made elsewhere (a field of unknown type, a snippet)
        *(
            Client("object:*", names, (0, "requestUri"), verb)
            for verb, names in _HTTPCLIENT.items()
        ),
        Client("", ("HttpRequestMessage",), (1, "requestUri"), (0, "method")),
        Client("", ("RestRequest",), (0, "resource"), (1, "method")),
        # Refit: an interface method's attribute says what it requests
        *(Client("", ("@" + verb,), (0, ""), verb.upper()) for verb in _VERB_NAMES),
        *(Client("text", names, RECEIVER, verb) for verb, names in _FLURL.items()),
        Client("text", ("SendAsync", "SendJsonAsync"), RECEIVER, (0, "verb")),
    ],
    env_readers={
        r.qualified: r
        for r in (
            EnvReader("Environment.GetEnvironmentVariable", (0, ""), NOWHERE),
            EnvReader("System.Environment.GetEnvironmentVariable", (0, ""), NOWHERE),
        )
    },
    transforms={
        **{
            f"{owner}.{name}": kind
            for owner in ("string", "String", "System.String")
            for name, kind in (("Format", "format:dotnet"), ("Join", "join_first"))
        },
        **{
            f"{owner}.{name}": "identity"
            for owner in ("Uri", "System.Uri", "WebUtility", "HttpUtility", "System.Net.WebUtility")
            for name in (
                "EscapeDataString",
                "EscapeUriString",
                "UnescapeDataString",
                "UrlEncode",
                "UrlPathEncode",
                "UrlDecode",
            )
        },
        "Uri": "uri",
        "HttpMethod": "identity",
        "AuthenticationHeaderValue": "words",
        "QueryHelpers.AddQueryString": "add_query",
        "Url.Combine": "segments",
        ".TrimStart": "trim_start",
        ".TrimEnd": "trim_end",
        ".Trim": "trim",
        ".AppendPathSegment": "append_segments",
        ".AppendPathSegments": "append_segments",
        ".SetQueryParam": "query_param",
        ".SetQueryParams": "query_param",
        ".AppendQueryParam": "query_param",
        **{
            "." + name: "receiver"
            for name in (
                "ToString",
                "ToLower",
                "ToLowerInvariant",
                "ToUpperInvariant",
                "WithOAuthBearerToken",
                "WithHeader",
                "WithHeaders",
                "WithBasicAuth",
                "WithTimeout",
                "WithCookie",
                "WithCookies",
                "WithAutoRedirect",
                "AllowAnyHttpStatus",
                "AllowHttpStatus",
                "ToUri",
            )
        },
    },
    mutators={"Add": "add", "AddRange": "extend", "Insert": "append", "TryAdd": "set"},
    header_setters=frozenset({"Add", "TryAddWithoutValidation", "AddHeader", "WithHeader"}),
    header_holders=("Headers", "DefaultRequestHeaders"),
    query_setters=frozenset({"AddQueryParameter", "AddParameter", "AddOrUpdateParameter"}),
    auth_setters={"WithOAuthBearerToken": "Bearer"},
    constants={
        **{f"HttpMethod.{verb}": verb.upper() for verb in _VERB_NAMES},
        **{f"System.Net.Http.HttpMethod.{verb}": verb.upper() for verb in _VERB_NAMES},
        **{f"Method.{verb}": verb.upper() for verb in _VERB_NAMES},
        **{f"Method.{verb.upper()}": verb.upper() for verb in _VERB_NAMES},
    },
    types_by_name=True,
    implicit_this=True,
    self_names=frozenset({"this"}),
    constructors=frozenset({".ctor"}),
    modules=frozenset(
        {
            "string",
            "String",
            "System",
            "Uri",
            "Environment",
            "HttpMethod",
            "Method",
            "QueryHelpers",
            "WebUtility",
            "HttpUtility",
            "Url",
        }
    ),
    env_pattern=re.compile(r"Environment\.GetEnvironmentVariable\(\s*\"([A-Za-z_]\w*)\"\s*\)"),
    mocks=("WireMock", "Moq", "NSubstitute", "RichardSzalay.MockHttp"),
    routers=frozenset({"app", "builder", "endpoints", "group", "api", "routes", "web"}),
    route_callees=frozenset(
        {
            "MapGet",
            "MapPost",
            "MapPut",
            "MapPatch",
            "MapDelete",
            "MapMethods",
            "Map",
            "MapGroup",
            "MapFallback",
            "When",
            "Expect",
        }
    ),
    matchers=frozenset(
        {
            "StartsWith",
            "EndsWith",
            "Contains",
            "Equals",
            "Equal",
            "NotEqual",
            "IsMatch",
            "Match",
            "Matches",
            "Replace",
            "Split",
            "IndexOf",
            "WithPath",
            "WithUrl",
            "UsingGet",
            "UsingPost",
            "Substring",
            "Remove",
        }
    ),
)
