"""The query a client takes as the mapping after the path, with no key to say so.

Ruby's Faraday (`conn.get('devices', limit: 10)`, `conn.get('x', params)`) and
PHP's Laravel Http (`Http::get($url, ['filter' => $f])`) send the second
argument of a GET, DELETE or HEAD as its query. Other clients take an options
mapping there, whose `params`/`query` entry is the query (RestClient's
`RestClient.get(url, headers)` with `params: {...}`, HTTParty's `query:`,
Guzzle's `'query' => [...]`); the option names themselves are never query
parameters. Dialects whose clients do this call `mapping_after_path` from
their `call_query` hook.
"""

from __future__ import annotations

import re

from apispec.lint.details.query import entries, mapping_of_variable, parse_mapping
from apispec.lint.receivers import argument_end
from apispec.lint.reference import QueryValue
from apispec.lint.scan import Source

# Keys of a client's options mapping, never query parameters (HTTParty, RestClient,
# Faraday, Guzzle, Laravel, Symfony HttpClient).
OPTION_KEYS = frozenset(
    [
        "headers",
        "body",
        "json",
        "form_params",
        "multipart",
        "timeout",
        "connect_timeout",
        "open_timeout",
        "read_timeout",
        "format",
        "auth",
        "auth_bearer",
        "basic_auth",
        "digest_auth",
        "verify",
        "ssl",
        "allow_redirects",
        "http_errors",
        "content_type",
        "accept",
        "authorization",
        "user",
        "password",
        "payload",
        "request",
    ]
)
_MAPPING_START = re.compile(
    r"\s*(?:\{|\[|array\(|:?[A-Za-z_]\w*:\s|['\":]?[\w.-]+['\"]?\s*=>)", re.I
)
_VARIABLE = re.compile(r"[@$]?[A-Za-z_]\w*(?=\s*[),]|\s*$)", re.M)
_NESTED = ("params", "query")
_NESTED_KEY = re.compile(r"['\"]?\b(?:params|query)['\"]?(?::\s*|\s*=>\s*)(?:\{|\[|array\()", re.I)


def mapping_after_path(source: Source, opener: int, closer: int) -> list[QueryValue]:
    """The query values of the mapping that is the second argument of the call at `opener`."""
    text = source.text
    first = source.skip_space(opener + 1)
    comma = argument_end(source, first, closer)
    if comma >= closer or _MAPPING_START.match(text, first, comma):
        return []  # no second argument, or the path is a value of keyword arguments
    pos = source.skip_space(comma + 1)
    if _MAPPING_START.match(text, pos, closer):
        if text[pos] in "{[" or text.startswith(("array(", "ARRAY("), pos):
            values = parse_mapping(source, text.index("(", pos) if text[pos] in "aA" else pos)
        else:
            values = entries(source, pos, closer)
    elif (m := _VARIABLE.match(text, pos, closer)) is not None:
        nested = _nested(source, m.group(), opener)
        if nested:  # an options mapping: its params are the query
            return nested
        values = mapping_of_variable(source, m.group(), opener)
    else:
        return []
    return [v for v in values if v.name not in OPTION_KEYS and v.name not in _NESTED]


def _nested(source: Source, var: str, before: int) -> list[QueryValue]:
    """The `params:`/`query:` mapping inside the options mapping `var` holds."""
    text = source.text
    assign = re.compile(r"(?<![\w@$])" + re.escape(var) + r"\s*=\s*(?=[\[{]|array\()")
    last = None
    for m in assign.finditer(text, max(source.pos, before - 3000), before):
        if source.token_at(m.start()) is None:
            last = m
    if last is None:
        return []
    opener = text.index("(", last.end()) if text[last.end()] in "aA" else last.end()
    closer = source.matching_closer(opener)
    for key in _NESTED_KEY.finditer(text, opener, max(opener, closer)):
        if source.token_at(key.start()) is None or text[key.start()] in "'\"":
            return parse_mapping(source, key.end() - 1)
    return []
