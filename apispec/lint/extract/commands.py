"""Command-line clients: a command's words read as its knowledge row says.

`curl -G -H "Authorization: Bearer $T" --data-urlencode 'filter=...' "$API/x"` is
one call whose arguments are words; the row (knowledge.Command) says which options
take a value and what each means: the method, a header, the body, a query item,
the URL. Options are read as getopt reads them (`-XPOST`, `-X POST`,
`--request=POST`, switches run together: `-fsS`, `-qO-`). Words an array or a
function's `"$@"` hands on are read where they stand; a wrapper's own `"$@"` is
remembered (`forwarded`), so a caller's words are read with the wrapper's options.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

from apispec.lint.extract.context import alt, options, sub
from apispec.lint.extract.ir import (
    CallE,
    Entry,
    Hole,
    Lit,
    MapV,
    Param,
    Piece,
    SeqV,
    Text,
    Value,
)
from apispec.lint.extract.request import Request
from apispec.lint.knowledge import VERBS, Command

if TYPE_CHECKING:
    from apispec.lint.extract.context import Ctx
    from apispec.lint.extract.values import Resolver

_SWITCHES = ("get", "head")
_UPPER_VERBS = frozenset(v.upper() for v in VERBS)


@dataclass
class Word:
    """One word of a command line: what it holds, and its known text (holes as U+0000)."""

    value: Value
    text: str
    fixed: bool = False  # written by a wrapper of another file (its options, no position)


@dataclass
class Reading:
    """What a command's words say."""

    operands: list[Word] = field(default_factory=list)
    method: Word | None = None
    headers: list[Word] = field(default_factory=list)
    data: list[Word] = field(default_factory=list)
    encoded: list[Word] = field(default_factory=list)
    query: list[Word] = field(default_factory=list)
    urls: list[Word] = field(default_factory=list)
    fields: bool = False  # httpie body fields
    get: bool = False
    head: bool = False
    upload: bool = False
    forwarded: Param | None = None
    options: list[str] = field(default_factory=list)  # the option words as written


def request(resolver: Resolver, call: CallE, row: Command, ctx: Ctx) -> Request:
    """The request one command line sends."""
    words, forwarded = command_words(resolver, call, ctx)
    return build(call, row, words, forwarded)


def build(call: CallE, row: Command, words: list[Word], forwarded: Param | None = None) -> Request:
    """The request `words` of a `row` command send (the command written at `call`)."""
    reading = read(words, row)
    reading.forwarded = forwarded
    url, rest = _url(reading, row)
    method, method_param = _method(reading, row)
    # a wrapper's own words (of another file) say how, never what: no place to point at
    headers = [
        e for w in reading.headers if not w.fixed and (e := _entry(w.value, ":", strip=True))
    ]
    entries: list[Entry] = []
    texts: list[Value] = []
    if reading.get or method == "GET":
        texts.extend(w.value for w in reading.data if "=" in w.text and not w.fixed)
        entries.extend(e for w in reading.encoded if not w.fixed and (e := _entry(w.value, "=")))
    entries.extend(e for w in reading.query if not w.fixed and (e := _entry(w.value, "=")))
    for item in rest:  # httpie's request items after the URL
        if "==" in item.text:
            entry = _entry(item.value, "==")
            if entry is not None:
                entries.append(entry)
        elif (
            ":" in item.text
            and "=" not in item.text.split(":", 1)[0]
            and (entry := _entry(item.value, ":", strip=True)) is not None
        ):
            headers.append(entry)
    sent = Request(
        call,
        url,
        method,
        None,
        "slash",
        MapV(tuple(entries)) if entries else None,
        MapV(tuple(headers)) if headers else None,
        "client",
    )
    sent.extra_query.extend(texts)
    sent.method_param = method_param
    sent.command = row.names[0]
    sent.words = tuple(reading.options)
    sent.forwarded = reading.forwarded
    return sent


def command_words(
    resolver: Resolver, call: CallE, ctx: Ctx, skip: int = 0
) -> tuple[list[Word], Param | None]:
    """A command's words with arrays and `"$@"` spread; the open rest parameter handed on.

    `skip`: the first words are another command's (a wrapper's path, its method)."""
    words: list[Word] = []
    forwarded: Param | None = None
    for arg in call.args:
        if skip > 0 and not arg.spread:
            skip -= 1
            continue
        value = resolver.value(arg.value, ctx)
        if not arg.spread:
            words.append(word(value))
            continue
        for option in options(value):
            if isinstance(option, SeqV):
                words.extend(word(item) for item in option.items)
                break
            param = _rest_param(option)
            if param is not None:
                forwarded = param
                break
        else:
            words.append(word(value))
    return words, forwarded


def word(value: Value) -> Word:
    first = next((o for o in options(value) if isinstance(o, Text)), None)
    return Word(value, first.known if first is not None else "\0")


def _rest_param(value: Value) -> Param | None:
    if isinstance(value, Text) and len(value.pieces) == 1:
        piece = value.pieces[0]
        if isinstance(piece, Hole) and piece.param is not None and piece.param.kind == "*":
            return piece.param
    return None


