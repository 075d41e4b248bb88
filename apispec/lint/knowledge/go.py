"""Go: net/http, resty (and imroc/req, its look-alike); os.Getenv, flag; fmt, strings, net/url.

Qualified names are `<import path>.<name>` (`net/http.NewRequest`), as Go imports
name packages. The files of one directory are one package: they share a scope.
"""

from __future__ import annotations

from apispec.lint.knowledge import NOWHERE, VERBS, Builder, Client, EnvReader, Factory, Knowledge

# resty's major versions and imroc/req, whose clients are built and used the same way
_RESTY = ("github.com/go-resty/resty/v2", "gopkg.in/resty.v1", "resty.dev/v3")
_REQ = ("github.com/imroc/req/v3", "github.com/imroc/req")
_METHODS = {verb: verb.upper() for verb in VERBS}


def _fluent(kind: str) -> list[Builder]:
    """The methods of a resty-like client or request that set what its requests carry."""
    on = "object:" + kind
    return [
        Builder(on, ("SetBaseURL", "SetHostURL", "SetBaseUrl"), "base"),
        Builder(on, ("SetQueryParam", "AddQueryParam"), "params", "entry"),
        Builder(
            on, ("SetQueryParams", "SetQueryParamsFromValues", "AddQueryParams"), "params", "merge"
        ),
        Builder(on, ("SetHeader", "SetCommonHeader", "SetHeaderVerbatim"), "headers", "entry"),
        Builder(on, ("SetHeaders", "SetCommonHeaders"), "headers", "merge"),
        Builder(on, ("R", "NewRequest", "Clone", "C")),
    ]


def _sends(kind: str) -> list[Client]:
    on = "object:" + kind
    return [
        Client(on, ("Get", "Post", "Put", "Patch", "Delete", "Head", "Options"), (0, "")),
        Client(on, ("Execute",), (1, ""), (0, "")),
    ]


KNOWLEDGE = Knowledge(
    language="go",
    factories={
        f.qualified: f
        for f in (
            Factory("net/http.Client", "net/http"),
            *(
                Factory(f"{path}.{name}", "resty")
                for path in _RESTY
                for name in ("New", "NewWithClient", "Client")
            ),
            *(
                Factory(f"{path}.{name}", "resty")
                for path in _REQ
                for name in ("C", "NewClient", "Client")
            ),
        )
    },
    clients=[
        Client("net/http", ("Get", "Head", "Post"), (0, "")),
        Client("net/http", ("PostForm",), (0, ""), "POST"),
        Client("net/http", ("NewRequest",), (1, ""), (0, "")),
        Client("net/http", ("NewRequestWithContext",), (2, ""), (1, "")),
        Client("object:net/http", ("Get", "Head", "Post"), (0, "")),
        Client("object:net/http", ("PostForm",), (0, ""), "POST"),
        *_sends("resty"),
    ],
    builders=[*_fluent("resty")],
    fluent={"object:resty": ("Set", "Enable", "Disable", "Add", "Force", "Expect", "With")},
    env_readers={
        r.qualified: r
        for r in (
            EnvReader("os.Getenv", (0, ""), NOWHERE),
            EnvReader("os.LookupEnv", (0, ""), NOWHERE),
            EnvReader("flag.String", (0, ""), NOWHERE),  # the command line names it
            EnvReader("github.com/spf13/viper.GetString", (0, ""), NOWHERE),
        )
    },
    transforms={
        "fmt.Sprintf": "format:go",
        "net/url.Values": "dict",  # `url.Values{}`: a map type, filled by Set and Add
        "net/http.Header": "dict",
        "fmt.Sprint": "identity",
        "net/url.PathEscape": "identity",
        "net/url.QueryEscape": "identity",
        "net/url.Parse": "identity",
        "net/url.URL": "url_fields",  # `url.URL{Scheme: ..., Host: ..., Path: ...}`
        "net/url.ParseRequestURI": "identity",
        "strings.TrimRight": "identity",
        "strings.TrimSuffix": "identity",
        "strings.TrimLeft": "identity",
        "strings.TrimPrefix": "identity",
        "strings.TrimSpace": "identity",
        "strconv.Itoa": "identity",
        "strconv.FormatInt": "identity",
        "strconv.Quote": "quoted",
        "string": "identity",
        "make": "identity",
        "append": "append",
        "strings.Join": "join_args",
        "path.Join": "path_join",
        "net/url.JoinPath": "path_join",
        ".JoinPath": "path_join_receiver",
        ".Parse": "resolve_receiver",  # `base.Parse(ref)` on a *url.URL
        ".ResolveReference": "resolve_receiver",
        ".Encode": "encode_receiver",
        ".String": "receiver",
        ".Query": "empty_mapping",
    },
    mutators={"Set": "set", "Add": "set"},
    header_setters=frozenset({"Set", "Add"}),
    header_holders=("Header",),
    default_imports={
        name: module
        for module in ("net/http", "net/url", "fmt", "strings", "strconv", "os", "path", "flag")
        for name in (module.rsplit("/", 1)[-1],)
    }
    | {"resty": _RESTY[0]},
    url_parts={"RawQuery": "query", "Path": "path"},
    request_url="URL",
    constants={
        **{f"net/http.Method{name.capitalize()}": verb for name, verb in _METHODS.items()},
        **{
            f"{path}.Method{name.capitalize()}": verb
            for path in _RESTY
            for name, verb in _METHODS.items()
        },
    },
    scope="directory",
    class_calls=False,
    mocks=(
        "net/http/httptest",
        "github.com/jarcoal/httpmock",
        "gopkg.in/h2non/gock.v1",
        "github.com/h2non/gock",
    ),
    routers=frozenset(
        {
            "r",
            "e",
            "g",
            "router",
            "mux",
            "app",
            "api",
            "group",
            "engine",
            "srv",
            "server",
            "rg",
            "v1",
            "v2",
        }
    ),
    route_callees=frozenset({"HandleFunc", "Handle", "Route", "Mount", "Group", "Any", "Match"}),
    matchers=frozenset(
        {
            "HasPrefix",
            "HasSuffix",
            "Contains",
            "TrimPrefix",
            "TrimSuffix",
            "CutPrefix",
            "CutSuffix",
            "EqualFold",
            "MatchString",
            "Match",
            "Compile",
            "MustCompile",
            "Replace",
            "ReplaceAll",
            "Index",
            "Split",
            "Cut",
        }
    ),
)
