"""PowerShell's names and where a literal stands: the lowering's helpers that read no IR.

A literal compared (`$Uri -like '*/devices'`, a `switch` arm, `-match`), used as a
hashtable key or an index is no request; one joined into a larger expression (`+`,
`-f`) is read with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

_SCOPES = ("script:", "global:", "local:", "private:", "using:", "variable:")
_MODULE_SCOPES = ("script:", "global:")
# Operators that compare or match a string: their literals are patterns, never requests.
_COMPARES = re.compile(
    r"-[ci]?(?:eq|ne|gt|ge|lt|le|like|notlike|match|notmatch|contains|notcontains|in|notin"
    r"|replace|split)$"
)
# Nodes a literal's value passes through unchanged on its way to a larger expression.
_CLIMB = frozenset(
    {
        "string_literal",
        "unary_expression",
        "array_literal_expression",
        "range_expression",
        "format_expression",
        "multiplicative_expression",
        "additive_expression",
        "comparison_expression",
        "bitwise_expression",
        "logical_expression",
        "parenthesized_expression",
        "pipeline",
        "pipeline_chain",
        "argument_expression",
        "cast_expression",
        "expression_with_unary_operator",
    }
)
_EXTENSIONS = (".psm1", ".ps1", ".psd1", ".dll")


def variable_name(written: str) -> str:
    """`$script:PrtgBase`, `${Server}`, `@params` -> `prtgbase`, `server`, `params`
    (`$env:X` keeps its drive: `env:x`)."""
    name = written.lstrip("$@")
    if name.startswith("{") and name.endswith("}"):
        name = name[1:-1]
    name = name.lower()
    for scope in _SCOPES:
        if name.startswith(scope):
            return name[len(scope) :]
    return name


def is_module_scoped(written: str) -> bool:
    """`$script:x` / `$global:x`: the script's variable, even when set inside a function."""
    name = written.lstrip("$@").lstrip("{").lower()
    return name.startswith(_MODULE_SCOPES)


def import_target(written: str) -> str:
    """The module a path or a name loads, dotted as files are (`../PrtgOps/PrtgOps.psm1`
    -> `PrtgOps.PrtgOps`, `PrtgTools` -> `PrtgTools`)."""
    parts = [p for p in re.split(r"[/\\]", written.strip("'\" \t")) if p not in ("", ".", "..")]
    if not parts:
        return ""
    last = parts[-1]
    for extension in _EXTENSIONS:
        if last.lower().endswith(extension):
            parts[-1] = last[: -len(extension)]
            break
    return ".".join(p for p in parts if p and not p.startswith("$"))


def string_root(node: Node, memo: dict[int, Node]) -> Node:
    """The whole expression a literal is part of: a concatenation, a `-f` format. `memo`
    keeps the answer for every node climbed, so the literals of one long chain climb it
    once together."""
    climbed: list[Node] = []
    root = node
    parent = node.parent
    while parent is not None and parent.type in _CLIMB:
        if parent.type == "comparison_expression" and _operator(parent) is not None:
            break
        known = memo.get(parent.id)
        if known is not None:
            root = known
            break
        climbed.append(root)
        root, parent = parent, parent.parent
    for seen in (*climbed, node):
        memo[seen.id] = root
    return root


def string_context(node: Node, text: Callable[[Node], str], memo: dict[int, str]) -> str:
    """Where a literal stands: "value", or why it is no request ("compare", "key"). The
    answer depends only on the nodes above, so `memo` keeps it for each node climbed."""
    climbed: list[Node] = []
    child, parent = node, node.parent
    found = None
    while parent is not None and parent.type in _CLIMB:
        climbed.append(child)
        operator = _operator(parent) if parent.type == "comparison_expression" else None
        if operator is not None and _COMPARES.match(text(operator).lower()):
            found = "compare"
            break
        if parent.type == "pipeline_chain" and _asserted(parent, text):
            found = "compare"  # `'/api/v2/x' | Should -Be $uri`: a test's expectation
            break
        found = memo.get(parent.id)  # what the nodes above the parent make of it
        if found is not None:
            break
        child, parent = parent, parent.parent
    if found is None:
        climbed.append(child)
        found = _context_in(child, parent, text)
    for seen in climbed:
        memo[seen.id] = found
    return found


def _context_in(child: Node, parent: Node | None, text: Callable[[Node], str]) -> str:
    """What the node an expression ends in makes of it."""
    if parent is None:
        return "value"
    kind = parent.type
    if kind in ("switch_clause_condition", "switch_condition"):
        return "compare"
    if kind == "key_expression":
        return "key"
    if kind == "element_access" and parent.named_children and parent.named_children[0] != child:
        return "key"
    if kind == "hash_entry":
        key = parent.named_children[0] if parent.named_children else None
        if key is not None and text(key).strip("'\"").lower() in ("href", "location"):
            return "href"
    return "value"


def _asserted(chain: Node, text: Callable[[Node], str]) -> bool:
    """Whether a pipeline hands its value to an assertion (Pester's `Should`)."""
    for command in chain.named_children:
        name = command.child_by_field_name("command_name") if command.type == "command" else None
        if name is not None and text(name).lower() == "should":
            return True
    return False


def _operator(node: Node) -> Node | None:
    return next((c for c in node.named_children if c.type == "comparison_operator"), None)


# Nodes that only wrap one expression (the grammar's precedence levels, a pipeline of
# one element, a statement list of one statement).
_WRAPPERS = frozenset(
    {
        "pipeline",
        "pipeline_chain",
        "logical_expression",
        "bitwise_expression",
        "comparison_expression",
        "additive_expression",
        "multiplicative_expression",
        "format_expression",
        "range_expression",
        "array_literal_expression",
        "unary_expression",
        "string_literal",
        "integer_literal",
        "argument_expression",
        "logical_argument_expression",
        "bitwise_argument_expression",
        "comparison_argument_expression",
        "additive_argument_expression",
        "multiplicative_argument_expression",
        "format_argument_expression",
        "range_argument_expression",
        "parenthesized_expression",
        "sub_expression",
        "statement_list",
        "statement_block",
        "script_block",
        "script_block_body",
        "key_expression",
        "while_condition",
        "left_assignment_expression",
    }
)
_SKIP = frozenset({"comment", "empty_statement", "command_argument_sep"})


def named(node: Node) -> list[Node]:
    return [c for c in node.named_children if c.type not in _SKIP]


def inner(node: Node) -> Node:
    """The expression a chain of one-child wrappers stands for."""
    while node.type in _WRAPPERS:
        children = named(node)
        if len(children) != 1:
            break
        node = children[0]
    return node
