"""What a language contributes to extraction: how its strings look, and hooks where it differs.

A dialect sets its token pattern (named group `c` for a comment, `x` for text
that is skipped; any other match is a string literal that `literal` turns into
a Lit, or the opener of a construct that may span lines, whose end a row of
`spans` finds: see languages/lexer.py), what interpolation looks like inside
strings, and its concatenation operator. Languages whose
calls do not look like `f(url, ...)` override hooks: shell and PowerShell read
the command around a word, YAML and JSON the mapping around a value, PHP the
curl options after a `curl_init`. The stages receive the dialect as an object
and never import a language module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, cast

from apispec.lint.functions import Definitions, FunctionDef, find_functions
from apispec.lint.languages import lexer
from apispec.lint.languages.lexer import Span
from apispec.lint.scan import Lit, Source, split_interpolations

if TYPE_CHECKING:
    from apispec.lint.calls.assemble import CallInfo
    from apispec.lint.candidates import Chain
    from apispec.lint.reference import QueryValue


class Dialect:
    """The generic language: quoted strings, `${x}`/`{x}` holes, `+` concatenation."""

    name = "generic"
    token_re: re.Pattern[str] = re.compile(
        r"(?P<dq>\"[^\"\\\n]*+(?:\\.[^\"\\\n]*+)*+\")|(?P<sq>'[^'\\\n]*+(?:\\.[^'\\\n]*+)*+')|(?P<x>[\"'][^\n]*)"
    )
    spans: Mapping[str, Span] = lexer.spans()  # token groups opening a construct spanning lines
    interp_re: re.Pattern[str] | None = re.compile(
        r"\$\{(?:[^}\n$]|\$(?!\{))*\}|\{\{(?:[^}\n{]|\{(?!\{))*\}\}|\{[^{}\n]*\}"
    )
    concat_re: re.Pattern[str] | None = re.compile(r"\s*\+\s*")
    escape_style = "backslash"
    # a variable, field, call or element joined to a literal; a number (`"/devices/" + 2048`)
    operand_re = re.compile(
        # a call's arguments may hold one more call: `Uri.EscapeDataString(string.Join(...))`,
        # and line breaks (`url.PathEscape(\n    id)`); a number joined to a literal
        # (`"/devices/" + 2048`)
        r"\$?[A-Za-z_][\w]*(?:(?:\.|->|::|\?\.)[A-Za-z_]\w*|\[[^\]]{0,60}\]"
        r"|\((?:[^()]|\([^()]{0,80}\)){0,120}\))*"
        r"|\d+(?![\w.])"
    )
    full_urls_only = False  # a generic scanner reports only full /api/v2 URLs
    decorators = True  # `@name(...)` at a line's start decorates (Ruby: an instance variable)
    uri_templates = False  # `{var}` in a URL takes the call's last arguments (Spring)
    builder_calls = False  # request builders chain the method after the URL (Java, OkHttp)
    type_brackets = (
        ""  # how type arguments before a call's bracket look: `<>` (`get<T>(`), `[]` (Go)
    )
    command_calls = False  # calls are commands with words as arguments (shell, PowerShell)
    shorthand_keys = False  # `{ filter }` in a mapping is the entry `filter: filter` (JavaScript)
    # Token groups of strings that may hold code (`${...}`), and what opens such code:
    # `holds_code` is asked only of those, the hot loop stays as it was for the rest.
    code_groups: frozenset[str] = frozenset()
    code_opener = "${"
    definitions: Definitions | None = None  # how the language defines functions

    def literal(self, m: re.Match[str]) -> Lit | None:
        body = m.group()
        if len(body) < 2:
            return None
        start = m.start() + 1
        return Lit(
            m.start(),
            m.end(),
            split_interpolations(body[1:-1], start, self.interp_re, self.escape_style),
        )

    def scan(self, text: str, pos: int, endpos: int) -> tuple[list[Lit], list[tuple[int, int]]]:
        return lexer.scan(self, text, pos, endpos)

    def spanned(
        self, kind: str, m: re.Match[str], start: int, end: int, stop: int, span: Span
    ) -> Lit | None:
        """The literal of a construct a span closed: content text[start:end], token m.start():stop."""
        return lexer.span_literal(m, start, end, stop, span)

    def holds_code(self, m: re.Match[str]) -> bool:
        """Whether a string token may hold code with strings of its own (cheap test)."""
        return False

    def with_code(self, text: str, m: re.Match[str], endpos: int) -> Lit | None:
        """The string at `m` with its code holes (`${...}`), read to its real end; None: as usual."""
        return None

    # -- hooks ---------------------------------------------------------------

    def functions(self, source: Source) -> list[FunctionDef]:
        """The source's own function definitions (for helpers and returned values), once."""
        if self.definitions is None:
            return []
        found = cast("list[FunctionDef] | None", source.memo.get("functions"))
        if found is None:
            found = source.memo["functions"] = find_functions(source, self.definitions)
        return found

    def use_pattern(self, var: str) -> str:
        """A regex for a later use of variable `var` (assigned an API path).

        Not a member of something else (`.url(url)`: the method `url` is no use).
        """
        return r"(?<![\w$.])" + re.escape(var) + r"(?![\w])(?!\s*(?:=[^=]|:=))"

    def command_context(self, source: Source, chain: Chain) -> CallInfo | None:
        """The call around `chain` where it is not a bracketed call (a command, a mapping)."""
        return None

    def assigned_by_block(self, source: Source, start: int) -> str | None:
        """The variable a block statement holding `start` assigns its value to, if any
        (PowerShell's `$path = switch ($k) { 'a' { "/x" } }`)."""
        return None

    def in_markup(self, source: Source, start: int) -> bool:
        """True where a string is markup, not code (a JSX attribute): never a call."""
        return False

    def call_query(self, source: Source, info: CallInfo) -> list[QueryValue]:
        """Query values a language's clients take in their own way (Ruby: a hash after the path)."""
        return []

    def method_nearby(self, source: Source, closer: int) -> str | None:
        """A method set by statements after the call (PHP's curl_setopt)."""
        return None


class GenericDialect(Dialect):
    """Unknown languages: quoted full URLs with /api/v2 only."""

    full_urls_only = True
