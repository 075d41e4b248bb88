"""Function definitions of a scanned source: names, parameters, bodies and what they return.

Two later steps need to know the file's own functions: helper inference (a
function whose body joins its path parameter onto the API's base is an HTTP
helper, and its call sites are calls) and value resolution (a filter built by
`def build_filter(...): return f'...'` is checked where it is written). A
dialect names its definition syntax with a `Definitions` row; the finders here
read the parameter list between its brackets and the body as braces or
indentation delimit it, skipping strings and comments as every stage does.
"""

from __future__ import annotations

import re
from typing import Literal, NamedTuple

from apispec.lint.patterns import lazy
from apispec.lint.scan import Source

# Words that look like a call or definition name but are statements.
KEYWORDS = frozenset(
    [
        "if",
        "for",
        "foreach",
        "while",
        "switch",
        "catch",
        "using",
        "lock",
        "return",
        "new",
        "await",
        "throw",
        "typeof",
        "sizeof",
        "elseif",
        "else",
        "do",
        "try",
        "finally",
        "function",
        "func",
        "def",
        "when",
        "match",
        "case",
        "in",
        "of",
        "is",
        "as",
        "with",
    ]
)
_IDENT = lazy(r"[A-Za-z_][\w]*")
_PS_PARAM = lazy(r"\$(?:script:|global:)?([A-Za-z_]\w*)")
_PS_POSITION = lazy(r"\bPosition\s*=\s*(\d+)", re.I)
_SHELL_LOCAL = lazy(
    r"\b(?:local|declare|typeset|readonly)?[ \t]*([A-Za-z_]\w*)=[\"']?\$\{?([1-9])\b"
)
_RETURN = lazy(r"\breturn\b[ \t]*")
_BODY_REACH = 20_000  # characters a body may span; longer ones are cut (bounded work)


# "keyword": keyword-only; "varargs" and "varkw": `*args` and `**kwargs`
ParamKind = Literal["positional", "keyword", "varargs", "varkw"]


class Param(NamedTuple):
    name: str  # without sigils: `path`, `Path` ($Path), `params` (**params)
    kind: ParamKind
    position: int  # index among the positional parameters (receiver excluded); -1 if none
    default: str | None  # the default value as written, when there is one


class FunctionDef(NamedTuple):
    name: str
    start: int  # offset of the name
    params: tuple[Param, ...]
    body: tuple[int, int]  # offsets of the body (for an arrow or `=>` member: its expression)
    member: bool  # defined with a receiver: called as `obj.name(...)`


class Definitions(NamedTuple):
    """How a language defines functions: patterns whose group `name` is the name.

    `params` is the style of the parameter list (python, js, go, csharp,
    powershell, shell), `body` how the body is delimited (braces, indent,
    shell). A match that ends at `(` has its parameters in those brackets; a
    group `recv` that matched marks a method (Go's receiver).
    """

    patterns: tuple[re.Pattern[str], ...]
    params: str
    body: str


def find_functions(source: Source, definitions: Definitions) -> list[FunctionDef]:
    """Every function the patterns find outside strings and comments, in file order."""
    found: dict[int, FunctionDef] = {}
    text = source.text
    words = definitions.body == "shell"  # every shell word is a token: only comments are out
    for pattern in definitions.patterns:
        for m in pattern.finditer(text, source.pos, source.endpos):
            name = m.group("name")
            at = m.start("name")
            if name in KEYWORDS or at in found:
                continue
            if source.in_comment(at) if words else source.token_at(at) is not None:
                continue
            defined = _definition(source, m, definitions)
            if defined is not None:
                found[at] = defined
    return [found[k] for k in sorted(found)]


def _definition(source: Source, m: re.Match[str], d: Definitions) -> FunctionDef | None:
    text = source.text
    member = "recv" in m.groupdict() and bool(m.group("recv"))
    params_text = ""
    after = m.end()
    if text[m.end() - 1 : m.end()] == "(":
        closer = source.matching_closer(m.end() - 1, 4000)
        if closer < 0:
            return None
        params_text = text[m.end() : closer]
        after = closer + 1
    elif "single" in m.groupdict() and m.group("single"):
        params_text = m.group("single")
    body = _body(source, after, m.start(), d.body)
    if body is None:
        return None
    if d.params == "powershell" and not params_text.strip():
        params_text = _powershell_param_block(source, body)
    params, receiver = _params(params_text, d.params, source.text, body)
    return FunctionDef(m.group("name"), m.start("name"), params, body, member or receiver)


