"""The jinja2 environments of the generated docs, and how registry text is made inert.

HTML templates (`*.html.j2`) autoescape. Markdown has no autoescape, and every
Markdown renderer passes raw HTML through, so the Markdown environment runs
each `{{ }}` value through `md_text`: outside code spans `<`, `>` and `&`
become entities and `[`, `]`, `|` are backslash-escaped (no injected markup,
links or table cells); inside a code span text is shown literally anyway.
"""

from __future__ import annotations

import re
from functools import cache

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
_MD_SPECIAL = {"&": "&amp;", "<": "&lt;", ">": "&gt;", "[": "\\[", "]": "\\]", "|": "\\|"}


class MdRaw(str):
    """Markdown the templates built themselves; `md_text` passes it unchanged."""


def _plain(text: str) -> str:
    return "".join(_MD_SPECIAL.get(ch, ch) for ch in text)


def md_text(value: object) -> str:
    """Registry text as inert Markdown, keeping its own `code` spans."""
    if isinstance(value, MdRaw):
        return value
    if value is None:
        return ""
    text = " ".join(str(value).split("\n"))
    out: list[str] = []
    last = 0
    for match in _CODE_SPAN.finditer(text):
        out.append(_plain(text[last : match.start()]))
        out.append(match.group(0).replace("|", "\\|"))
        last = match.end()
    out.append(_plain(text[last:]))
    return "".join(out)


def md_code(value: object) -> MdRaw:
    """Any text as one Markdown code span, whatever backticks it holds."""
    text = " ".join(str(value).split("\n")).replace("|", "\\|")
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return MdRaw(f"{fence}{pad}{text}{pad}{fence}")


def md_link(text: object, href: str) -> MdRaw:
    return MdRaw(f"[{md_text(text)}]({href})")


def html_inline(value: object) -> Markup:
    """Escaped registry text whose `code` spans become <code> elements."""
    escaped = str(escape("" if value is None else value))
    return Markup(_CODE_SPAN.sub(lambda m: f"<code>{m.group(2)}</code>", escaped))


def html_path(value: object) -> Markup:
    """An escaped path that may wrap after each slash, never inside a segment."""
    head, slash, rest = str(escape(value)).partition("/")
    return Markup(head + slash + rest.replace("/", "/<wbr>"))


@cache
def markdown_environment() -> Environment:
    env = Environment(
        loader=PackageLoader("apispec", "templates"),
        autoescape=False,
        finalize=md_text,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(code=md_code, link=md_link, raw=MdRaw)
    return env


@cache
def html_environment() -> Environment:
    env = Environment(
        loader=PackageLoader("apispec", "templates"),
        autoescape=select_autoescape(enabled_extensions=("html", "html.j2")),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(inline=html_inline, path=html_path)
    return env
