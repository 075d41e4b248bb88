"""Own API helpers at their call sites: which calls call a helper, with which arguments.

calls/inference.py learns which functions of a file are helpers (a body that
joins a parameter onto this API's base); the table of helpers
(apispec/lint/helpers.py) says which argument is the path, the method and the
query; this module finds, at each call of a helper, those arguments, so that a
relative path handed to a helper becomes a call of this API.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.calls.callee import callee_before
from apispec.lint.calls.method import MEMBER_SPACED, VERB_SET
from apispec.lint.candidates import Chain
from apispec.lint.functions import split_top
from apispec.lint.helpers import Helper, HelperTable
from apispec.lint.patterns import lazy
from apispec.lint.scan import Source

VERB_WORD = lazy(
    r"['\"](GET|POST|PUT|PATCH|DELETE)['\"]|\bMethod(Get|Post|Put|Patch|Delete)\b"
    r"|\bHttpMethod\.(Get|Post|Put|Patch|Delete)\b|-Method\s+['\"]?(Get|Post|Put|Patch|Delete)\b"
    r"|-X\s+['\"]?(GET|POST|PUT|PATCH|DELETE)\b",
    re.I,
)
_KEYWORD_ARG = lazy(r"\s*([A-Za-z_]\w*)\s*(?:=(?!=)|:(?!:))")
_PS_NAMED = lazy(r"-([A-Za-z_]\w*)\s*:?\s*\Z")
_SHELL_LOCAL = lazy(r"\b([A-Za-z_]\w*)=\"?\$\{?([1-9])\b")


class HelperCall(NamedTuple):
    """A call of a helper: the helper, and where its other arguments stand."""

    helper: Helper
    method: str | None  # the method this call sends, as the helper's arguments say
    query_at: int  # offset of the query argument (a mapping or a variable); -1: none
    query_kwargs: tuple[tuple[str, int], ...]  # (name, value offset) of `**params` keywords
    # the object it is called on: "" none (`api_get(...)`, a command), "()" the result of
    # an expression (`resp.json().get(...)`, `row["x"].get(...)`), else its last name
    receiver: str = ""


def receiver_fits(helper: Helper, receiver: str) -> bool:
    return helper.receiver is None or receiver.lower() == helper.receiver.lower()


def bracket_argument(source: Source, at: int) -> tuple[str, str, int, str | None] | None:
    """(callee name, receiver, argument index, keyword) of the call whose argument holds `at`."""
    text = source.text
    opener = source.enclosing_opener(at, 600)
    if opener < 0 or text[opener] != "(":
        return None
    m = callee_before(text, max(source.pos, opener - 200), opener)
    if m is None:
        return None
    parts = [p for p in MEMBER_SPACED.split(m.group(1)) if p]
    if not parts:
        return None
    name = parts[-1].lstrip("$@")
    receiver = parts[-2].lstrip("$@").split("(")[0] if len(parts) > 1 else ""
    if (len(parts) > 1 and parts[-2].endswith((")", "]"))) or (
        m.start() > 0 and text[m.start() - 1] in ".>:" and not receiver
    ):
        receiver = "()"  # a call's or subscript's result: `resp.json().get(`, `u.get(k, {}).get(`
    closer = source.matching_closer(opener)
    args = _arguments(source, opener, closer if closer > 0 else at + 1)
    for index, (start, end, keyword) in enumerate(args):
        if start <= at <= end:
            positional = sum(1 for s, e, k in args[:index] if k is None)
            return name, receiver, positional, keyword
    return None


def _arguments(source: Source, opener: int, closer: int) -> list[tuple[int, int, str | None]]:
    """Each argument's span and keyword (`path=`, `ct:`) between a call's brackets."""
    text = source.text
    found: list[tuple[int, int, str | None]] = []
    depth = 0
    start = opener + 1
    i = start
    while i <= closer:
        token = source.token_at(i) if i < closer else None
        if token is not None and token[0] >= start:
            i = token[1]
            continue
        ch = text[i] if i < closer else ","
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth <= 0:
            piece = text[start:i]
            if piece.strip():
                keyword = _KEYWORD_ARG.match(piece)
                word = (
                    keyword.group(1)
                    if keyword and source.token_at(start + keyword.start(1)) is None
                    else None
                )
                found.append((start, i, word))
            start = i + 1
        i += 1
    return found


def helper_call(
    source: Source, chain: Chain, table: HelperTable, info: CallInfo | None = None
) -> HelperCall | None:
    """The helper call `chain` is the path argument of, with the method and query it shows."""
    if not table:
        return None
    if source.dialect.command_calls:
        return _command_call(source, chain, table, info)
    found = bracket_argument(source, chain.start)
    if found is None:
        return None
    name, receiver, index, keyword = found
    helper = table.get(name, source.dialect.name)
    if helper is None or not receiver_fits(helper, receiver):
        return None
    if keyword is not None and keyword.lower() != helper.path_name.lower():
        return None
    if keyword is None and index != helper.path:
        return None
    opener = source.enclosing_opener(chain.start, 600)
    closer = source.matching_closer(opener)
    args = _arguments(source, opener, closer if closer > 0 else chain.end)
    return _use(source, helper, args)._replace(receiver=receiver)


def _use(source: Source, helper: Helper, args: list[tuple[int, int, str | None]]) -> HelperCall:
    text = source.text
    positional = [a for a in args if a[2] is None]
    by_name = {a[2].lower(): a for a in args if a[2] is not None}

    def argument(index: int | None, name: str | None) -> tuple[int, int, str | None] | None:
        if name is not None and name.lower() in by_name:
            return by_name[name.lower()]
        if index is not None and index < len(positional):
            return positional[index]
        return None

    method = helper.implied
    if helper.method is not None or helper.method_name is not None:
        given = argument(helper.method, helper.method_name)
        written = text[given[0] : given[1]] if given else ""
        verbs = [g for m in VERB_WORD.finditer(written) for g in m.groups() if g]
        bare = written.split("=", 1)[-1].split(":", 1)[-1].strip(" \t\n'\"").upper()
        method = (verbs[0].upper() if verbs else bare if bare in VERB_SET else None) or (
            helper.method_default if given is None else None
        )
    query_at = -1
    given = argument(helper.query, helper.query_name)
    if given is not None:
        value = given[0]
        if given[2] is not None:
            value = text.index(given[2], given[0]) + len(given[2])
            value = text.find("=", value, given[1]) + 1 or text.find(":", value, given[1]) + 1
        query_at = source.skip_space(value)
    kwargs: list[tuple[str, int]] = []
    if helper.query_kwargs:
        own = {p.lower() for p in helper.params}
        for start, end, keyword in args:
            if keyword is None:
                # `**params`: a mapping expanded into the keywords that are query values
                at = source.skip_space(start)
                if query_at < 0 and text.startswith("**", at):
                    query_at = source.skip_space(at + 2)
                continue
            if keyword.lower() in own:
                continue
            k = text.find(keyword, start, end) + len(keyword)
            eq = text.find("=", k, end)
            kwargs.append((keyword, source.skip_space(eq + 1)))
    return HelperCall(helper, method, query_at, tuple(kwargs))


def _command_call(
    source: Source, chain: Chain, table: HelperTable, info: CallInfo | None
) -> HelperCall | None:
    """A helper called as a command: `Invoke-PrtgApi -Path '/x'`, `prtg_get /x`."""
    if info is None:
        info = source.dialect.command_context(source, chain)
    if info is None or not info.callee:
        return None
    helper = table.get(info.callee.rsplit("/", 1)[-1], source.dialect.name)
    if helper is None:
        return None
    text = source.text
    start = text.find(info.callee, info.window[0], chain.start + 1)
    if start < 0:
        return None  # the path is the command's name, or before it
    start += len(info.callee)
    # The argument holding the path is the outermost bracket group it stands in, if any:
    # a value of a hashtable or array literal or of a script block is never the path
    # (`-QueryParameter @{ include = 'inheritance' }`, `-Body @{ tags = @('x') }`).
    word_start = chain.start
    opener = source.enclosing_opener(word_start, word_start - start)
    while opener >= start:
        word_start = opener
        opener = source.enclosing_opener(opener, opener - start) if opener > start else -1
    if word_start < chain.start and (text[word_start] == "{" or text[word_start - 1] == "@"):
        return None
    words = _command_words(text[start:word_start])
    named = _PS_NAMED.search(text[start:word_start])
    if named is not None:
        if named.group(1).lower() != helper.path_name.lower():
            return None
    elif _positional(words) != helper.path:
        return None
    after = _command_words(text[chain.end : info.window[1]])
    every = [*words, "\0", *after]
    method = helper.implied
    if helper.method_name is not None:
        method = _named_value(every, helper.method_name) or helper.method_default
        if method is None and helper.method is not None and source.dialect.name == "shell":
            positional = [w for w in words if not w.startswith("-")]
            if helper.method < len(positional):
                method = positional[helper.method].strip("'\"").upper() or None
        method = method.upper() if method and method.upper() in VERB_SET else helper.method_default
    query_at = -1
    if helper.query_name is not None:
        m = re.compile(r"-" + re.escape(helper.query_name) + r"\s*:?\s*", re.I).search(
            text, info.window[0], info.window[1]
        )
        if m is not None:
            query_at = m.end()
    return HelperCall(helper, method, query_at, ())


def _command_words(text: str) -> list[str]:
    """Words of a command line, bracketed groups (`@{...}`, `(...)`) and quoted strings kept whole."""
    pieces = split_top(text.replace("`\n", " ").replace("\\\n", " "), " ")
    return [p for p in pieces if p and p != "\0"]


def _positional(words: list[str]) -> int:
    """How many positional arguments precede, `-Name value` pairs left out."""
    count = 0
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word.startswith("-") and len(word) > 1 and not word[1:2].isdigit():
            skip = True
            continue
        count += 1
    return count


def _named_value(words: list[str], name: str) -> str | None:
    for k, word in enumerate(words):
        if word.lower().rstrip(":") == "-" + name.lower() and k + 1 < len(words):
            return words[k + 1].strip("'\"")
    return None


# Receivers that are the helper's own object where its class calls it.
_SELF = frozenset({"self", "this", "cls", "me", "base", "super", "static"})
# Go's method receiver (`func (c *Client) Health(...)`): the method's own object.
_GO_RECEIVER = lazy(r"func[ \t]*\([ \t]*([A-Za-z_]\w*)[ \t]+\*?[\w.]+")


def trusted_receivers(uses: list[tuple[HelperCall, bool]]) -> frozenset[str]:
    """Receivers the file hands this API's own relative paths to through a helper.

    `uses` pairs each helper call with whether its path stands on its own (a
    registry path written relative, not through a base): an object given
    `"/experimental/sensors"` by the helper's name is the API client, so its
    other calls of the helper are too (`api._get("/sensor-status-summary")`).
    """
    return frozenset(
        use.receiver.lower() for use, own in uses if own and use.receiver not in ("", "()")
    )


def through_helper(source: Source, use: HelperCall, at: int, trusted: frozenset[str]) -> bool:
    """Whether a helper call may make a path a call that nothing else makes one.

    Helpers learnt from a method are called on an object, and their names are
    the common ones (`get`, `post`, `request`): `body.get("code")`,
    `headers.get("authorization")`, `resp.json().get("edition")` and
    `requests.get(url)` call a dictionary's or a library's method of that
    name, not the helper. So a path that only the helper makes a call (a first
    segment the registry does not know, a single word) counts when the helper
    is called without an object (a function, a command), on its own object
    (`self`, `this`, Go's method receiver), or on an object the file hands
    this API's own paths to by the same helper (`trusted_receivers`); never on
    the result of a call or subscript. A configured helper names its receiver.
    """
    receiver = use.receiver
    if not receiver or use.helper.language == "*":
        return True
    if receiver == "()":
        return False
    low = receiver.lower()
    if low in _SELF or low in trusted:
        return True
    if source.dialect.name == "go":
        k = source.text.rfind("\nfunc", source.pos, at)
        m = _GO_RECEIVER.match(source.text, k + 1) if k >= 0 else None
        return m is not None and m.group(1) == receiver
    return False


def with_helper(info: CallInfo, use: HelperCall) -> None:
    """What a helper's arguments say, over what the call stage guessed from the call alone."""
    if use.method is not None:
        info.method = use.method
    if use.query_at >= 0:
        info.query_expr = use.query_at
    if use.query_kwargs:
        info.query_kwargs = use.query_kwargs