def _body(source: Source, after: int, def_start: int, style: str) -> tuple[int, int] | None:
    text = source.text
    end = min(source.endpos, after + _BODY_REACH)
    if style == "shell":
        return _shell_body(source, after, def_start, end)
    if style == "indent":
        colon = text.find(":", after, min(end, after + 400))
        if colon < 0:
            return None
        line_end = text.find("\n", colon)
        if line_end < 0:
            return colon + 1, source.endpos
        if text[colon + 1 : line_end].strip() and not text[
            colon + 1 : line_end
        ].lstrip().startswith("#"):
            return colon + 1, line_end  # a one-line body
        indent = _indent(text, source.line_start(def_start))
        pos = line_end + 1
        last = line_end
        while pos < end:
            nl = text.find("\n", pos)
            nl = end if nl < 0 else nl
            line = text[pos:nl]
            if line.strip() and source.token_at(pos) is None:
                if _indent(text, pos) <= indent:
                    break
                last = nl
            pos = nl + 1
        return line_end + 1, last
    # braces, or an arrow / `=>` member whose body is an expression
    k = _body_start(source, after, min(end, after + 600))
    if k < 0:
        return None
    if text.startswith("=>", k):
        k = source.skip_space(k + 2)
        if not text.startswith("{", k):
            return k, _expression_end(source, k, end)
    closer = source.matching_closer(k, _BODY_REACH)
    return (k + 1, closer) if closer > 0 else None


def _shell_body(source: Source, after: int, def_start: int, end: int) -> tuple[int, int] | None:
    """From the `{` after `name()` to the `}` line at the definition's indentation or less."""
    text = source.text
    brace = text.find("{", after, min(end, after + 200))
    if brace < 0:
        return None
    indent = _indent(text, source.line_start(def_start))
    pos = text.find("\n", brace)
    if pos < 0:
        return None
    closing = text.rfind("}", brace + 1, pos)
    if closing > 0:  # a one-line function: `f() { ...; }`
        return brace + 1, closing
    pos += 1
    while pos < end:
        nl = text.find("\n", pos)
        nl = end if nl < 0 else nl
        stripped = text[pos:nl].strip()
        if stripped.startswith("}") and _indent(text, pos) <= indent:
            return brace + 1, pos
        pos = nl + 1
    return None


def _body_start(source: Source, start: int, stop: int) -> int:
    """The `{` or `=>` that starts a body after a signature; -1 at a `;` (a declaration).

    A return type or initializer may stand between (`): Promise<T> {`,
    `) : this(...) {`): angle and round brackets are skipped.
    """
    text = source.text
    depth = 0
    i = start
    while i < stop:
        token = source.token_at(i)
        if token is not None:
            i = token[1]
            continue
        ch = text[i]
        if ch in "<(":
            depth += 1
        elif ch in ">)" and depth > 0 and not (ch == ">" and text[i - 1] == "="):
            depth -= 1
        elif depth == 0:
            if ch == "{":
                return i
            if text.startswith("=>", i):
                return i
            if ch == ";":
                return -1
        i += 1
    return -1


