"""JavaScript and TypeScript functions, assignment targets and imports, lowered to the IR.

Functions are declarations, expressions and arrows bound to a name (`const get =
(p) => ...`, `get: function (p) {...}`, a class property), methods (an object
literal's belong to the name it is bound to); parameters have defaults, rests,
declared types, and destructuring patterns (`{ method = "GET", query }`) whose names
are members of one argument. Targets destructure by position or by key; imports are
ES imports, `require` and `await import`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import Expr, Function, Lit, Members, Params, Str

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.lower import Lowering

# expressions that stand for what they wrap (TypeScript's assertions, `await`, brackets)
WRAPPERS = frozenset(
    {
        "parenthesized_expression",
        "await_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "type_assertion",
    }
)
FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_PARAMETERS = frozenset({"required_parameter", "optional_parameter"})
_BINDERS = frozenset({"identifier", "property_identifier", "private_property_identifier"})
_LOADERS = frozenset({"require", "import"})  # a module loaded by a call

Target = tuple[str, Expr | None, int | str]


def named(node: Node) -> Iterator[Node]:
    """The node's named children, comments left out."""
    for child in node.named_children:
        if child.type != "comment":
            yield child


def function(lowering: Lowering, node: Node) -> Function:
    """A function, its signature read from the tree when value flow first asks for it."""
    start, end = lowering.span(node)
    name_node = node.child_by_field_name("name")
    name = lowering.text(name_node) if name_node is not None else _bound_name(lowering, node)
    signature = cache(lambda: _signature(lowering, node))
    return Function(
        node.id,
        name,
        start,
        end,
        lambda: signature()[:2],
        lambda: _returns(lowering, node),
        owner=_object_owner(lowering, node),
        exported=not name.startswith("#") and _accessible(node),
        members=lambda: signature()[2],
    )


def _signature(lowering: Lowering, node: Node) -> tuple[Params, dict[str, str], Members]:
    """Parameters, declared types, and the names destructured parameters bind."""
    params_node = node.child_by_field_name("parameters")
    if params_node is None and node.type == "arrow_function":
        params_node = node.child_by_field_name("parameter")  # `x => ...`
    params: Params = []
    types: dict[str, str] = {}
    members: Members = {}
    if params_node is not None and params_node.type == "identifier":
        params.append((lowering.text(params_node), "", None))
    elif params_node is not None:
        params, types, members = _params(lowering, params_node)
    return params, types, members


def _returns(lowering: Lowering, node: Node) -> list[Callable[[], Expr]]:
    """What the function returns (an arrow's expression body is one), found when asked."""
    returns = [lowering.lazy(found) for found in lowering.returned(node)]
    body = node.child_by_field_name("body")
    if node.type == "arrow_function" and body is not None and body.type != "statement_block":
        returns.append(lowering.lazy(body))  # `(id) => `/devices/${id}``
    return returns


def _params(lowering: Lowering, node: Node) -> tuple[Params, dict[str, str], Members]:
    params: Params = []
    types: dict[str, str] = {}
    members: Members = {}
    for child in named(node):
        pattern, default = child, None
        if child.type in _PARAMETERS:
            found = child.child_by_field_name("pattern")
            if found is None or found.type == "this":
                continue
            pattern = found
            value = child.child_by_field_name("value")
            default = lowering.expr(value) if value is not None else None
            written = child.child_by_field_name("type")
            if written is not None and pattern.type == "identifier":
                types[lowering.text(pattern)] = _type_name(lowering.text(written))
        if pattern.type == "assignment_pattern":
            left = pattern.child_by_field_name("left")
            right = pattern.child_by_field_name("right")
            default = lowering.expr(right) if right is not None else None
            pattern = left if left is not None else pattern
        if pattern.type == "identifier":
            params.append((lowering.text(pattern), "", default))
        elif pattern.type == "rest_pattern":
            inner = [c for c in named(pattern) if c.type == "identifier"]
            params.append((lowering.text(inner[0]) if inner else "", "*", None))
        else:  # a destructured parameter: its place, and the names it binds
            position = len(params)
            params.append((f"{{{position}}}", "", default))
            if pattern.type == "object_pattern":
                for local, key, value_default in _member_defaults(lowering, pattern):
                    members[local] = (position, key, value_default)
    return params, types, members


