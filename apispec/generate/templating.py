"""The jinja2 environments of the generated docs, and how registry text is made inert.

Registry text is data a pull request can change, so it is escaped for the
format it lands in, in one place each:

- HTML templates (`*.html.j2`) autoescape; `html_inline` keeps the text's own
  backtick code spans as `<code>` elements.
- Markdown has no autoescape and every renderer passes raw HTML through, so
  the Markdown environment runs each `{{ }}` value through `md_text`, the one
  escaping filter: outside code spans `<`, `>` and `&` become entities (the
  only escape Python-Markdown and CommonMark read alike for them), every other
  character that CommonMark gives a meaning inline (backslash, backtick, `*`,
  `_` where it can delimit, `[`, `]`, `|`, `~`) is backslash-escaped, and a
  character that would start a block (`#`, `-`, `+`, `=`, `1.`) is escaped at
  the start of the value. A backtick run that CommonMark would pair with a
  later run of the same length stays a code span (its content is shown
  literally by every renderer); an unpaired one is escaped, so it can never
  pair with a code span the template writes after it.
"""

from __future__ import annotations

import re
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

from apispec.generate.commonmark import code_spans

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BACKTICKS = re.compile(r"`+")
_MD_SPECIAL = {
    "&": "&amp;",
    "<": "&lt;",
    ">": "&gt;",
    "\\": "\\\\",
    "`": "\\`",
    "*": "\\*",
    "[": "\\[",
    "]": "\\]",
    "|": "\\|",
    "~": "\\~",
}
# What starts a heading, list item, thematic break or setext underline at a line's start.
_BLOCK_START = re.compile(r"(?:[#+=-]+|\d{1,9}[.)])(?=\s|$)")


class MdRaw(str):
    """Markdown the templates built themselves; `md_text` passes it unchanged."""


def one_line(value: object) -> str:
    """Text on one line: a line break inside a table cell or list item would end it."""
    return " ".join(_LINE_BREAK.split(str(value)))


def _plain(text: str, at_start: bool) -> str:
    out = []
    for i, ch in enumerate(text):
        if ch == "_":
            inner = 0 < i < len(text) - 1 and text[i - 1].isalnum() and text[i + 1].isalnum()
            out.append("_" if inner else "\\_")  # intraword `_` never delimits emphasis
        else:
            out.append(_MD_SPECIAL.get(ch, ch))
    escaped = "".join(out)
    if at_start:
        block = _BLOCK_START.match(escaped)
        if block:
            at = block.end() - 1 if block.group()[-1] in ".)" else 0
            escaped = f"{escaped[:at]}\\{escaped[at:]}"
    return escaped


def md_text(value: object) -> str:
    """Registry text as inert Markdown on one line, keeping its own `code` spans."""
    if isinstance(value, MdRaw):
        return value
    if value is None:
        return ""
    text = one_line(value)
    out: list[str] = []
    for piece, is_code in code_spans(text):
        if is_code and "|" not in piece:
            out.append(md_code(piece))
        else:  # a pipe would end a table cell even inside a code span: show it as text
            shown = f"`{piece}`" if is_code else piece
            out.append(_plain(shown, at_start=not out))
    return "".join(out)


def md_code(value: object) -> MdRaw:
    """Any text as one Markdown code span, whatever backticks it holds."""
    text = one_line(value).replace("|", "\\|")
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) else ""
    return MdRaw(f"{fence}{pad}{text}{pad}{fence}")


def md_fence(text: str, language: str = "") -> MdRaw:
    """A fenced code block that no backtick run inside `text` can close early."""
    longest = max((len(run) for run in re.findall(r"^ *(`{3,})", text, re.M)), default=0)
    fence = "`" * max(3, longest + 1)
    return MdRaw(f"{fence}{language}\n{text.rstrip()}\n{fence}")


def md_link(text: object, href: str) -> MdRaw:
    return MdRaw(f"[{md_text(text)}]({href})")


def html_inline(value: object) -> Markup:
    """Escaped registry text whose `code` spans become <code> elements."""
    if value is None:
        return Markup("")
    pieces = []
    for piece, is_code in code_spans(str(value)):
        pieces.append(f"<code>{escape(piece)}</code>" if is_code else str(escape(piece)))
    return Markup("".join(pieces))


def html_path(value: object) -> Markup:
    """An escaped path that may wrap after each slash, never inside a segment."""
    head, slash, rest = str(escape(value)).partition("/")
    return Markup(head + slash + rest.replace("/", "/<wbr>"))


_BREAK_AFTER = re.compile(r"(?<=[A-Za-z0-9][./_])(?=.)|(?<=[a-z])(?=[A-Z])")


def html_breakable(value: object) -> Markup:
    """An escaped name that may wrap after `.`, `/` or `_` and between the words of a
    CamelCase name (`basic.parenttags`, `WindowsconnectionSection`), so a narrow table
    column wraps it instead of clipping the column beside it."""
    pieces = _BREAK_AFTER.split(str(value))
    return Markup("<wbr>".join(str(escape(piece)) for piece in pieces))


@cache
def markdown_environment() -> Environment:
    """Markdown templates: every value passes `md_text` (jinja2's autoescape is HTML-only)."""
    env = Environment(
        loader=PackageLoader("apispec.generate", "templates"),
        autoescape=False,
        finalize=md_text,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(code=md_code, link=md_link, raw=MdRaw, fence=md_fence, text=md_text)
    return env


@cache
def html_environment() -> Environment:
    """HTML templates, and the CSS and JavaScript they include, autoescape everything."""
    env = Environment(
        loader=PackageLoader("apispec.generate", "templates"),
        autoescape=select_autoescape(enabled_extensions=("html", "html.j2", "j2")),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(inline=html_inline, path=html_path, breakable=html_breakable)
    return env
