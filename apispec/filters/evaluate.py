"""Evaluate filters on object records, as the mock server does.

A filter is compiled once into nested Python closures, so testing a record
costs a few dictionary lookups and calls, not a walk over the syntax tree.

Records are dicts with the filterable fields as flat keys (`"basic.tags"`),
values as the API returns them: text as str, lists of text as list, booleans
as bool. Semantics (docs/filters.md): text comparison is case-sensitive; a
list-valued field equals a value when any element does; `!=` is the negation
of `=`, so a record without the field matches `!=`; `contains` asks whether
the value is among the field's values; `matches` (allowed on no property
today) is a case-insensitive substring test; `<`, `<=`, `>`, `>=` compare
numbers with numbers (numeric text counts) and text with text.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from apispec.filters.ast import (
    And,
    Comparison,
    Expr,
    FilterTree,
    ListValue,
    Not,
    Or,
    UnknownExpr,
)
from apispec.filters.diagnostics import Diagnostic
from apispec.filters.tree_builder import MAX_NUMBER, number_value
from apispec.support.exceptions import UsageError

if TYPE_CHECKING:
    from apispec.registry.model import Registry

Record = dict[str, Any]
Predicate = Callable[[Record], bool]

# Numeric text in a record beyond a filter's range: greater than, and unequal to, any target.
_BEYOND = MAX_NUMBER + 1
# The tree fields the relationship words follow: a record's id and its parent's id.
ID_FIELD = "id"
PARENT_FIELD = "parentid"


class FilterError(UsageError):
    """The filter text has errors; `diagnostics` says which and where."""

    def __init__(self, text: str, diagnostics: Sequence[Diagnostic]) -> None:
        self.text = text
        self.diagnostics = list(diagnostics)
        first = next((d for d in self.diagnostics if d.is_error), None)
        detail = f" at offset {first.start}: {first.message}" if first is not None else ""
        shown = text if len(text) <= 80 else text[:77] + "..."
        super().__init__(f"invalid filter {shown!r}{detail}")


class Filter:
    """A compiled filter: call it on one record, or `select` over a whole tree."""

    def __init__(self, text: str, tree: FilterTree, predicate: Predicate) -> None:
        self.text = text
        self.tree = tree
        self.relation = tree.relation
        self.predicate = predicate

    def __call__(self, record: Record) -> bool:
        if self.relation is not None:
            raise UsageError(
                f"the filter starts with `{self.relation}`: it selects among related "
                "records, so use Filter.select(records) with the whole tree"
            )
        return self.predicate(record)

    def __repr__(self) -> str:
        return f"Filter({self.text!r})"

    def select(self, records: Sequence[Record]) -> list[Record]:
        """The records the filter selects, in input order; `records` is the whole tree."""
        predicate = self.predicate
        return self.related(records, [r for r in records if predicate(r)])

    def related(self, records: Sequence[Record], matched: list[Record]) -> list[Record]:
        """What `select` answers once the expression has `matched` (in input order) among `records`.

        Apart, so that a caller may test records in its own way (in slices, with
        a deadline, only on the candidates an index gives) and still follow the
        relationship word as `select` does.
        """
        if self.relation is None:
            return matched
        if self.relation == "children":
            ids = {r.get(ID_FIELD) for r in matched}
            return [r for r in records if r.get(PARENT_FIELD) in ids]
        if self.relation == "parents":
            ids = {r.get(PARENT_FIELD) for r in matched}
            return [r for r in records if r.get(ID_FIELD) in ids]
        parent_of = {r.get(ID_FIELD): r.get(PARENT_FIELD) for r in records}
        if self.relation == "ancestors":
            ids = _ancestors(matched, parent_of)
            return [r for r in records if r.get(ID_FIELD) in ids]
        # descendants: records with a matched record among their ancestors
        roots = {r.get(ID_FIELD) for r in matched}
        below = _below(roots, parent_of)
        return [r for r in records if below(r.get(ID_FIELD))]


def _ancestors(matched: Iterable[Record], parent_of: dict[Any, Any]) -> set[Any]:
    found: set[Any] = set()
    for record in matched:
        current = parent_of.get(record.get(ID_FIELD))
        while current is not None and current in parent_of and current not in found:
            found.add(current)
            current = parent_of.get(current)
    return found


def _below(roots: set[Any], parent_of: dict[Any, Any]) -> Callable[[Any], bool]:
    """Is some strict ancestor of an id among `roots`? Memoized per id."""
    memo: dict[Any, bool] = {}

    def below(record_id: Any) -> bool:
        path = []
        current = parent_of.get(record_id)
        seen = {record_id}
        answer = False
        while current is not None and current not in seen:
            if current in memo:
                answer = memo[current] or current in roots
                break
            if current in roots:
                answer = True
                break
            path.append(current)
            seen.add(current)
            current = parent_of.get(current)
        for node in path:
            memo[node] = answer
        return answer

    return below


def compile(text: str, registry: Registry | None = None) -> Filter:
    """Check `text` and compile it; FilterError when it has errors (warnings are fine)."""
    from apispec.filters.check import check
    from apispec.filters.parse import parse

    diagnostics = check(text, registry=registry)
    if any(d.is_error for d in diagnostics):
        raise FilterError(text, diagnostics)
    tree = parse(text).tree
    assert tree is not None  # parse bounds the nesting, so the closures stay shallow
    return Filter(text, tree, predicate(tree.expr))


def predicate(expr: Expr) -> Predicate:
    """The closure that tests one record against `expr`."""
    if isinstance(expr, Comparison):
        return _comparison(expr)
    if isinstance(expr, And):
        return _every([predicate(e) for e in expr.operands])
    if isinstance(expr, Or):
        return _some([predicate(e) for e in expr.operands])
    if isinstance(expr, Not):
        inner = predicate(expr.operand)
        return lambda r: not inner(r)
    assert isinstance(expr, UnknownExpr)
    raise UsageError("a filter with interpolated parts cannot be evaluated")


# A chain of `and`/`or` is one loop, not nested closures: one frame per level
# of nesting, whatever the chain's length (a 1,500-term `or` once overflowed).
# Plain loops: all()/any() over a generator cost three times as much per record.


def _every(parts: list[Predicate]) -> Predicate:
    if len(parts) == 2:
        a, b = parts
        return lambda r: a(r) and b(r)

    def every(r: Record) -> bool:
        for part in parts:  # noqa: SIM110
            if not part(r):
                return False
        return True

    return every


def _some(parts: list[Predicate]) -> Predicate:
    if len(parts) == 2:
        a, b = parts
        return lambda r: a(r) or b(r)

    def some(r: Record) -> bool:
        for part in parts:  # noqa: SIM110
            if part(r):
                return True
        return False

    return some


def _comparison(c: Comparison) -> Predicate:
    key = c.prop
    op = c.op
    value = c.value
    if isinstance(value, ListValue):
        wanted = [v.value for v in value.items]
        if op == "in":
            return _member_of(key, wanted)
        raise UsageError(f"`{op}` compares with one value, not a list")
    target = value.value  # an enumeration token compares as its text
    if op == "in":
        return _member_of(key, [target])
    if op in ("=", "contains"):
        return _equal(key, target)
    if op == "!=":
        equal = _equal(key, target)
        return lambda r: not equal(r)
    if op == "matches":
        needle = str(target).lower()
        return lambda r: any(needle in str(x).lower() for x in _values(r.get(key)))
    return _ordered(key, op, target)


def _values(field: Any) -> list[Any]:
    if field is None:
        return []
    return field if isinstance(field, list) else [field]


def _equal(key: str, target: Any) -> Predicate:
    if isinstance(target, bool):
        spelled = "true" if target else "false"

        def equal_bool(r: Record) -> bool:
            x = r.get(key)
            return x is target or x == spelled or (x.__class__ is list and target in x)

        return equal_bool
    if isinstance(target, int):
        return lambda r: any(_number(x) == target for x in _values(r.get(key)))

    def equal(r: Record) -> bool:
        x = r.get(key)
        if x.__class__ is list:
            return target in x
        same: bool = x == target
        return same

    return equal


def _member_of(key: str, wanted: list[Any]) -> Predicate:
    if all(isinstance(w, str) for w in wanted):
        pool = frozenset(wanted)

        def member(r: Record) -> bool:
            x = r.get(key)
            if x.__class__ is list:
                return not pool.isdisjoint(x)
            return x in pool

        return member
    tests = [_equal(key, w) for w in wanted]
    return lambda r: any(t(r) for t in tests)


def _number(x: Any) -> int | None:
    if isinstance(x, bool):
        return None
    if isinstance(x, int):
        return x
    if isinstance(x, str) and x.isascii() and x.isdigit():
        value = number_value(x)  # numeric text of any length, never a failed conversion
        return value if isinstance(value, int) else _BEYOND
    return None


def _ordered(key: str, op: str, target: Any) -> Predicate:
    compare: Callable[[Any, Any], bool] = {
        "<": lambda a, b: a < b,
        "<=": lambda a, b: a <= b,
        ">": lambda a, b: a > b,
        ">=": lambda a, b: a >= b,
    }[op]
    if isinstance(target, int) and not isinstance(target, bool):

        def numeric(r: Record) -> bool:
            numbers = [n for n in map(_number, _values(r.get(key))) if n is not None]
            return any(compare(n, target) for n in numbers)

        return numeric
    text = str(target)
    return lambda r: any(isinstance(x, str) and compare(x, text) for x in _values(r.get(key)))