def _member_defaults(lowering: Lowering, node: Node) -> Iterator[tuple[str, str, Expr | None]]:
    """`{ method = "GET", query, headers: h }`: each local, the key it takes, its default."""
    defaults: dict[str, Expr] = {}
    for child in named(node):
        if child.type == "object_assignment_pattern":
            left = child.child_by_field_name("left")
            right = child.child_by_field_name("right")
            if left is not None and right is not None:
                defaults[lowering.text(left)] = lowering.expr(right)
    for local, _, key in members_of(lowering, node):
        if isinstance(key, str):
            yield local, key, defaults.get(local)


def mapped_body(arguments: Node) -> Node | None:
    """The expression an `.map(x => expr)` callback returns for each element."""
    args = list(named(arguments))
    if len(args) != 1 or args[0].type not in FUNCTIONS:
        return None
    body = args[0].child_by_field_name("body")
    if body is None or body.type != "statement_block":
        return body
    statements = list(named(body))
    if len(statements) == 1 and statements[0].type == "return_statement":
        inner = list(named(statements[0]))
        return inner[0] if inner else None
    return None


def _bound_name(lowering: Lowering, node: Node) -> str:
    """The name a function expression is bound to: `const get = (p) => ...`, `get: function`."""
    parent = node.parent
    while parent is not None and parent.type in WRAPPERS:
        parent = parent.parent
    if parent is None:
        return ""
    named_by: Node | None = None
    if parent.type == "variable_declarator":
        named_by = parent.child_by_field_name("name")
    elif parent.type == "assignment_expression":
        named_by = parent.child_by_field_name("left")
        if named_by is not None and named_by.type == "member_expression":
            named_by = named_by.child_by_field_name("property")  # `exports.get = ...`
    elif parent.type == "pair":
        named_by = parent.child_by_field_name("key")
    elif parent.type in ("public_field_definition", "field_definition"):
        named_by = parent.child_by_field_name("name") or parent.child_by_field_name("property")
    if named_by is None or named_by.type not in (*_BINDERS, "string"):
        return ""
    return lowering.text(named_by).strip("'\"")


def _object_owner(lowering: Lowering, node: Node) -> str | None:
    """`const api = { get(path) {...} }`: a method of an object literal bound to a name
    belongs to that name, as a class's method to its class."""
    holder = node.parent
    if holder is not None and holder.type == "pair":
        holder = holder.parent
    if holder is None or holder.type != "object":
        return None
    parent = holder.parent
    while parent is not None and parent.type in WRAPPERS:
        parent = parent.parent
    if parent is None or parent.type != "variable_declarator":
        return None
    name = parent.child_by_field_name("name")
    return lowering.text(name) if name is not None and name.type == "identifier" else None


def _accessible(node: Node) -> bool:
    """A method marked `private` is not called from other files."""
    for child in node.children:
        if child.type == "accessibility_modifier":
            return child.text is None or child.text.decode() != "private"
    return True


def _type_name(written: str) -> str:
    """`: PrtgClient | undefined`, `: Promise<X>` -> the class the value is (`PrtgClient`)."""
    first = written.lstrip(":").strip().split("|")[0].strip()
    return first.split("<")[0].strip()


# -- assignment targets ------------------------------------------------------------------


def targets(lowering: Lowering, node: Node) -> list[Target]:
    parent = node.parent
    if parent is not None and parent.type == "variable_declarator" and loaded_module(parent):
        return []  # `const x = require("m")`: an import (see `imports`)
    if node.type in _BINDERS:
        if parent is not None and parent.type in (*_PARAMETERS, "method_definition"):
            return [("@" + lowering.text(node), None, -1)]  # a parameter property, a getter
        return [(lowering.text(node), None, -1)]
    if node.type == "member_expression":
        return _member_target(lowering, node)
    if node.type == "subscript_expression":
        obj = node.child_by_field_name("object")
        index = node.child_by_field_name("index")
        if obj is None or index is None:
            return []
        inner = targets(lowering, obj)
        if len(inner) == 1 and inner[0][1] is None:
            return [(inner[0][0], lowering.expr(index), -1)]
        return []
    if node.type == "array_pattern":
        found: list[Target] = []
        for position, child in enumerate(named(node)):
            if child.type == "assignment_pattern":
                child = child.child_by_field_name("left") or child
            if child.type == "identifier":
                found.append((lowering.text(child), None, position))
        return found
    if node.type == "object_pattern":
        return list(members_of(lowering, node))
    return []


