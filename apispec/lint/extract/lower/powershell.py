"""PowerShell lowered to the IR: commands with named parameters, splatting, expandable strings.

A command is a call whose arguments are named (`-Uri $u` is the keyword `uri`) or
positional; `@params` splats a hashtable into it (a `**` spread). PowerShell names
are case-insensitive, so variables, functions, commands and parameters are lowered in
lower case (hashtable keys stay as written: they are query names). A variable written
with its scope (`$script:Base`, `$global:Base`) is the script's own variable.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import (
    Arg,
    Attr,
    CallE,
    Concat,
    Cond,
    Each,
    Expr,
    Format,
    Function,
    Index,
    ListE,
    Lit,
    Mapping,
    Name,
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering
from apispec.lint.extract.lower import powershell_strings as strings
from apispec.lint.extract.lower.powershell_context import (
    import_target,
    inner,
    is_module_scoped,
    named,
    string_context,
    string_root,
    variable_name,
)
from apispec.lint.extract.lower.powershell_params import (
    POSITION,
    SWITCHES,
    declared_type,
    is_constructor,
    parameters,
)
from apispec.lint.extract.lower.powershell_repair import repaired

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.parse import Parsed

_TRUE_ONLY = frozenset({"$null", "$true", "$false"})


class PowerShellLowering(Lowering):
    language = "powershell"
    self_names = frozenset({"this"})
    function_types = frozenset(
        {"function_statement", "class_method_definition", "script_block_expression"}
    )
    kept_calls = re.compile(r"[a-z]+-[a-z]\w*")  # `Invoke-PRTGRestMethod -Path ... -Method Post`

    def __init__(self, parsed: Parsed) -> None:
        super().__init__(parsed)
        self._string_roots: dict[int, Node] = {}
        self._contexts: dict[int, str] = {}

    @classmethod
    def repair(cls, parsed: Parsed) -> Parsed | None:
        return repaired(parsed)

    def expr(self, node: Node) -> Expr:
        node = inner(node)
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- names, members, literals -------------------------------------------------

    def variable(self, node: Node) -> Expr:
        written = self.text(node)
        start, end = self.span(node)
        if written.lower() in _TRUE_ONLY:
            return self.opaque(node)  # `$null` is no text
        name = variable_name(written)
        if name.startswith("env:"):  # `$env:PRTG_URL`: an environment reader
            return Attr(Name("env", start, start + 4), name[4:], start, end)
        if name == "psboundparameters":
            return self._bound_parameters(node)
        return Name(name, start, end)

    def _bound_parameters(self, node: Node) -> Expr:
        """`$PSBoundParameters`: the function's parameters by name (`Invoke-Api
        @PSBoundParameters` hands each on)."""
        owner = node.parent
        while owner is not None and owner.type != "function_statement":
            owner = owner.parent
        start, end = self.span(node)
        if owner is None:
            return self.opaque(node)
        items: list[tuple[Expr | None, Expr]] = []
        for parameter in parameters(owner):
            variable = next((c for c in parameter.named_children if c.type == "variable"), None)
            if variable is not None:
                name = variable_name(self.text(variable))
                items.append((Str((Lit(name, start),), start, end), Name(name, start, end)))
        return Mapping(tuple(items), start, end)

    def _word(self, node: Node) -> Expr:
        """A bare word (`Post`, `./Prtg.psm1`, `/version` as a command argument)."""
        start, end = self.span(node)
        return Str((Lit(self.text(node), start),), start, end)

    def _member(self, node: Node) -> Expr:
        obj, member = node.named_children[0], node.named_children[-1]
        start, end = self.span(node)
        if member.type != "member_name":
            return self.opaque(node)
        return Attr(self.expr(obj), self.text(member), start, end)

    def _element(self, node: Node) -> Expr:
        children = named(node)
        start, end = self.span(node)
        if len(children) != 2:
            return self.opaque(node)
        return Index(self.expr(children[0]), self.expr(children[1]), start, end)

    def _type(self, node: Node) -> Expr:
        """`[uri]`, `[System.Web.HttpUtility]`: a type whose static members are called."""
        start, end = self.span(node)
        return Name(self.text(node).strip("[] \t").lower(), start, end)

    # -- operators --------------------------------------------------------------------

    def _additive(self, node: Node) -> Expr:
        """`$a + "/x" + $b`: the grammar nests a chain to the left, one level per `+`; its
        operands are collected down that spine (a long chain neither recurses nor copies
        a growing list per level)."""
        if not self._plus(node):
            return self.opaque(node)
        start, end = self.span(node)
        rights: list[Node] = []
        left = node
        while self._plus(left):
            children = named(left)
            rights.append(children[1])
            left = inner(children[0])
        parts: list[Expr] = []
        for side in (left, *reversed(rights)):
            value = self.expr(side)
            parts.extend(value.parts if isinstance(value, Concat) else (value,))
        return Concat(tuple(parts), start, end)

    def _plus(self, node: Node) -> bool:
        operator = node.children[1] if len(node.children) == 3 else None
        return (
            node.type == "additive_expression"
            and len(named(node)) == 2
            and operator is not None
            and self.text(operator) == "+"
        )

    def _format(self, node: Node) -> Expr:
        """`'{0}/groups/{1}' -f $base, $id`: .NET composite formatting."""
        children = named(node)
        start, end = self.span(node)
        if len(children) != 3 or children[1].type != "format_operator":
            return self.opaque(node)
        values = inner(children[2])
        items = named(values) if values.type == "array_literal_expression" else [values]
        args = tuple(Arg(self.expr(item)) for item in items)
        return Format(self.expr(children[0]), args, "brace", start, end)

    def _comparison(self, node: Node) -> Expr:
        """`$parts -join ' and '`: the joined text (other comparisons are no text)."""
        children = named(node)
        start, end = self.span(node)
        operator = self.text(children[1]).lower() if len(children) == 3 else ""
        if operator == "-join":
            separator = self.expr(children[2])
            items = Arg(self.expr(children[0]))
            return CallE("-join", separator, (items,), start, end, node.id)
        if operator in ("-replace", "-ireplace", "-creplace"):
            # a URL with some characters replaced (`-replace '(?<!:)//', '/'`) keeps its
            # shape: the pattern is a regular expression, read no further
            return self.expr(children[0])
        return self.opaque(node)

    def _unary(self, node: Node) -> Expr:
        """`-join $parts` (no separator), `,$x` (a one-item array), `[int]$x` (a cast)."""
        start, end = self.span(node)
        children = named(node)
        operator = self.text(node.children[0]).lower() if node.children else ""
        if len(children) == 1 and children[0].type == "cast_expression":
            return self.expr(children[0])
        if len(children) == 1 and operator == "-join":
            empty = Str((), start, start)
            return CallE("-join", empty, (Arg(self.expr(children[0])),), start, end, node.id)
        if len(children) == 1 and operator == ",":
            return ListE((self.expr(children[0]),), start, end)
        return self.opaque(node)

    def _cast(self, node: Node) -> Expr:
        """`[string]$x`, `[ordered]@{...}`, `[uri]"..."`: the value itself."""
        children = named(node)
        return self.expr(children[-1]) if len(children) == 2 else self.opaque(node)

    # -- collections ------------------------------------------------------------------

    def _hashtable(self, node: Node) -> Mapping:
        start, end = self.span(node)
        items: list[tuple[Expr | None, Expr]] = []
        body = next((c for c in node.named_children if c.type == "hash_literal_body"), None)
        for entry in named(body) if body is not None else []:
            parts = named(entry)
            if entry.type != "hash_entry" or len(parts) != 2:
                continue
            key = inner(parts[0])
            if key.type == "simple_name":
                at, until = self.span(key)
                key_expr: Expr = Str((Lit(self.text(key), at),), at, until)
            else:
                key_expr = self.expr(key)
            items.append((key_expr, self.expr(parts[1])))
        return Mapping(tuple(items), start, end)

    def _array(self, node: Node) -> Expr:
        """`@('a', 'b')`, `'a', 'b'`: the items (statements of `@(...)` each give theirs)."""
        start, end = self.span(node)
        items: list[Expr] = []
        for child in named(node):
            child = inner(child)
            if child.type == "array_literal_expression":
                items.extend(self.expr(c) for c in named(child))
            elif child.type == "statement_list":
                for statement in named(child):
                    value = self.expr(statement)
                    items.extend(value.items if isinstance(value, ListE) else (value,))
            else:
                items.append(self.expr(child))
        return ListE(tuple(items), start, end)

    def _chain(self, node: Node) -> Expr:
        """`$a || $b` (also PowerShell 7's `$a ?? $b` and `$c ? $a : $b`, read so by the
        repair): either value."""
        parts = named(node)
        tails = [p for p in parts if p.type == "pipeline_chain_tail"]
        if not tails or any(self.text(t) != "||" for t in tails):
            return self.opaque(node)
        start, end = self.span(node)
        return Cond(tuple(self.expr(p) for p in parts if p not in tails), start, end)

    def _pipeline(self, node: Node) -> Expr:
        """A pipeline's value is what its last command writes: unknown, but where a
        function's output is collected (`$x = foreach ...`) its statements say."""
        return self.opaque(node)

    # -- statements as values -----------------------------------------------------------

    def _if(self, node: Node) -> Expr:
        """`$path = if (...) { "/a" } else { "/b" }`: either branch's output."""
        start, end = self.span(node)
        blocks = [c for c in node.named_children if c.type == "statement_block"]
        for clause in node.named_children:
            if clause.type == "elseif_clauses":
                blocks.extend(
                    b
                    for c in clause.named_children
                    for b in c.named_children
                    if b.type == "statement_block"
                )
            elif clause.type == "else_clause":
                blocks.extend(b for b in clause.named_children if b.type == "statement_block")
        options = tuple(self._output(b) for b in blocks)
        return Cond(options, start, end) if options else self.opaque(node)

    def _switch(self, node: Node) -> Expr:
        """`$path = switch ($k) { 'a' { "/x" } default { "/y" } }`: any arm's output."""
        start, end = self.span(node)
        blocks: list[Node] = []
        stack = list(node.named_children)
        while stack:
            child = stack.pop(0)
            if child.type == "statement_block":
                blocks.append(child)
            elif child.type in ("switch_body", "switch_clauses", "switch_clause", "ERROR"):
                stack[:0] = child.named_children
        options = tuple(self._output(b) for b in blocks)
        return Cond(options, start, end) if options else self.opaque(node)

    def _foreach(self, node: Node) -> Expr:
        """`$pairs = foreach ($k in $q.Keys) { "$k=..." }`: the body's output, per pass."""
        start, end = self.span(node)
        block = next((c for c in node.named_children if c.type == "statement_block"), None)
        target = next((c for c in node.named_children if c.type == "variable"), None)
        iterable = next((c for c in node.named_children if c.type == "pipeline"), None)
        if block is None or target is None or iterable is None:
            return self.opaque(node)
        key = variable_name(self.text(target))
        return Each(self._output(block), key, self.expr(iterable), start, end)

    def _output(self, block: Node) -> Expr:
        """What a block writes: its last statement's value (a `throw` writes nothing)."""
        body = next((c for c in block.named_children if c.type == "statement_list"), block)
        statements = [s for s in named(body) if s.type != "flow_control_statement"]
        if not statements:
            return self.opaque(block)
        return self.expr(statements[-1])

    # -- calls --------------------------------------------------------------------------

    def _call_expr(self, node: Node) -> Expr:
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def call(self, node: Node) -> CallE | None:
        start, end = self.span(node)
        if node.type == "invokation_expression":
            return self._method_call(node, start, end)
        name = node.child_by_field_name("command_name")
        if name is None or name.type != "command_name":
            return None
        elements = node.child_by_field_name("command_elements")
        callee = self.text(name).lower()
        if elements is None:
            return CallE(callee, None, (), start, end, node.id)
        if callee == "new-object":
            return self._new_object(node, elements, start, end)
        return CallE(callee, None, None, start, end, node.id, lambda: self.command_args(elements))

    def _new_object(self, node: Node, elements: Node, start: int, end: int) -> CallE | None:
        """`New-Object System.Net.WebClient`, `New-Object Cls -ArgumentList $a, $b`: the
        type's constructor called with those arguments, as `[Cls]::new($a, $b)` is."""
        args = self.command_args(elements)
        positional = [a for a in args if a.name is None and not a.spread]
        kind = next((a for a in args if a.name == "typename"), None) or (
            positional.pop(0) if positional else None
        )
        if kind is None or not isinstance(kind.value, Str):
            return None
        written = "".join(p.text for p in kind.value.pieces if isinstance(p, Lit))
        given = next((a for a in args if a.name == "argumentlist"), None)
        values = [given] if given is not None else positional
        passed: list[Arg] = []
        for arg in values:
            items = arg.value.items if isinstance(arg.value, ListE) else (arg.value,)
            passed.extend(Arg(item) for item in items)
        return CallE(written, None, tuple(passed), start, end, node.id)

    def _method_call(self, node: Node, start: int, end: int) -> CallE | None:
        """`$q.Add('sort', 'name')`, `[uri]::EscapeDataString($f)`, `[Cls]::new($a)`."""
        children = named(node)
        member = next((c for c in children if c.type == "member_name"), None)
        if member is None or not children:
            return None
        callee = self.text(member).lower()
        arguments = next((c for c in children if c.type == "argument_list"), None)
        obj = children[0]
        if callee == "new" and obj.type == "type_literal":  # a class's constructor
            return CallE(
                self.text(obj).strip("[] \t"),
                None,
                None,
                start,
                end,
                node.id,
                lambda: self.method_args(arguments),
            )
        receiver = self.expr(obj)
        return CallE(
            callee, receiver, None, start, end, node.id, lambda: self.method_args(arguments)
        )

    def call_name(self, node: Node) -> str:
        if node.type == "invokation_expression":
            member = next((c for c in node.named_children if c.type == "member_name"), None)
            return self.text(member).lower() if member is not None else ""
        name = node.child_by_field_name("command_name")
        return self.text(name).lower() if name is not None else ""

    def method_args(self, node: Node | None) -> tuple[Arg, ...]:
        if node is None:
            return ()
        found = node.child_by_field_name("argument_expression_list")
        return tuple(Arg(self.expr(c)) for c in named(found)) if found is not None else ()

    def command_args(self, node: Node) -> tuple[Arg, ...]:
        """`-Uri $u -Method Post @params 'x'`: named, splatted and positional arguments."""
        items = [c for c in named(node) if c.type not in ("redirection", "redirections")]
        args: list[Arg] = []
        k = 0
        while k < len(items):
            item = items[k]
            if item.type == "command_parameter":
                name = self.text(item).lstrip("-").rstrip(":").lower()
                value = items[k + 1] if k + 1 < len(items) else None
                taken = (
                    value is not None
                    and value.type != "command_parameter"
                    and (name not in SWITCHES or self._colon_after(item))
                )
                if taken and value is not None:
                    args.append(Arg(self.expr(value), name))
                    k += 2
                    continue
                k += 1
                continue
            target = inner(item)
            if target.type == "variable" and self.text(target).startswith("@"):
                args.append(Arg(self.variable(target), None, "**"))  # `@params`: splatted
            else:
                args.append(Arg(self.expr(item)))
            k += 1
        return tuple(args)

    def _colon_after(self, parameter: Node) -> bool:
        """`-Force:$false`: a switch given its value."""
        following = parameter.next_sibling
        return following is not None and self.text(following) == ":"

    # -- functions ----------------------------------------------------------------------

    def function(self, node: Node) -> Function | None:
        start, end = self.span(node)
        if node.type == "script_block_expression":
            return None
        kind = "function_name" if node.type == "function_statement" else "simple_name"
        name_node = next((c for c in node.named_children if c.type == kind), None)
        if name_node is None:
            return None
        name = self.text(name_node).lower()
        if node.type == "class_method_definition" and is_constructor(node, name):
            name = "new"  # `[Cls]::new(...)` runs it
        return Function(
            node.id,
            name,
            start,
            end,
            lambda: self._signature(node),
            lambda: [self.lazy(n) for n in self.returned(node)],
        )

    def _signature(self, node: Node) -> tuple[Params, dict[str, str]]:
        """The parameters in the order positional arguments bind them: those given a
        `[Parameter(Position = n)]` by position, then the others as declared."""
        params: list[tuple[int, int, tuple[str, str, Expr | None]]] = []
        types: dict[str, str] = {}
        for order, parameter in enumerate(parameters(node)):
            variable = next((c for c in parameter.named_children if c.type == "variable"), None)
            if variable is None:
                continue
            name = variable_name(self.text(variable))
            default = next(
                (c for c in parameter.named_children if c.type == "script_parameter_default"),
                None,
            )
            value = named(default) if default is not None else []
            at = POSITION.search(self.text(parameter).split("$", 1)[0])
            position = int(at.group(1)) if at else 1 << 16
            params.append((position, order, (name, "", self.expr(value[0]) if value else None)))
            written = declared_type(parameter)
            if written:
                types[name] = written
        return [p for _, _, p in sorted(params, key=lambda p: p[:2])], types

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        target = inner(node)
        kind = target.type
        if kind == "variable":
            name = variable_name(self.text(target))
            return [] if name.startswith("env:") else [(name, None, -1)]
        if kind == "member_access":
            obj, member = named(target)[0], named(target)[-1]
            obj = inner(obj)
            field = self.text(member)
            if obj.type == "variable" and variable_name(self.text(obj)) in self.self_names:
                return [("@" + field, None, -1)]
            start, end = self.span(member)
            key = Str((Lit(field, start),), start, end)
            held = self.targets(obj)
            if len(held) == 1 and held[0][1] is None:  # `$request.Body = ...`: an entry
                return [(held[0][0], key, -1)]
            return []
        if kind == "element_access":
            children = named(target)
            held = self.targets(children[0]) if len(children) == 2 else []
            if len(held) == 1 and held[0][1] is None:
                return [(held[0][0], self.expr(children[1]), -1)]
            return []
        if kind == "cast_expression":  # `[string]$x = ...`
            return self.targets(named(target)[-1])
        return []

    def module_target(self, node: Node) -> bool:
        target = inner(node)
        while target.type in ("member_access", "element_access", "cast_expression"):
            target = inner(named(target)[0 if target.type != "cast_expression" else -1])
        return target.type == "variable" and is_module_scoped(self.text(target))

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        """`Import-Module ./Prtg.psm1`, `. "$PSScriptRoot/PrtgApi.ps1"`: every function of
        the module or script is loaded (`*` stands for all its names)."""
        name = node.child_by_field_name("command_name")
        if name is None:
            return
        if name.type == "command_name_expr":  # dot-sourcing: the script is the "name"
            written = self.text(name)
        else:
            elements = node.child_by_field_name("command_elements")
            args = self.command_args(elements) if elements is not None else ()
            found = next((a for a in args if a.name == "name"), None) or next(
                (a for a in args if a.name is None and not a.spread), None
            )
            if found is None:
                return
            written = self.model_text(found.value)
        module = import_target(written)
        if module:
            yield "*" + module, module

    def model_text(self, expr: Expr) -> str:
        """The literal text an import names (a path string, `Join-Path`'s last part)."""
        if isinstance(expr, CallE):
            parts = [a.value for a in expr.args if a.name is None]
            return self.model_text(parts[-1]) if parts else ""
        if isinstance(expr, Str):
            return "".join(p.text if isinstance(p, Lit) else "/" for p in expr.pieces)
        return ""

    def class_bases(self, node: Node) -> tuple[str, ...]:
        names = [c for c in node.named_children if c.type == "simple_name"]
        return tuple(self.text(n).lower() for n in names[1:])

    def string_root(self, node: Node) -> Node:
        return string_root(node, self._string_roots)

    def string_context(self, node: Node) -> str:
        return string_context(node, self.text, self._contexts)


_EXPRESSIONS: dict[str, Callable[[PowerShellLowering, Node], Expr]] = {
    "variable": PowerShellLowering.variable,
    "decimal_integer_literal": PowerShellLowering._number,
    "hexadecimal_integer_literal": PowerShellLowering._number,
    "real_literal": PowerShellLowering._number,
    "generic_token": PowerShellLowering._word,
    "member_access": PowerShellLowering._member,
    "element_access": PowerShellLowering._element,
    "type_literal": PowerShellLowering._type,
    "verbatim_string_characters": strings.verbatim,
    "verbatim_here_string_characters": strings.verbatim,
    "expandable_string_literal": strings.expandable,
    "expandable_here_string_literal": strings.expandable,
    "additive_expression": PowerShellLowering._additive,
    "format_expression": PowerShellLowering._format,
    "comparison_expression": PowerShellLowering._comparison,
    "expression_with_unary_operator": PowerShellLowering._unary,
    "cast_expression": PowerShellLowering._cast,
    "hash_literal_expression": PowerShellLowering._hashtable,
    "array_expression": PowerShellLowering._array,
    "array_literal_expression": PowerShellLowering._array,
    "pipeline": PowerShellLowering._chain,
    "pipeline_chain": PowerShellLowering._pipeline,
    "if_statement": PowerShellLowering._if,
    "switch_statement": PowerShellLowering._switch,
    "foreach_statement": PowerShellLowering._foreach,
    "command": PowerShellLowering._call_expr,
    "invokation_expression": PowerShellLowering._call_expr,
}

LOWERING = PowerShellLowering
