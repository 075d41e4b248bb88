"""Check a filter against the registry's property catalog (FLT002-FLT006).

The rules follow the spec's property table exactly (DESIGN decision 3): an
operator not listed for a property is an error, a value of the wrong type is
an error, `in` takes a list whose elements have the property's type, unknown
enumeration values are a warning. FLT006 (warning) reports a property whose
registry entry names the object kinds it applies to (`applies_to`) used on an
endpoint that lists or addresses another kind; see docs/filters.md.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from apispec.filters.ast import (
    Boolean,
    Comparison,
    EnumToken,
    FilterTree,
    ListValue,
    Number,
    Scalar,
    Text,
    Unknown,
    comparisons,
)
from apispec.filters.catalog import Catalog, PropertyInfo, resolve
from apispec.filters.diagnostics import (
    Applicability,
    Diagnostic,
    Fix,
    fix_of,
    make,
    moved,
    ordered,
)
from apispec.filters.grammar import KEYWORDS
from apispec.filters.parse import parse
from apispec.filters.tokens import BARE, Span
from apispec.filters.tree_builder import MAX_NUMBER
from apispec.registry.endpoint_names import match_template, parse_endpoint
from apispec.support.exceptions import UsageError, did_you_mean

if TYPE_CHECKING:
    from apispec.registry.model import Endpoint, Registry

Written = Callable[[int, int], str]


def check(
    text: str,
    endpoint: str | Endpoint | None = None,
    registry: Registry | None = None,
    placeholder_spans: Sequence[Span] = (),
) -> list[Diagnostic]:
    """Every diagnostic of `text`, earliest first.

    `endpoint` is a registry path such as "/experimental/channels" (or an
    Endpoint); an unknown path raises UsageError. `placeholder_spans` are
    character ranges of `text` whose content is unknown (interpolations): one
    inside a quoted text is fine, one where a bare value stands is FLT004 for
    text properties.
    """
    catalog = resolve(registry)
    kind = endpoint_kind(catalog, endpoint)
    result = parse(text, placeholder_spans)
    tree = result.tree or result.recovered
    if tree is None:
        return list(result.diagnostics)
    if result.ok:

        def written(start: int, end: int) -> str:
            return text[start:end]

        return ordered(check_tree(tree, catalog, kind, written))
    offsets = result.offsets
    source = result.recovered_text

    def written_after_fixes(start: int, end: int) -> str:
        return text[offsets.original(start) : offsets.original(end)] or source[start:end]

    found = [
        moved(d, offsets.original) for d in check_tree(tree, catalog, kind, written_after_fixes)
    ]
    return ordered([*result.diagnostics, *found])


def endpoint_kind(catalog: Catalog, endpoint: str | Endpoint | None) -> str | bool | None:
    """The object kind of the endpoint; False when no endpoint was given.

    A string is an endpoint as a user names one anywhere (`GET /devices`, `/devices`,
    a full URL or an `/api/v2` path: `apispec.registry.endpoint_names`)."""
    if endpoint is None:
        return False
    if not isinstance(endpoint, str):
        return catalog.kind_of(endpoint.path)
    named = parse_endpoint(endpoint).path
    path = match_template(named, catalog.paths)
    if path is None:
        raise UsageError(f"unknown endpoint path {named!r}{did_you_mean(named, catalog.paths)}")
    return catalog.kind_of(path)


def check_tree(
    tree: FilterTree, catalog: Catalog, kind: str | bool | None, written: Written
) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    properties = catalog.properties
    for comparison in comparisons(tree.expr):
        if comparison.prop_unknown:
            continue
        # The whole filter is this one comparison: a rewrite needs no parentheses.
        alone = tree.expr is comparison and tree.relation is None
        prop = properties.get(comparison.prop)
        if prop is None:
            found.append(_unknown_property(comparison, catalog, written, alone))
            prop = properties.get(_respelled(comparison.prop, catalog))
            if prop is None:
                continue
        if comparison.op not in prop.operators:
            found.append(_operator_not_allowed(comparison, prop, written, alone))
        found.extend(_value_problems(comparison, prop, written))
        if kind and tree.relation is None and prop.applies_to and kind not in prop.applies_to:
            found.append(_not_applicable(comparison, prop, kind))
    return found


def _unknown_property(c: Comparison, catalog: Catalog, written: Written, alone: bool) -> Diagnostic:
    """A guessed property is an unsafe fix: the writer may have meant another one."""
    name = c.prop
    message = f"`{name}` is not a filterable property"
    head, _, rest = name.partition(".")
    fix = None
    if head in catalog.relationships and rest in catalog.properties:
        fixed = f"{head} {rest} {c.op} {written(c.value.start, c.value.end)}"
        hint = f"a relationship word goes first, before the filter: `{fixed}`"
        if alone:  # elsewhere the word would also govern the rest of the filter
            fix = fix_of("unsafe", (c.prop_start, c.prop_end, f"{head} {rest}"))
    else:
        suggestion = suggest_property(name, catalog.properties)
        hint = (
            f"did you mean `{suggestion}`?"
            if suggestion
            else "filterable properties: " + ", ".join(catalog.properties)
        )
        if suggestion:
            fix = fix_of("unsafe", (c.prop_start, c.prop_end, suggestion))
    return make("FLT002", message, c.prop_start, c.prop_end, hint, fix)


def _respelled(name: str, catalog: Catalog) -> str:
    """`parentId`, `parent.id`: the known property written with other case or separators."""
    squashed = re.sub(r"[._\-]", "", name.lower())
    for candidate in catalog.properties:
        if re.sub(r"[._\-]", "", candidate.lower()) == squashed:
            return candidate
    return ""


def suggest_property(name: str, known: Sequence[str] | dict[str, PropertyInfo]) -> str | None:
    """The property the writer most likely meant: same letters, last segment, or similar."""
    names = list(known)
    lowered = name.lower()
    for candidate in names:
        if candidate.lower() == lowered:
            return candidate

    def squash(word: str) -> str:
        return re.sub(r"[._\-]", "", word.lower())

    for candidate in names:
        if squash(candidate) == squash(name):
            return candidate
    by_last = [c for c in names if c.rsplit(".", 1)[-1] == lowered.rsplit(".", 1)[-1]]
    if len(by_last) == 1:
        return by_last[0]
    from difflib import get_close_matches  # only a name not found needs it

    close = get_close_matches(name, names, n=1, cutoff=0.6)
    return close[0] if close else None


def _operator_not_allowed(
    c: Comparison, prop: PropertyInfo, written: Written, alone: bool
) -> Diagnostic:
    allowed = ", ".join(prop.operators)
    message = f"operator `{c.op}` is not allowed on `{prop.name}`; allowed: {allowed}"
    value = written(c.value.start, c.value.end)
    hint = None
    fix = None
    is_list = isinstance(c.value, ListValue)
    if prop.multi_valued and "contains" in prop.operators and c.op in ("=", "in"):
        if is_list:
            spread, fix = _spread(c, prop, "contains", written, alone)
            hint = f"`{prop.name}` holds several values: write `{spread}`"
        else:
            hint = f"`{prop.name}` holds several values: write `{prop.name} contains {value}`"
            fix = fix_of("safe", (c.op_start, c.op_end, "contains"))
    elif c.op == "contains" and "=" in prop.operators:
        hint = f"`{prop.name}` holds one value: compare with `=`"
        if prop.type == "text":
            # `name contains "Berlin"` usually means a part of the name, which `=` is not
            hint += " (it matches the whole text, not a part of it)"
        if not is_list:
            fix = fix_of("unsafe" if prop.type == "text" else "safe", (c.op_start, c.op_end, "="))
    elif c.op == "in" and "=" in prop.operators and is_list:
        spread, fix = _spread(c, prop, "=", written, alone)
        several = isinstance(c.value, ListValue) and len(c.value.items) > 1
        hint = f"compare with `=`{' and join with `or`' if several else ''}: `{spread}`"
    return make("FLT003", message, c.op_start, c.op_end, hint, fix)


def _spread(
    c: Comparison, prop: PropertyInfo, op: str, written: Written, alone: bool
) -> tuple[str, Fix]:
    """`p in [a, b]` written as `p op a or p op b`, and the fix that rewrites it so.

    Parenthesized when it has several terms and stands beside other
    conditions, because `and` binds tighter than `or`.
    """
    assert isinstance(c.value, ListValue)
    parts = [_converted(prop, item, written(item.start, item.end)) for item in c.value.items]
    spread = " or ".join(f"{prop.name} {op} {text}" for text, _ in parts)
    replacement = f"({spread})" if len(parts) > 1 and not alone else spread
    safe = all(same for _, same in parts)
    return spread, fix_of("safe" if safe else "unsafe", (c.start, c.end, replacement))


def _value_problems(c: Comparison, prop: PropertyInfo, written: Written) -> list[Diagnostic]:
    value = c.value
    problems: list[Diagnostic] = []
    if c.op == "in" and not isinstance(value, ListValue):
        shown, same = _converted(prop, value, written(value.start, value.end))
        return [
            make(
                "FLT004",
                "`in` takes a list in `[ ]`, not a single value",
                value.start,
                value.end,
                f"write `{prop.name} in [{shown}]`",
                fix_of("safe" if same else "unsafe", (value.start, value.end, f"[{shown}]")),
            )
        ]
    if c.op != "in" and isinstance(value, ListValue):
        allowed = "in" in prop.operators
        return [
            make(
                "FLT004",
                f"`{c.op}` compares with one value, not a list",
                value.start,
                value.end,
                f"write `{prop.name} in {written(value.start, value.end)}`" if allowed else None,
                fix_of("safe", (c.op_start, c.op_end, "in")) if allowed else None,
            )
        ]
    items = value.items if isinstance(value, ListValue) else (value,)
    wrong = [item for item in items if not _fits(prop, item)]
    if wrong:
        if isinstance(value, ListValue):
            fixed_value = (
                "[" + ", ".join(_as_type(prop, i, written(i.start, i.end)) for i in items) + "]"
            )
        else:
            fixed_value = _as_type(prop, value, written(value.start, value.end))
        can_fix = all(_convertible(prop, item, written(item.start, item.end)) for item in wrong)
        hint = f"write `{prop.name} {c.op} {fixed_value}`" if can_fix else None
        for item in wrong:
            fix = _retyped(prop, item, written(item.start, item.end)) if can_fix else None
            problems.append(
                make("FLT004", _type_message(prop, item), item.start, item.end, hint, fix)
            )
    if prop.type == "enumeration" and prop.values:
        for item in items:
            if isinstance(item, EnumToken) and item.value not in prop.values:
                problems.append(_unknown_value(prop, item))
    return problems


def _fits(prop: PropertyInfo, item: Scalar) -> bool:
    kind = prop.type
    if isinstance(item, Unknown):
        # Unknown content is fine wherever the written value would be a bare token;
        # text needs the quotes around it in the filter itself.
        return kind != "text"
    if kind == "text":
        return isinstance(item, Text)
    if kind == "enumeration":
        return isinstance(item, EnumToken)
    if kind == "boolean":
        return isinstance(item, Boolean)
    if kind == "number":
        return isinstance(item, Number) and isinstance(item.value, int)
    return True


def _type_message(prop: PropertyInfo, item: Scalar) -> str:
    name = prop.name
    if isinstance(item, Number) and prop.type == "number":
        shown = item.raw if len(item.raw) <= 30 else f"{item.raw[:12]}...{item.raw[-12:]}"
        return (
            f"the number {shown} ({len(item.raw)} digits) is out of range: "
            f"`{name}` takes at most {MAX_NUMBER}"
        )
    if isinstance(item, Unknown):
        return f"the interpolated value stands unquoted, but `{name}` takes a text in double quotes"
    wants = {
        "text": "a text in double quotes",
        "enumeration": "an enumeration value without quotes",
        "boolean": "`true` or `false` without quotes",
        "number": "a number (digits, without quotes)",
    }[prop.type]
    got = {
        Text: "a quoted text",
        Number: "a number",
        Boolean: "a boolean",
        EnumToken: "a bare word" if prop.type == "text" else "an enumeration value",
    }[type(item)]
    return f"`{name}` takes {wants}, not {got}"


def _convertible(prop: PropertyInfo, item: Scalar, shown: str) -> bool:
    return _as_type(prop, item, shown) is not None and _as_type(prop, item, shown) != shown


def _converted(prop: PropertyInfo, item: Scalar, shown: str) -> tuple[str, bool]:
    """`_as_type`, and whether that keeps the value's meaning (False: its case changed)."""
    result = _as_type(prop, item, shown)
    if prop.type != "enumeration":
        return result, True
    inner = item.value if isinstance(item, Text) else shown
    return result, result == inner