def _member_target(lowering: Lowering, node: Node) -> list[Target]:
    """`this.base = ...` sets a field; `params.sort = ...` an entry of `params`."""
    obj = node.child_by_field_name("object")
    prop = node.child_by_field_name("property")
    if obj is None or prop is None:
        return []
    if obj.type == "this":
        return [("@" + lowering.text(prop), None, -1)]
    if obj.type == "identifier":
        start, end = lowering.span(prop)
        return [(lowering.text(obj), Str((Lit(lowering.text(prop), start),), start, end), -1)]
    return [(lowering.text(node), None, -1)]


def members_of(lowering: Lowering, node: Node) -> Iterator[Target]:
    """`{ path, params: query, limit = 10 }`: each local takes its key's entry."""
    for child in named(node):
        if child.type == "shorthand_property_identifier_pattern":
            yield lowering.text(child), None, lowering.text(child)
        elif child.type == "object_assignment_pattern":
            left = child.child_by_field_name("left")
            if left is not None:
                yield lowering.text(left), None, lowering.text(left)
        elif child.type == "pair_pattern":
            key = child.child_by_field_name("key")
            value = child.child_by_field_name("value")
            if value is not None and value.type == "assignment_pattern":
                value = value.child_by_field_name("left")
            if key is not None and value is not None and value.type == "identifier":
                yield lowering.text(value), None, lowering.text(key).strip("'\"")


# -- imports ------------------------------------------------------------------------------


def imports(lowering: Lowering, node: Node) -> Iterator[tuple[str, str]]:
    """Local name -> `module` (a default or namespace import) or `module.name`."""
    if node.type == "variable_declarator":
        yield from _required(lowering, node)
        return
    source = node.child_by_field_name("source")
    if source is None:
        return
    module = lowering.text(source)[1:-1]
    for clause in named(node):
        if clause.type != "import_clause":
            continue
        for child in named(clause):
            if child.type == "identifier":  # the default export
                yield lowering.text(child), module
            elif child.type == "namespace_import":
                names = [c for c in named(child) if c.type == "identifier"]
                if names:
                    yield lowering.text(names[0]), module
            elif child.type == "named_imports":
                yield from _specifiers(lowering, child, module)


def _specifiers(lowering: Lowering, node: Node, module: str) -> Iterator[tuple[str, str]]:
    for spec in named(node):
        if spec.type != "import_specifier":
            continue
        name = spec.child_by_field_name("name")
        alias = spec.child_by_field_name("alias")
        if name is not None:
            local = alias if alias is not None else name
            yield lowering.text(local), f"{module}.{lowering.text(name).strip(chr(34) + chr(39))}"


def _required(lowering: Lowering, node: Node) -> Iterator[tuple[str, str]]:
    """`const x = require("m")`, `const { a, b: c } = await import("m")`."""
    module = loaded_module(node)
    target = node.child_by_field_name("name")
    if not module or target is None:
        return
    if target.type == "identifier":
        yield lowering.text(target), module
    elif target.type == "object_pattern":
        for local, _, key in members_of(lowering, target):
            yield local, f"{module}.{key}"


def loaded_module(declarator: Node) -> str:
    """The module `const x = require("m")` (or `await import("m")`) loads, else ""."""
    value = declarator.child_by_field_name("value")
    if value is not None and value.type == "await_expression":
        inner = list(named(value))
        value = inner[0] if inner else None
    if value is None or value.type != "call_expression":
        return ""
    called = value.child_by_field_name("function")
    arguments = value.child_by_field_name("arguments")
    if called is None or arguments is None or called.text is None:
        return ""
    if called.text.decode() not in _LOADERS:
        return ""
    args = list(named(arguments))
    if len(args) != 1 or args[0].type != "string" or args[0].text is None:
        return ""
    return args[0].text.decode("utf-8", "replace")[1:-1]
