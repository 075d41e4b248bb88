"""Example requests and code samples of one operation, built from its OpenAPI operation.

One `SampleRequest` per operation is derived from the operation object that
`build_operation` made (its parameters' schemas and examples, its request
body, its success answer), so the docs, the OpenAPI document's
`x-codeSamples` and the tests all show and run the same request. It is then
written as curl, Python `requests` and PowerShell `Invoke-RestMethod` code.

Decisions (docs/reference-docs.md): samples call the OpenAPI document's
default server; secrets come from environment variables (`API_TOKEN`,
`API_USERNAME`, `API_PASSWORD`), never literals, as a linter of client code
wants; path parameters take the example value of their parameter; list
operations send `limit` and the registry's first filter example; a body the
spec does not show is sent as `{}` and said so.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from apispec.registry.model import Endpoint

SAMPLE_BASE_URL = "http://localhost:1616/api/v2"
TOKEN_VARIABLE = "API_TOKEN"
SAMPLE_LIMIT = 50
# Body fields whose value a script must not hold literally: read from the environment.
_SECRET_FIELD = re.compile(r"user(name)?|password|secret|token|key", re.IGNORECASE)
LANGUAGES = (
    ("curl", "Shell", "curl"),
    ("python", "Python", "Python (requests)"),
    ("powershell", "PowerShell", "PowerShell (Invoke-RestMethod)"),
)


class Env(str):
    """A value the sample reads from the environment variable of this name."""


@dataclass(frozen=True)
class SampleRequest:
    """The request of an operation's samples, relative to the API base URL."""

    method: str
    path: str
    path_values: dict[str, str]
    query: tuple[tuple[str, str | int], ...] = ()
    body: dict[str, Any] | None = None
    auth: bool = True
    success: str = "200"
    body_shown: bool = True
    notes: tuple[str, ...] = field(default=())

    @property
    def url_path(self) -> str:
        path = self.path
        for name, value in self.path_values.items():
            path = path.replace("{" + name + "}", quote(value, safe=""))
        return path

    @property
    def query_string(self) -> str:
        return "&".join(f"{k}={quote(str(v), safe='')}" for k, v in self.query)

    def url(self, base: str = SAMPLE_BASE_URL) -> str:
        query = self.query_string
        return f"{base}{self.url_path}" + (f"?{query}" if query else "")


def _example(schema: dict[str, Any]) -> Any:
    for key in ("example", "default"):
        if key in schema:
            return schema[key]
    if schema.get("examples"):
        return schema["examples"][0]
    return None


def env_name(field_name: str) -> str:
    return "API_" + re.sub(r"[^A-Za-z0-9]+", "_", field_name).upper()


def sample_request(endpoint: Endpoint, operation: dict[str, Any]) -> SampleRequest:
    """The operation's example request, from its parameters, body and success answer."""
    values: dict[str, str] = {}
    query: list[tuple[str, str | int]] = []
    for param in operation.get("parameters", ()):
        schema = param.get("schema", {})
        if param["in"] == "path":
            values[param["name"]] = str(param.get("example", _example(schema) or "1"))
        elif param["name"] == "limit":
            query.append(("limit", min(SAMPLE_LIMIT, schema.get("maximum", SAMPLE_LIMIT))))
        elif param["name"] == "filter" and _example(schema) is not None:
            query.append(("filter", str(_example(schema))))
    body: dict[str, Any] | None = None
    shown = True
    request_body = operation.get("requestBody")
    if request_body is not None:
        schema = request_body["content"]["application/json"]["schema"]
        properties = schema.get("properties", {})
        body = {
            name: Env(env_name(name)) if _SECRET_FIELD.fullmatch(name) else f"example {name}"
            for name in properties
        }
        shown = bool(properties)
    success = next(s for s in operation["responses"] if s.startswith("2"))
    notes = () if shown else ("the spec does not show this body; the sample sends `{}`",)
    return SampleRequest(
        endpoint.method,
        endpoint.path,
        values,
        tuple(query),
        body,
        endpoint.auth,
        success,
        shown,
        notes,
    )


# -- writing the request as code ---------------------------------------------------


def _sh_double(text: str) -> str:
    """Text inside shell double quotes: `$`, backquote, `"` and backslash escaped."""
    return re.sub(r'([$`"\\])', r"\\\1", text)


