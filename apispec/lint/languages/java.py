"""Java, Kotlin and Groovy: String.format, text blocks, HttpRequest builders."""

from __future__ import annotations

import re

from apispec.lint.languages import lexer
from apispec.lint.languages.dialect import Dialect
from apispec.lint.languages.lexer import Body, Closer
from apispec.lint.scan import Lit, split_interpolations

# `${x}` and `$x` (Kotlin, Groovy), String.format's `%s`, MessageFormat's `{0}`, and URI
# template variables `{id}` (Spring, Feign, Retrofit, OkHttp, JAX-RS all expand them).
_HOLES = re.compile(
    r"\$\{(?:[^}\n$]|\$(?!\{))*\}|\$[A-Za-z_]\w*|%[sd]|\{\d+\}|\{[A-Za-z_][\w.-]*\}"
)


class JavaDialect(Dialect):
    name = "java"
    builder_calls = True
    uri_templates = True
    type_brackets = "<>"  # Kotlin's `rest.getForObject<List<Device>>(url)`, `client.get<T>(url)`
    token_re = re.compile(
        r"/(?:(?P<c>/[^\n]*)|(?P<comment>\*))"
        r"|\"(?:(?P<block>\"\")|(?P<s>[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+\")|(?P<xd>[^\n]*))"
        r"|(?P<x>'(?:[^'\\\n]*+(?:\\.[^'\\\n]*+)*+'|[^\n]*))"
    )
    spans = lexer.spans(
        comment=Closer("*/", comment=True),
        # a text block (Java) or raw string (Kotlin, Groovy): `\"""` does not end it
        block=Body(
            re.compile(r"(?:[^\"\\]++|\\[\s\S]|\"(?!\"\"))*+\"\"\""), 3, "", _HOLES, "backslash"
        ),
    )

    def literal(self, m: re.Match[str]) -> Lit | None:
        start = m.start() + 1
        content = m.group()[1:-1]
        return Lit(m.start(), m.end(), split_interpolations(content, start, _HOLES, "backslash"))