@cache
def _roles(row: Command) -> dict[str, str]:
    roles: dict[str, str] = {}
    for role in (
        "method",
        "header",
        "data",
        "encoded",
        "query",
        "get",
        "head",
        "upload",
        "url",
        "valued",
    ):
        for name in getattr(row, role):
            roles[name] = role
    return roles


def read(words: list[Word], row: Command) -> Reading:
    """The words read getopt's way: options (with their values) and operands."""
    roles = _roles(row)
    reading = Reading()
    k = 0
    ended = False
    while k < len(words):
        current = words[k]
        written = current.text
        k += 1
        if ended or not written.startswith("-") or written == "-":
            reading.operands.append(current)
            continue
        if written == "--":
            ended = True
            continue
        reading.options.append(written)
        if written.startswith("--"):
            name, eq, _ = written.partition("=")
            role = roles.get(name)
            if role is None or role in _SWITCHES:
                _switch(reading, role)
                continue
            if eq:
                value = _after(current, len(name) + 1)
            elif k < len(words):
                value = words[k]
                reading.options.append(value.text)
                k += 1
            else:
                continue
            _take(reading, role, value)
            continue
        for at in range(1, len(written)):
            role = roles.get("-" + written[at])
            if role is None or role in _SWITCHES:
                _switch(reading, role)
                continue
            if at + 1 < len(written):
                _take(reading, role, _after(current, at + 1))
            elif k < len(words):
                reading.options.append(words[k].text)
                _take(reading, role, words[k])
                k += 1
            break
    return reading


def _switch(reading: Reading, role: str | None) -> None:
    if role == "get":
        reading.get = True
    elif role == "head":
        reading.head = True


def _take(reading: Reading, role: str, value: Word) -> None:
    if role == "method":
        reading.method = value
    elif role == "header":
        reading.headers.append(value)
    elif role == "data":
        reading.data.append(value)
    elif role == "encoded":
        reading.encoded.append(value)
    elif role == "query":
        reading.query.append(value)
    elif role == "url":
        reading.urls.append(value)
    elif role == "upload":
        reading.upload = True


def _after(current: Word, index: int) -> Word:
    """The rest of a word from one of its known characters on (`--header=X: y` -> `X: y`)."""
    found = [_cut(o, index) for o in options(current.value) if isinstance(o, Text)]
    value = alt(found) if found else current.value
    return Word(value, current.text[index:], current.fixed)


def _url(reading: Reading, row: Command) -> tuple[Value, list[Word]]:
    """The URL word, and (httpie) the request items after it."""
    operands = list(reading.operands)
    rest: list[Word] = []
    if row.items:
        if operands and operands[0].text.upper() in _UPPER_VERBS and len(operands) > 1:
            reading.method = reading.method or operands.pop(0)
        rest = operands[1:]
        operands = operands[:1]
        reading.fields = any(("=" in w.text and "==" not in w.text) or ":=" in w.text for w in rest)
    candidates = [*reading.urls, *operands]
    urls = [w.value for w in candidates if _url_like(w.text)]
    if urls:
        return alt(urls), rest
    if candidates:
        return candidates[0].value, rest
    return Text(()), rest


def _url_like(text: str) -> bool:
    head = text.split("?", 1)[0]
    return (
        "://" in head
        or head.startswith(("/", "\0/", ":"))
        or ("/" in head and "\0" in head.split("/", 1)[0])
    )


def _method(reading: Reading, row: Command) -> tuple[str | None, Param | None]:
    if reading.method is not None:
        text = reading.method.value
        if isinstance(text, Text) and all(isinstance(p, Lit) for p in text.pieces):
            return reading.method.text.upper(), None
        param = None
        if isinstance(text, Text) and len(text.pieces) == 1 and isinstance(text.pieces[0], Hole):
            param = text.pieces[0].param
        return None, param
    if reading.head:
        return "HEAD", None
    if reading.upload:
        return "PUT", None
    if reading.get:
        return "GET", None
    if reading.data or reading.encoded or reading.fields:
        return "POST", None
    return row.default, None


def _entry(value: Value, separator: str, strip: bool = False) -> Entry | None:
    """`Name: value`, `name=value`: an entry whose name is literal."""
    text = next((o for o in options(value) if isinstance(o, Text)), None)
    if text is None:
        return None
    known = text.known
    cut = known.find(separator)
    name = known[:cut].strip() if cut > 0 else ""
    if not name or "\0" in name:
        return None
    rest = cut + len(separator)
    while strip and rest < len(known) and known[rest] == " ":
        rest += 1
    key = _cut(text, 0, cut)
    start = key.pieces[0].start if key.pieces else text.start
    return Entry(name, start, start + cut, _cut(text, rest))


def _cut(text: Text, start: int, end: int | None = None) -> Text:
    """The pieces of a text between two of its known characters (a hole counts one)."""
    out: list[Piece] = []
    at = 0
    stop = end if end is not None else len(text.known)
    for piece in text.pieces:
        width = len(piece.text) if isinstance(piece, Lit) else 1
        lo, hi = max(start, at), min(stop, at + width)
        if lo < hi:
            out.append(sub(piece, lo - at, hi - at) if isinstance(piece, Lit) else piece)
        at += width
    return Text(tuple(out))
