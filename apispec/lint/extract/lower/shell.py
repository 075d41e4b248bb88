"""Shell lowered to the IR: every command is a call whose arguments are its words.

A word is a string with interpolations: quoted and unquoted pieces joined,
`$VAR`, `${VAR}` (with a default: either), `$(...)` (the command's output: a call).
A function's parameters are the words its callers pass: `$1` is the first of them
(after `shift N`, the (N+1)-th), `"$@"` all of them (after a shift, those left),
both read through one rest parameter `@`. A function's value is what it prints
(`echo`, `printf` to standard output). A pipeline's value is its last command's,
reading the one before on its standard input (lowered as that call's receiver).
What a command's words mean (options, URL, headers) is the knowledge rows' business
(knowledge/shell.py, extract/commands.py), not this module's.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from apispec.lint.extract.ir import (
    Arg,
    CallE,
    Cond,
    Expr,
    Function,
    Index,
    Interp,
    ListE,
    Lit,
    Name,
    Opaque,
    Params,
    Str,
)
from apispec.lint.extract.lower import Lowering, query_cursor
from apispec.lint.extract.lower.strings import c_escapes, plain

if TYPE_CHECKING:
    from tree_sitter import Node

    from apispec.lint.extract.parse import Parsed

# Commands that run the command after them (`sudo curl ...`, a console's `$ curl ...`)
_PREFIXES = frozenset(
    {"sudo", "exec", "command", "nohup", "time", "env", "$", "%", "nice", "xargs", "timeout"}
)
# their options that take the next word as a value (`sudo -u svc curl`, `xargs -I{} curl`)
_PREFIX_VALUED = {
    "sudo": frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U"}),
    "xargs": frozenset({"-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a"}),
    "nice": frozenset({"-n"}),
    "env": frozenset({"-u", "-C", "-S"}),
    "timeout": frozenset({"-s", "-k"}),
}
# Commands that print their words for a person (or a log): no request, no value
_NAME = re.compile(r"[A-Za-z_]\w*")
_PRINTERS = frozenset({"echo", "printf", "logger", "log", "info", "warn", "die", "error"})
# what a backslash escapes between double quotes
_DOUBLE_QUOTED = '$`"\\\n'
# `${VAR op word}` operators whose result is the variable's value (or the word)
_DEFAULTS = frozenset({":-", "-", ":=", "="})
_CHECKS = frozenset({":?", "?"})
_TRIMS = frozenset({"%", "%%", "#", "##"})
_SPECIAL = re.compile(r"[0-9]+|[@*]")
_FILE = re.compile(r"[^\s/\0]+(?:/[^\s/\0]+)*\Z")
_PROMPT = re.compile(r"\$\s+(\S+)")
_PARAM = "@"  # the rest parameter every shell function has: the words it is called with


class ShellLowering(Lowering):
    language = "shell"
    function_types = frozenset({"function_definition"})

    def __init__(self, parsed: Parsed) -> None:
        super().__init__(parsed)
        self._shifts: dict[int, list[tuple[int, int]]] = {}

    def expr(self, node: Node) -> Expr:
        method = _EXPRESSIONS.get(node.type)
        return method(self, node) if method is not None else self.opaque(node)

    # -- words --------------------------------------------------------------------

    def _word(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((_unescaped(self.text(node), start, None),), start, end)

    def _number(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((Lit(self.text(node), start),), start, end)

    def _raw(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((plain(self.text(node)[1:-1], start + 1),), start, end)

    def _ansi(self, node: Node) -> Expr:
        start, end = self.span(node)
        return Str((c_escapes(self.text(node)[2:-1], start + 2),), start, end)

    def _string(self, node: Node) -> Expr:
        """`"..."`: literal runs (backslash escapes `$`, `` ` ``, `"`, `\\`) and expansions."""
        start, end = self.span(node)
        pieces: list[Lit | Expr] = []
        open_quote = 2 if self.text(node).startswith('$"') else 1
        at = node.start_byte + open_quote
        for child in node.named_children:
            if child.start_byte > at:
                pieces.append(self._quoted_run(at, child.start_byte))
            if child.type == "string_content":
                pieces.append(self._quoted_run(child.start_byte, child.end_byte))
            else:
                value = self._piece(child)
                pieces.extend(value.pieces if isinstance(value, Str) else (value,))
            at = child.end_byte
        if node.end_byte - 1 > at:
            pieces.append(self._quoted_run(at, node.end_byte - 1))
        return Str(tuple(p for p in pieces if not (isinstance(p, Lit) and not p.text)), start, end)

    def _quoted_run(self, start_byte: int, end_byte: int) -> Lit:
        raw = self.data[start_byte:end_byte].decode("utf-8", "surrogatepass")
        return _unescaped(raw, self.char(start_byte), _DOUBLE_QUOTED)

    def _recovered(self, node: Node) -> Expr:
        """Text the grammar could not read (`${self.api}`, a template's interpolation in a
        Terraform heredoc): each `${...}` an unknown piece, the words around it literal."""
        start, end = self.span(node)
        pieces: list[Lit | Expr] = []
        children = node.children
        k = 0
        while k < len(children):
            child = children[k]
            if child.type in ("${", "$("):
                closer = "}" if child.type == "${" else ")"
                j = k
                while j < len(children) and children[j].type != closer:
                    j += 1
                last = children[min(j, len(children) - 1)]
                at, until = self.char(child.start_byte), self.char(last.end_byte)
                text = self.parsed.text[at:until]
                pieces.append(Interp(Opaque(text, at, until), at, until))
                k = j + 1
                continue
            after = children[k + 1] if k + 1 < len(children) else None
            if (
                child.type == "$"
                and after is not None
                and after.type in ("word", "variable_name")
                and after.start_byte == child.end_byte
                and (m := re.match(r"[A-Za-z_]\w*", self.text(after)))
            ):
                at = self.char(child.start_byte)
                until = self.char(after.start_byte) + m.end()
                pieces.append(Interp(Name(m.group(0), at, until), at, until))
                if m.end() < len(self.text(after)):
                    pieces.append(Lit(self.text(after)[m.end() :], until))
                k += 2
                continue
            value = self._piece(child) if child.type in _EXPRESSIONS else None
            if value is None:
                at = self.char(child.start_byte)
                value = Lit(self.text(child), at)
            pieces.extend(value.pieces if isinstance(value, Str) else (value,))
            k += 1
        return Str(tuple(pieces), start, end)

    def _concatenation(self, node: Node) -> Expr:
        start, end = self.span(node)
        pieces: list[Lit | Expr] = []
        for child in node.children:
            value = self._piece(child)
            if isinstance(value, Str):
                pieces.extend(value.pieces)
            else:
                pieces.append(value)
        return Str(tuple(pieces), start, end)

    def _piece(self, node: Node) -> Lit | Expr:
        """One part of a word: literal text, or an expansion as an interpolation."""
        if node.type in ("simple_expansion", "expansion", "command_substitution"):
            start, end = self.span(node)
            return Interp(self.expr(node), start, end)
        if node.type == "arithmetic_expansion":
            start, end = self.span(node)
            return Interp(self.opaque(node), start, end)
        return self.expr(node)

    # -- expansions -----------------------------------------------------------------

    def _simple_expansion(self, node: Node) -> Expr:
        name = self.text(node)[1:]
        return self._variable(name, node)

    def _variable(self, name: str, node: Node) -> Expr:
        """`$NAME`; `$1` and `$@` are the words a function is called with."""
        start, end = self.span(node)
        if not _SPECIAL.fullmatch(name):
            if name[:1].isalpha() or name[:1] == "_":
                return Name(name, start, end)
            return self.opaque(node)
        function = _function_of(node)
        if function is None or name == "0":
            return self.opaque(node)  # the script's own arguments (or its name)
        shift = self._shift(function, node.start_byte)
        rest = Name(_PARAM, start, end)
        if name in ("@", "*"):
            if not shift:
                return rest
            return Index(rest, Str((Lit(f"{shift}:", start),), start, start), start, end)
        position = str(int(name) - 1 + shift)
        return Index(rest, Str((Lit(position, start),), start, start), start, end)

    def _shift(self, function: Node, before: int) -> int:
        """How many words `shift` dropped in `function` before byte `before`."""
        shifts = self._shifts.get(function.id)
        if shifts is None:
            shifts = []
            cursor = query_cursor("shell", "shell-shift")
            cursor.set_byte_range(function.start_byte, function.end_byte)
            for _, captures in cursor.matches(function):
                command = captures["shift"][0].parent
                if command is None or not _inside(command, function):
                    continue
                counts = command.children_by_field_name("argument")
                written = self.text(counts[0]) if counts else "1"
                shifts.append((command.end_byte, int(written) if written.isdigit() else 1))
            self._shifts[function.id] = shifts
        return sum(count for end, count in shifts if end <= before)

    def _expansion(self, node: Node) -> Expr:
        """`${NAME}`, `${NAME:-default}`, `${NAME%/}`, `${list[0]}`; other forms are unknown."""
        named = [c for c in node.named_children]
        if not named:
            return self.opaque(node)
        head = named[0]
        operator = node.child_by_field_name("operator")
        op = self.text(operator) if operator is not None else ""
        if head.type == "subscript":
            target = self._subscript(head)
        elif head.type in ("variable_name", "special_variable_name"):
            target = self._variable(self.text(head), node)
        else:
            return self.opaque(node)  # `${#x}`, `${!x}`
        if operator is None:
            return target if len(named) == 1 else self.opaque(node)
        rest = [c for c in node.children if c.start_byte >= operator.end_byte and c.is_named]
        if op in _CHECKS:
            return target
        if op in _DEFAULTS:
            start, end = self.span(node)
            default = self._joined(rest) if rest else Str((), start, start)
            return Cond((target, default), start, end)
        if op in _TRIMS and len(rest) == 1 and self.text(rest[0]) == "/":
            return target  # `${URL%/}`: the same URL without its last slash
        return self.opaque(node)

    def _subscript(self, node: Node) -> Expr:
        name = node.child_by_field_name("name")
        index = node.child_by_field_name("index")
        start, end = self.span(node)
        if name is None or index is None:
            return self.opaque(node)
        array = Name(self.text(name), start, end)
        if self.text(index) in ("@", "*"):
            return array  # the whole array
        return Index(array, self.expr(index), start, end)

    def _joined(self, nodes: list[Node]) -> Expr:
        pieces: list[Lit | Expr] = []
        for child in nodes:
            value = self._piece(child)
            pieces.extend(value.pieces if isinstance(value, Str) else (value,))
        start, end = self.char(nodes[0].start_byte), self.char(nodes[-1].end_byte)
        return Str(tuple(pieces), start, end)

    def _substitution(self, node: Node) -> Expr:
        """`$(...)`: what its last statement prints."""
        inner = [c for c in node.named_children if c.type != "comment"]
        return self.expr(inner[-1]) if inner else self.opaque(node)

    # -- commands -------------------------------------------------------------------

    def _command_expr(self, node: Node) -> Expr:
        call = self.call(node)
        return call if call is not None else self.opaque(node)

    def _pipeline(self, node: Node) -> Expr:
        """`a | b`: b's output, with a's output as what b reads (its receiver)."""
        commands = [c for c in node.named_children if c.type != "comment"]
        if not commands:
            return self.opaque(node)
        last = self.expr(commands[-1])
        if isinstance(last, CallE) and len(commands) > 1:
            last.receiver = self.expr(commands[-2])
        return last

    def _redirected(self, node: Node) -> Expr:
        body = node.child_by_field_name("body")
        return self.expr(body) if body is not None else self.opaque(node)

    def _words(self, node: Node) -> tuple[Node, list[Node]] | None:
        """The command's name node and its argument nodes, past `sudo`, `env X=1`, `$ `."""
        if node.type == "command_name":
            name, args = node, _recovered_arguments(node)
        else:
            found = node.child_by_field_name("name")
            if found is None:
                return None
            name, args = found, list(node.children_by_field_name("argument"))
        head = name.named_children[0] if name.named_children else name
        while self.text(head) in _PREFIXES and args:
            valued = _PREFIX_VALUED.get(self.text(head), frozenset())
            timed = self.text(head) == "timeout"  # `timeout 30 curl ...`: its duration first
            head = args.pop(0)
            while args and (
                self.text(head).startswith("-") or re.match(r"\w+=", self.text(head)) or timed
            ):
                timed = timed and self.text(head).startswith("-")
                if self.text(head) in valued and args:
                    args.pop(0)
                head = args.pop(0)
        if self.text(head) == "printf" and len(args) > 2 and self.text(args[0]) == "-v":
            args = args[2:]  # `printf -v NAME FORMAT ...`: an assignment of its output (shell.scm)
        return head, args

    def _callee(self, head: Node) -> str:
        """The command's name as written (a console's `$ curl` prompt dropped)."""
        if head.type == "word":
            return self.text(head)
        if head.type == "simple_expansion" and (m := _PROMPT.fullmatch(self.text(head))):
            return m.group(1)
        return ""

    def call_name(self, node: Node) -> str:
        words = self._words(node)
        return self._callee(words[0]) if words is not None else ""

    def call(self, node: Node) -> CallE | None:
        words = self._words(node)
        if words is None:
            return None
        head, args = words
        start, end = self.span(node)
        callee = self._callee(head)
        return CallE(callee, None, None, start, end, node.id, lambda: self._arguments(args))

    def _arguments(self, nodes: list[Node]) -> tuple[Arg, ...]:
        args: list[Arg] = []
        glued: list[Node] = []  # nodes with no space between them are one word
        for node in [*nodes, None]:
            if node is not None and glued and node.start_byte == glued[-1].end_byte:
                glued.append(node)
                continue
            if len(glued) > 1:
                pieces: list[Lit | Expr] = []
                for part in glued:
                    value = self._piece(part)
                    pieces.extend(value.pieces if isinstance(value, Str) else (value,))
                at, until = self.char(glued[0].start_byte), self.char(glued[-1].end_byte)
                args.append(Arg(Str(tuple(pieces), at, until)))
            elif glued:
                args.append(self._argument(glued[0]))
            glued = [node] if node is not None and node.type != "comment" else []
        return tuple(args)

    def _argument(self, node: Node) -> Arg:
        spread = self._spread(node)
        return Arg(spread, None, "*") if spread is not None else Arg(self.expr(node))

    def _spread(self, node: Node) -> Expr | None:
        """`"$@"`, `"${list[@]}"`, `$@`: several words, one per element."""
        inner = node
        if node.type == "string" and len(node.named_children) == 1:
            inner = node.named_children[0]
        written = self.text(inner)
        if inner.type == "simple_expansion" and written in ("$@", "$*"):
            return self.expr(inner)
        if inner.type == "expansion" and re.fullmatch(r"\$\{(?:@|\w+\[[@*]\])\}", written):
            return self.expr(inner)
        return None

    def _array(self, node: Node) -> Expr:
        start, end = self.span(node)
        return ListE(
            tuple(self.expr(c) for c in node.named_children if c.type != "comment"), start, end
        )

    def _loop_items(self, node: Node) -> Expr:
        """The words a `for` loop takes its variable through."""
        start, end = self.span(node)
        values = node.children_by_field_name("value")
        if len(values) == 1 and (spread := self._spread(values[0])) is not None:
            return spread
        return ListE(tuple(self.expr(v) for v in values), start, end)

    # -- functions, assignments, imports ---------------------------------------------

    def function(self, node: Node) -> Function | None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return None
        start, end = self.span(node)
        params: Params = [(_PARAM, "*", None)]
        return Function(
            node.id,
            self.text(name_node),
            start,
            end,
            lambda: (params, {}),
            lambda: [self.lazy(n) for n in self._printed(node)],
        )

    def _printed(self, function: Node) -> list[Node]:
        """The commands of the function that print to its standard output."""
        found = []
        for name in self.returned(function):
            command = name.parent
            if command is None or not _inside(command, function):
                continue
            parent = command.parent
            if parent is not None and parent.type == "redirected_statement":
                continue  # to a file or to standard error
            if parent is not None and parent.type in ("pipeline", "command_substitution"):
                continue  # read by another command
            found.append(command)
        return found

    def targets(self, node: Node) -> list[tuple[str, Expr | None, int | str]]:
        if node.type == "variable_name" or (
            node.type == "word" and _NAME.fullmatch(self.text(node))
        ):
            return [(self.text(node), None, -1)]
        if node.type == "subscript":
            name = node.child_by_field_name("name")
            index = node.child_by_field_name("index")
            if name is not None and index is not None:
                return [(self.text(name), self.expr(index), -1)]
        return []

    def imports(self, node: Node) -> Iterator[tuple[str, str]]:
        """`source PATH`: every function of that file is in scope (`*` + its module)."""
        command = node.parent
        if command is None or command.type != "command":
            return
        args = command.children_by_field_name("argument")
        if not args:
            return
        written = self.expr(args[0])
        tail = ""
        if isinstance(written, Str):
            for piece in reversed(written.pieces):
                if not isinstance(piece, Lit):
                    break
                tail = piece.text + tail
        m = _FILE.search(tail)
        path = m.group(0) if m else ""
        module = ".".join(
            p
            for p in re.sub(r"\.(?:sh|bash|zsh|ksh)$", "", path).split("/")
            if p not in ("", ".", "..")
        )
        yield ("*" + module, module) if module else ("*", "*")

    def string_context(self, node: Node) -> str:
        parent = node.parent
        if parent is None:
            return "value"
        kind = parent.type
        if kind in ("concatenation", "string", "expansion", "command_name", "subscript", "ERROR"):
            return "inner"
        if kind in ("binary_expression", "unary_expression", "test_command", "case_item"):
            return "compare"
        if kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
            return "doc"
        if kind == "command":
            words = self._words(parent)
            if words is not None and self.text(words[0]) in _PRINTERS:
                return "doc"
        return "value"


_WORDS = frozenset(
    {
        "word",
        "string",
        "raw_string",
        "ansi_c_string",
        "concatenation",
        "simple_expansion",
        "expansion",
        "number",
        "command_substitution",
    }
)
_SEPARATORS = frozenset({";", "|", "||", "&&", "&", ";;", "|&"})


def _recovered_arguments(name: Node) -> list[Node]:
    """The words after a command name the grammar left in an ERROR: up to the line's end
    or a command separator."""
    found = []
    sibling = name.next_sibling
    row = name.end_point[0]
    while sibling is not None and sibling.start_point[0] == row:
        if sibling.type in _SEPARATORS:
            break
        if sibling.type in _WORDS:
            found.append(sibling)
        row = sibling.end_point[0] if sibling.type in _WORDS else row
        sibling = sibling.next_sibling
    return found


def _inside(node: Node, function: Node) -> bool:
    """Whether `function` is the innermost function around `node`."""
    owner = _function_of(node)
    return owner is not None and owner.id == function.id


def _function_of(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None:
        if parent.type == "function_definition":
            return parent
        parent = parent.parent
    return None


def _unescaped(raw: str, start: int, escapable: str | None) -> Lit:
    """`raw` with its backslash escapes undone, each character keeping its offset: in an
    unquoted word (`escapable` None) a backslash keeps any next character, between double
    quotes only those of `_DOUBLE_QUOTED`; a backslash before a line end joins lines."""
    if "\\" not in raw:
        return Lit(raw, start)
    chars: list[str] = []
    offsets: list[int] = []
    i = 0
    while i < len(raw):
        if raw[i] == "\\" and i + 1 < len(raw) and (escapable is None or raw[i + 1] in escapable):
            if raw[i + 1] != "\n":
                chars.append(raw[i + 1])
                offsets.append(start + i + 1)
            i += 2
            continue
        chars.append(raw[i])
        offsets.append(start + i)
        i += 1
    return Lit("".join(chars), start, tuple(offsets))


_EXPRESSIONS = {
    "word": ShellLowering._word,
    "number": ShellLowering._number,
    "raw_string": ShellLowering._raw,
    "ansi_c_string": ShellLowering._ansi,
    "string": ShellLowering._string,
    "translated_string": ShellLowering._string,
    "concatenation": ShellLowering._concatenation,
    "simple_expansion": ShellLowering._simple_expansion,
    "expansion": ShellLowering._expansion,
    "command_substitution": ShellLowering._substitution,
    "command": ShellLowering._command_expr,
    "pipeline": ShellLowering._pipeline,
    "redirected_statement": ShellLowering._redirected,
    "array": ShellLowering._array,
    "for_statement": ShellLowering._loop_items,
    "ERROR": ShellLowering._recovered,
}

LOWERING = ShellLowering