def curl(request: SampleRequest, base: str = SAMPLE_BASE_URL) -> str:
    method = "" if request.method == "GET" else f"-X {request.method} "
    lines = [f'curl -sS {method}"{_sh_double(request.url(base))}"']
    if request.auth:
        lines.append(f'-H "Authorization: Bearer ${TOKEN_VARIABLE}"')
    if request.body is not None:
        lines.append('-H "Content-Type: application/json"')
        parts = [
            f'\\"{_sh_double(k)}\\": \\"${v}\\"'
            if isinstance(v, Env)
            else _sh_double(json.dumps({k: v})[1:-1])
            for k, v in request.body.items()
        ]
        lines.append(f'-d "{{{", ".join(parts)}}}"')
    return " \\\n  ".join(lines)


def _py_literal(value: Any) -> str:
    if isinstance(value, Env):
        return f'os.environ["{value}"]'
    return json.dumps(value) if isinstance(value, str) else repr(value)


def python(request: SampleRequest, base: str = SAMPLE_BASE_URL) -> str:
    uses_env = request.auth or any(isinstance(v, Env) for v in (request.body or {}).values())
    lines = ["import os", ""] if uses_env else []
    lines += ["import requests", "", f'BASE_URL = "{base}"']
    if request.auth:
        lines.append(f'TOKEN = os.environ["{TOKEN_VARIABLE}"]')
    lines += ["", f"response = requests.{request.method.lower()}("]
    lines.append(f'    f"{{BASE_URL}}{_py_fstring(request.url_path)}",')
    if request.auth:
        lines.append('    headers={"Authorization": f"Bearer {TOKEN}"},')
    if request.query:
        pairs = ", ".join(f"{json.dumps(k)}: {_py_literal(v)}" for k, v in request.query)
        lines.append(f"    params={{{pairs}}},")
    if request.body is not None:
        pairs = ", ".join(f"{json.dumps(k)}: {_py_literal(v)}" for k, v in request.body.items())
        lines.append(f"    json={{{pairs}}},")
    lines += ["    timeout=30,", ")", "response.raise_for_status()"]
    if request.success.startswith("2") and request.success not in ("204", "2XX"):
        lines.append("print(response.json())")
    else:
        lines.append('print(response.status_code, response.headers.get("Location"))')
    return "\n".join(lines)


def _py_fstring(text: str) -> str:
    return text.replace("{", "{{").replace("}", "}}").replace("\\", "\\\\").replace('"', '\\"')


def _ps_single(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _ps_value(value: Any) -> str:
    if isinstance(value, Env):
        return f"$env:{value}"
    if isinstance(value, bool):
        return "$true" if value else "$false"
    if isinstance(value, int):
        return str(value)
    return _ps_single(str(value))


def powershell(request: SampleRequest, base: str = SAMPLE_BASE_URL) -> str:
    lines = [f"$BaseUrl = {_ps_single(base)}"]
    call = [f"-Method {request.method.capitalize()}"]
    path = request.url_path.replace("`", "``").replace('"', '`"').replace("$", "`$")
    call.append(f'-Uri "$BaseUrl{path}"')
    if request.auth:
        lines.append(f'$Headers = @{{ Authorization = "Bearer $env:{TOKEN_VARIABLE}" }}')
        call.append("-Headers $Headers")
    if request.query:
        pairs = "; ".join(f"{k} = {_ps_value(v)}" for k, v in request.query)
        lines.append(f"$Query = @{{ {pairs} }}")
        call.append("-Body $Query")
    if request.body is not None:
        pairs = "; ".join(f"{_ps_single(k)} = {_ps_value(v)}" for k, v in request.body.items())
        lines.append(f"$Body = @{{{f' {pairs} ' if pairs else ''}}} | ConvertTo-Json")
        call.append("-ContentType 'application/json' -Body $Body")
    lines.append(f"$Response = Invoke-RestMethod {' '.join(call)}")
    lines.append("$Response")
    return "\n".join(lines)


RENDERERS = {"curl": curl, "python": python, "powershell": powershell}


def code_samples(request: SampleRequest, base: str = SAMPLE_BASE_URL) -> list[dict[str, str]]:
    """`x-codeSamples` entries (the shape Redoc and Scalar read): lang, label, source."""
    return [
        {"lang": lang, "label": label, "source": RENDERERS[key](request, base)}
        for key, lang, label in LANGUAGES
    ]