def _expression_end(source: Source, start: int, stop: int) -> int:
    """Where an expression body ends: a `;` or a line end at bracket depth 0."""
    text = source.text
    depth = 0
    i = start
    while i < stop:
        token = source.token_at(i)
        if token is not None:
            i = token[1]
            continue
        ch = text[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                return i
            depth -= 1
        elif depth == 0 and ch in ";\n":
            if ch == "\n" and text[start:i].rstrip().endswith(("=>", "(", ",", "+", ".")):
                i += 1
                continue
            if ch == "\n" and text[i + 1 : i + 80].lstrip().startswith((".", "?", ":", "+")):
                i += 1
                continue
            return i
        i += 1
    return stop


def _indent(text: str, line_start: int) -> int:
    i = line_start
    while i < len(text) and text[i] in " \t":
        i += 1
    return i - line_start


def _powershell_param_block(source: Source, body: tuple[int, int]) -> str:
    """The text of the `param(...)` block at the top of a PowerShell function body."""
    text = source.text
    m = re.compile(r"\bparam\s*\(", re.I).search(text, body[0], min(body[1], body[0] + 2000))
    if m is None or source.token_at(m.start()) is not None:
        return ""
    closer = source.matching_closer(m.end() - 1, 8000)
    return text[m.end() : closer] if closer > 0 else ""


def split_top(text: str, separator: str = ",") -> list[str]:
    """`text` cut at `separator` outside brackets and quotes."""
    pieces: list[str] = []
    depth = 0
    quote = ""
    start = 0
    i = 0
    while i < len(text):
        ch = text[i]
        if quote:
            if ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth = max(0, depth - 1)
        elif ch == separator and depth == 0:
            pieces.append(text[start:i])
            start = i + 1
        i += 1
    pieces.append(text[start:])
    return [p.strip() for p in pieces if p.strip()]


def _params(
    text: str, style: str, source_text: str, body: tuple[int, int]
) -> tuple[tuple[Param, ...], bool]:
    """The parameters, and whether the first one is a receiver (`self`, `this`)."""
    if style == "shell":
        return _shell_params(source_text, body), False
    pieces = split_top(text)
    if style == "powershell":
        return _powershell_params(pieces), False
    params: list[Param] = []
    receiver = False
    position = 0
    keyword_only = False
    for k, piece in enumerate(pieces):
        default = None
        head, eq, tail = piece.partition("=")
        if eq and not tail.startswith(">"):
            default = tail.strip()
        else:
            head = piece
        kind: ParamKind = "positional"
        if style == "python":
            head = head.split(":", 1)[0].strip()
            if head == "*":
                keyword_only = True
                continue
            if head.startswith("**"):
                kind, head = "varkw", head[2:]
            elif head.startswith("*"):
                kind, head = "varargs", head[1:]
                keyword_only = True
            if k == 0 and head in ("self", "cls"):
                receiver = True
                continue
        elif style == "js":
            head = head.split(":", 1)[0].strip().rstrip("?")
            if head.startswith("..."):
                kind, head = "varargs", head[3:]
            for modifier in ("public ", "private ", "protected ", "readonly "):
                head = head.replace(modifier, "")
        elif style == "go":
            words = head.split()
            head = words[0] if words else ""
            if head.startswith("..."):
                continue
        elif style == "csharp":
            idents = _IDENT.findall(head.split("[", 1)[0] if head.startswith("[") else head)
            idents = [i for i in idents if i not in ("this", "params", "ref", "out", "in")]
            head = idents[-1] if idents else ""
        name_m = _IDENT.fullmatch(head.strip().lstrip("$"))
        if name_m is None:
            if kind == "positional":
                position += 1
            continue
        if kind == "positional" and keyword_only:
            kind = "keyword"
        params.append(
            Param(name_m.group(), kind, position if kind == "positional" else -1, default)
        )
        if kind == "positional":
            position += 1
    return tuple(params), receiver


def _powershell_params(pieces: list[str]) -> tuple[Param, ...]:
    """A PowerShell param() block's parameters: `[Parameter(Position=1)] [string]$Path = "/x"`."""
    params: list[Param] = []
    for piece in pieces:
        m = _PS_PARAM.search(piece)
        if m is None:
            continue
        default = None
        if "=" in piece[m.end() :]:
            default = piece[m.end() :].split("=", 1)[1].strip()
        pinned = _PS_POSITION.search(piece[: m.start()])
        position = int(pinned.group(1)) if pinned else len(params)
        params.append(Param(m.group(1), "positional", position, default))
    return tuple(params)


def _shell_params(text: str, body: tuple[int, int]) -> tuple[Param, ...]:
    """A shell function's positional parameters: `$1`.., named where `local path=$1` names them."""
    named: dict[int, str] = {}
    for m in _SHELL_LOCAL.finditer(text, body[0], body[1]):
        named.setdefault(int(m.group(2)), m.group(1))
    # `local method=$1 path=$2`: the names after the first on the same line
    for m in re.finditer(r"\b([A-Za-z_]\w*)=\"?\$\{?([1-9])\b", text[body[0] : body[1]]):
        named.setdefault(int(m.group(2)), m.group(1))
    return tuple(Param(named.get(n, str(n)), "positional", n - 1, None) for n in range(1, 10))


def returned(source: Source, fn: FunctionDef) -> list[int]:
    """Offsets of what the function returns: after each `return`, or its expression body."""
    text = source.text
    start, end = fn.body
    found = []
    for m in _RETURN.finditer(text, start, end):
        if source.token_at(m.start()) is None:
            found.append(m.end())
    if not found and text[start:end].strip() and "\n" not in text[start:end].strip():
        found.append(source.skip_space(start))  # an expression body (`=> ...`, a one-liner)
    return found