def _retyped(prop: PropertyInfo, item: Scalar, shown: str) -> Fix:
    """The fix that writes one value in the property's type, touching only the quotes.

    Adding or removing the quotes alone leaves the value's own text (which
    may be an interpolation in source code) as it is written.
    """
    result, same = _converted(prop, item, shown)
    applicability: Applicability = "safe" if same else "unsafe"
    start, end = item.start, item.end
    if result == f'"{shown}"':
        return fix_of(applicability, (start, start, '"'), (end, end, '"'))
    if isinstance(item, Text) and shown == f'"{result}"':
        return fix_of(applicability, (start, start + 1, ""), (end - 1, end, ""))
    return fix_of(applicability, (start, end, result))


def _as_type(prop: PropertyInfo, item: Scalar, shown: str) -> str:
    """`item` written as a value of the property's type, as near as it can be."""
    kind = prop.type
    if kind == "text":
        if isinstance(item, Text):
            return shown
        return '"' + shown.replace("\\", "\\\\").replace('"', '\\"') + '"'
    inner = item.value if isinstance(item, Text) else shown
    if kind == "enumeration" and BARE.match(inner) and inner not in KEYWORDS:
        return {v.lower(): v for v in prop.values}.get(inner.lower(), inner)
    if kind == "boolean" and inner.lower() in ("true", "false"):
        return inner.lower()
    if kind == "number" and inner.isascii() and inner.isdigit():
        return inner
    return shown


