"""The canonical spelling of a filter, and views of its structure for `explain`.

Canonical: one space around binary operators and after a relationship word,
`not(...)` without a space, lists as `[a, b]`, text re-quoted with only the
escapes it needs, and only the parentheses the precedence requires (`and`
binds tighter than `or`). `parse(format(x))` equals `parse(x)`.
"""

from __future__ import annotations

from apispec.filters.ast import (
    And,
    Boolean,
    Comparison,
    Expr,
    FilterTree,
    ListValue,
    Not,
    Number,
    Or,
    Text,
    UnknownExpr,
    Value,
)

_OR, _AND, _ATOM = 1, 2, 3


def format(text: str) -> str:
    """The canonical form of `text`; FilterError when it has syntax errors."""
    from apispec.filters.evaluate import FilterError
    from apispec.filters.parse import parse

    result = parse(text)
    if result.tree is None:
        raise FilterError(text, result.diagnostics)
    return format_tree(result.tree)


def format_tree(tree: FilterTree) -> str:
    body = format_expr(tree.expr)
    return f"{tree.relation} {body}" if tree.relation else body


def format_expr(expr: Expr, context: int = 0) -> str:
    if isinstance(expr, Or):
        joined = " or ".join(format_expr(e, _OR + 1) for e in expr.operands)
        return f"({joined})" if context > _OR else joined
    if isinstance(expr, And):
        joined = " and ".join(format_expr(e, _AND + 1) for e in expr.operands)
        return f"({joined})" if context > _AND else joined
    if isinstance(expr, Not):
        return f"not({format_expr(expr.operand)})"
    if isinstance(expr, UnknownExpr):
        return expr.value
    assert isinstance(expr, Comparison)
    return f"{expr.prop} {expr.op} {format_value(expr.value)}"


def format_value(value: Value) -> str:
    if isinstance(value, ListValue):
        return "[" + ", ".join(format_value(v) for v in value.items) + "]"
    if isinstance(value, Text):
        return quote(value.value)
    if isinstance(value, Boolean):
        return "true" if value.value else "false"
    if isinstance(value, Number):
        return str(value.value)
    return value.value


def quote(text: str) -> str:
    """`text` as a filter text value: double quotes, `\\` and `"` escaped."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def parenthesized(tree: FilterTree) -> str:
    """Every operation in its own parentheses, so the precedence is explicit."""

    def walk(expr: Expr) -> str:
        if isinstance(expr, Or | And):
            word = " or " if isinstance(expr, Or) else " and "
            return "(" + word.join(walk(e) for e in expr.operands) + ")"
        if isinstance(expr, Not):
            inner = walk(expr.operand)  # already in parentheses unless it is a `not(...)`
            return "not" + (inner if inner.startswith("(") else f"({inner})")
        return f"({format_expr(expr)})"

    body = walk(tree.expr)
    return f"{tree.relation} {body}" if tree.relation else body


def outline(tree: FilterTree) -> str:
    """The tree drawn with one node per line, children indented under their operator."""
    lines: list[str] = []

    def walk(expr: Expr, lead: str, child_lead: str) -> None:
        if isinstance(expr, Or | And | Not):
            label = {Or: "or", And: "and", Not: "not"}[type(expr)]
            lines.append(lead + label)
            children = expr.operands if isinstance(expr, Or | And) else (expr.operand,)
            for i, child in enumerate(children):
                last = i == len(children) - 1
                walk(
                    child,
                    child_lead + ("└─ " if last else "├─ "),
                    child_lead + ("   " if last else "│  "),
                )
        else:
            lines.append(lead + format_expr(expr))

    if tree.relation:
        lines.append(f"{tree.relation} (selects the {tree.relation} of the objects matching)")
        walk(tree.expr, "└─ ", "   ")
    else:
        walk(tree.expr, "", "")
    return "\n".join(lines)
