"""PowerShell's parameters as the grammar writes them: a function's declared parameters
(inline, in a `param(...)` block, a class method's list), their declared types and
positions, and the web cmdlets' switches (parameters that take no value)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

# Parameters of the web cmdlets and common parameters that take no value: the word
# after them is the next argument, never theirs.
SWITCHES = frozenset(
    {
        "usebasicparsing",
        "skipcertificatecheck",
        "skiphttperrorcheck",
        "skipheadervalidation",
        "disablekeepalive",
        "nonproxy",
        "noproxy",
        "allowunencryptedauthentication",
        "followrellink",
        "passthru",
        "force",
        "compress",
        "ashashtable",
        "raw",
        "whatif",
        "confirm",
        "verbose",
        "debug",
        "recurse",
    }
)
POSITION = re.compile(r"(?i)\bPosition\s*=\s*(\d+)")


def is_constructor(node: Node, name: str) -> bool:
    owner = node.parent
    while owner is not None and owner.type != "class_statement":
        owner = owner.parent
    if owner is None:
        return False
    class_name = next((c for c in owner.named_children if c.type == "simple_name"), None)
    return class_name is not None and (class_name.text or b"").decode().lower() == name


def parameters(node: Node) -> list[Node]:
    """A function's parameters: inline (`function F($a, $b)`), a `param(...)` block, or a
    class method's list."""
    found: list[Node] = []
    for child in node.named_children:
        if child.type in ("function_parameter_declaration", "class_method_parameter_list"):
            found.extend(_parameter_nodes(child))
        elif child.type == "script_block":
            block = next((c for c in child.named_children if c.type == "param_block"), None)
            if block is not None:
                found.extend(_parameter_nodes(block))
    return found


def _parameter_nodes(node: Node) -> list[Node]:
    if node.type in ("script_parameter", "class_method_parameter"):
        return [node]
    found: list[Node] = []
    for child in node.named_children:
        if child.type in ("parameter_list", "script_parameter", "class_method_parameter"):
            found.extend(_parameter_nodes(child))
    return found


def declared_type(parameter: Node) -> str:
    """`[PrtgClient]$Client`: the type a parameter is declared with (the last one given)."""
    written = ""
    for child in parameter.named_children:
        for literal in [child] if child.type == "type_literal" else child.named_children:
            kind = literal if literal.type == "type_literal" else None
            if kind is None and literal.type == "attribute":
                kind = next((c for c in literal.named_children if c.type == "type_literal"), None)
            if kind is not None and kind.text is not None:
                written = kind.text.decode().strip("[] \t").lower()
    return written