def _unknown_value(prop: PropertyInfo, item: EnumToken) -> Diagnostic:
    known = ", ".join(prop.values)
    message = f"`{item.value}` is not a known value of `{prop.name}` (known: {known})"
    lowered = {v.lower(): v for v in prop.values}
    guess = lowered.get(item.value.lower())
    if guess is None:
        from difflib import get_close_matches  # only a value not found needs it

        close = get_close_matches(item.value, prop.values, n=1, cutoff=0.6)
        guess = close[0] if close else None
    if guess is not None:
        hint = f"did you mean `{guess}`? Values are case-sensitive"
        fix = fix_of("unsafe", (item.start, item.end, guess))
    elif prop.values_complete:
        hint = "these are all the values the server's own description (an overlay) lists"
        fix = None
    else:
        hint = (
            "the spec lists only some values (the registry adds those it assumes); "
            "the server may know more"
        )
        fix = None
    return make("FLT005", message, item.start, item.end, hint, fix, subject=prop.name)


def _not_applicable(c: Comparison, prop: PropertyInfo, kind: str | bool | None) -> Diagnostic:
    kinds = ", ".join(prop.applies_to)
    message = (
        f"`{prop.name}` applies to {kinds} objects only, not to the {kind} objects of this endpoint"
    )
    return make(
        "FLT006", message, c.prop_start, c.prop_end, f"use `{prop.name}` on {kinds} endpoints"
    )
