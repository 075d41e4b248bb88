"""Shell inside build files, found with positions mapped back: a Makefile's recipes
(its variables expanded, `$$` a shell `$`) and a Dockerfile's `RUN` and `CMD` lines
(shell form as written, exec form quoted back into a command line; `ENV` and `ARG`
assignments before them).

Apart from regions.py (notebooks and literals holding code, read on the file's own
tree) because build files are read on their own grammars and have their own
expansion rules.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from apispec.lint.extract.parse import Parsed, parse
from apispec.lint.extract.regions import Region, decode
from apispec.lint.languages.table import shebang_language

if TYPE_CHECKING:
    from tree_sitter import Node


# -- Makefiles ------------------------------------------------------------------------

_MAKE_ASSIGN = re.compile(
    r"[ \t]*(?:(?:export|override)[ \t]+)*(?P<name>[A-Za-z_.][\w.-]*)[ \t]*"
    r"(?P<op>::?=|:::=|\?=|\+=|!=|=)[ \t]*"
)
_MAKE_RULE = re.compile(r"(?P<targets>[^\t#:=][^#=]*?)::?(?![=:])(?P<rest>.*)")
_MAKE_DIRECTIVE = re.compile(
    r"[ \t]*(?:ifn?eq|ifn?def|else|endif|include|-include|sinclude|vpath)\b"
)
_MAKE_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_AUTOMATIC = "@<^?*%+|"
_HOLE = "${_}"  # a value make computes (a function, an automatic variable): unknown


@dataclass
class _Makefile:
    """One Makefile read: its variables (name -> value text and offsets) and recipes."""

    text: str
    # every definition in order (name, operator, value, offsets), and each variable's
    # value at the end of the file (`+=` appended), with whether it is several words
    definitions: list[tuple[str, str, str, list[int]]] = field(default_factory=list)
    variables: dict[str, tuple[str, list[int], bool]] = field(default_factory=dict)

    def define(self, name: str, op: str, value: str, where: list[int]) -> None:
        self.definitions.append((name, op, value, where))
        known = self.variables.get(name)
        if op == "+=" and known is not None and known[0]:
            value, where = known[0] + " " + value, [*known[1], known[1][-1], *where]
        self.variables[name] = (value, where, len(_shell_words(value)) > 1)

    def value_of(self, lo: int, hi: int) -> tuple[str, list[int]]:
        """A variable's value, its continuation lines joined by a space (make's rule)."""
        chars: list[str] = []
        where: list[int] = []
        i = lo
        while i < hi:
            if self.text.startswith("\\\n", i):
                chars.append(" ")
                where.append(i)
                i += 2
                while i < hi and self.text[i] in " \t":
                    i += 1
                continue
            chars.append(self.text[i])
            where.append(i)
            i += 1
        while chars and chars[-1] in " \t\r":
            chars.pop()
            where.pop()
        return "".join(chars), where


def makefile(text: str) -> list[Region]:
    """A Makefile's recipes as one shell script, with its variables as shell variables.

    Every variable definition becomes a shell assignment at the top (make reads them
    all before it runs a recipe), then every recipe line follows (its `@`, `-`, `+`
    prefix dropped). `$(NAME)` and `${NAME}` read as `${NAME}`, `$$` as `$`,
    `$(shell ...)` as `$(...)`; a variable whose value is several words, or names the
    command a recipe line runs (`$(CURL) $(API)/x`), is pasted as make pastes it, so
    the shell reads its words. Each character keeps its offset in the Makefile.
    """
    make = _Makefile(text)
    lines = _make_lines(text)
    recipes: list[tuple[int, int]] = []
    in_rule = False
    for start, end in lines:
        line = text[start:end]
        if line.startswith("\t"):
            if in_rule:
                recipes.append((start + 1, end))
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#") or _MAKE_DIRECTIVE.match(line):
            continue
        assign = _MAKE_ASSIGN.match(line)
        rule = _MAKE_RULE.match(line)
        if rule is not None and assign is None:  # `target: VAR = value`: for that target
            assign = _MAKE_ASSIGN.match(line, rule.start("rest"))
        if assign is not None and (rule is None or rule.start("rest") <= assign.start("name")):
            value, where = make.value_of(start + assign.end(), end)
            value, where = _uncommented(value, where)
            make.define(_shell_name(assign.group("name")), assign.group("op"), value, where)
            in_rule = False
            continue
        in_rule = rule is not None
        if rule is not None and ";" in rule.group("rest"):
            at = start + rule.start("rest") + rule.group("rest").index(";") + 1
            recipes.append((at, end))
    region = Region("shell")
    for name, op, value, where in make.definitions:
        code, offsets = _make_expand(make, value, where, 0)
        at = where[0] if where else 0
        opener = {"+=": f'{name}="${{{name}}} ', "!=": f'{name}="$('}.get(op, f'{name}="')
        closer = ')"\n' if op == "!=" else '"\n'
        region.add(opener, [at] * len(opener))
        region.add(_quoted(code), _quoted_offsets(code, offsets))
        region.add(closer, [where[-1] + 1 if where else at] * len(closer))
    for start, end in recipes:
        while start < end and text[start] in "@-+ \t":
            start += 1
        code, offsets = _make_expand(make, text[start:end], list(range(start, end)), 0, True)
        region.add(code + "\n", [*offsets, end])
    return [region] if recipes else []


def _make_lines(text: str) -> list[tuple[int, int]]:
    """Logical lines: a backslash before the line end continues the line."""
    found = []
    at = 0
    while at < len(text):
        end = text.find("\n", at)
        while end > 0 and text[end - 1] == "\\":
            end = text.find("\n", end + 1)
        end = len(text) if end < 0 else end
        found.append((at, end))
        at = end + 1
    return found


def _uncommented(value: str, where: list[int]) -> tuple[str, list[int]]:
    cut = value.find("#")
    while cut > 0 and value[cut - 1] == "\\":
        cut = value.find("#", cut + 1)
    if cut < 0:
        return value, where
    return value[:cut].rstrip(), where[: len(value[:cut].rstrip())]


def _shell_name(name: str) -> str:
    return re.sub(r"\W", "_", name)


def _shell_words(value: str) -> list[str]:
    """Words as the shell splits them (quotes keep spaces), for counting."""
    return re.findall(r"(?:\"[^\"]*\"|'[^']*'|[^\s\"'])+", value)


def _make_expand(
    make: _Makefile, code: str, where: list[int], depth: int, recipe: bool = False
) -> tuple[str, list[int]]:
    """Make's references in `code` written as the shell reads them (see `makefile`)."""
    out: list[str] = []
    offsets: list[int] = []
    i = 0
    first = recipe
    while i < len(code):
        ch = code[i]
        if ch != "$" or i + 1 >= len(code):
            out.append(ch)
            offsets.append(where[i])
            if not ch.isspace():
                first = False
            i += 1
            continue
        nxt = code[i + 1]
        if nxt == "$":
            out.append("$")
            offsets.append(where[i + 1])
            i += 2
            first = False
            continue
        if nxt in "({":
            close = _make_close(code, i + 1)
            inner = code[i + 2 : close]
            piece, piece_at = _make_reference(make, inner, where[i + 2 : close], depth, first)
            out.extend(piece)
            offsets.extend(piece_at if piece_at else [where[i]] * len(piece))
            i = close + 1
        else:
            name = nxt if nxt not in _AUTOMATIC else ""
            piece, piece_at = _make_reference(make, name, [where[i + 1]], depth, first)
            out.extend(piece)
            offsets.extend(piece_at if piece_at else [where[i]] * len(piece))
            i += 2
        first = False
    return "".join(out), offsets


def _make_close(code: str, opener: int) -> int:
    """The bracket closing the one at `opener` (nested ones counted); the end if none."""
    pair = {"(": ")", "{": "}"}[code[opener]]
    depth = 0
    for k in range(opener, len(code)):
        if code[k] == code[opener]:
            depth += 1
        elif code[k] == pair:
            depth -= 1
            if depth == 0:
                return k
    return len(code) - 1


def _make_reference(
    make: _Makefile, inner: str, where: list[int], depth: int, command: bool
) -> tuple[str, list[int]]:
    """One `$(...)`: a variable (pasted or interpolated), `$(shell ...)`, or unknown."""
    if inner.startswith("shell ") and depth < 4:
        code, offsets = _make_expand(make, inner[6:], where[6:], depth + 1)
        return "$(" + code + ")", [where[0], where[0], *offsets, where[-1]]
    if not _MAKE_WORD.fullmatch(_shell_name(inner)):
        return _HOLE, []
    name = _shell_name(inner)
    known = make.variables.get(name)
    if known is not None and (command or known[2]) and depth < 4:
        return _make_expand(make, known[0], known[1], depth + 1)
    return "${" + name + "}", [where[0] - 2, where[0] - 1, *where, where[-1] + 1]


def _quoted(code: str) -> str:
    """A value between double quotes: its own `"`, `\\` and backquotes escaped."""
    return re.sub(r'(["\\`])', r"\\\1", code)


def _quoted_offsets(code: str, offsets: list[int]) -> list[int]:
    found: list[int] = []
    for ch, at in zip(code, offsets, strict=True):
        if ch in '"\\`':
            found.append(at)
        found.append(at)
    return found


# -- Dockerfiles ----------------------------------------------------------------------

_SHELLS = re.compile(r"(?:/(?:usr/)?bin/)?(?:ba|da|z|a)?sh")
_DOCKER_COMMANDS = frozenset(
    {"run_instruction", "cmd_instruction", "entrypoint_instruction", "healthcheck_instruction"}
)


def dockerfile(text: str) -> list[Region]:
    """A Dockerfile's shell: `RUN`, `CMD`, `ENTRYPOINT`, `HEALTHCHECK CMD` commands, with
    `ENV` and `ARG` values as shell assignments before them, in the file's order.

    The shell form is copied as written (its line continuations are the shell's); the
    exec form (`["curl", "-s", "..."]`) becomes one word per element; a heredoc
    (`RUN <<EOF`) its lines.
    """
    parsed = parse(text, "dockerfile")
    region = Region("shell")
    found = False
    for node in parsed.root.named_children:
        if node.type == "onbuild_instruction":  # `ONBUILD RUN ...`: the RUN it holds
            node = next(iter(node.named_children), node)
        kind = node.type
        if kind in ("env_instruction", "arg_instruction"):
            _docker_assignments(parsed, node, region)
        elif kind in _DOCKER_COMMANDS:
            found = _docker_command(parsed, node, region) or found
        elif kind in ("copy_instruction", "add_instruction"):
            found = _docker_script(parsed, node, region) or found
    return [region] if found else []


def _docker_script(parsed: Parsed, node: Node, region: Region) -> bool:
    """`COPY <<EOF /usr/local/bin/check.sh`: a shell script the image runs (its target
    names a shell script, or its first line a shell)."""
    paths = [parsed.node_text(c) for c in node.named_children if c.type == "path"]
    for block in (c for c in node.named_children if c.type == "heredoc_block"):
        lines = [c for c in block.named_children if c.type == "heredoc_line"]
        first = parsed.node_text(lines[0]) if lines else ""
        if not (
            shebang_language(first) == "shell" or any(p.endswith((".sh", ".bash")) for p in paths)
        ):
            continue
        for line in lines:
            start, end = parsed.char(line.start_byte), parsed.char(line.end_byte)
            region.add(parsed.text[start:end] + "\n", [*range(start, end), end])
        return True
    return False


def _docker_assignments(parsed: Parsed, node: Node, region: Region) -> None:
    pairs = [c for c in node.named_children if c.type == "env_pair"] or [node]
    for pair in pairs:
        parts = [c for c in pair.named_children if c.type != "line_continuation"]
        if len(parts) < 2:
            continue
        name, value = parts[0], parts[1:]
        start, end = parsed.char(value[0].start_byte), parsed.char(value[-1].end_byte)
        label = parsed.node_text(name) + "="
        region.add(label, [start] * len(label))
        if pair.type == "env_pair" and "=" not in parsed.node_text(pair):
            # `ENV NAME value words`: the rest of the line is the value
            region.add('"', [start])
            for k in range(start, end):
                if parsed.text[k] in '"\\`':
                    region.add("\\", [k])
                region.add(parsed.text[k], [k])
            region.add('"', [end])
        else:
            region.add(parsed.text[start:end], list(range(start, end)))
        region.add("\n", [end])


def _docker_command(parsed: Parsed, node: Node, region: Region) -> bool:
    if node.type == "healthcheck_instruction":
        inner = next((c for c in node.named_children if c.type == "cmd_instruction"), None)
        return inner is not None and _docker_command(parsed, inner, region)
    added = False
    heredoc_shell = True
    for child in node.named_children:
        if child.type == "shell_command":
            written = parsed.node_text(child)
            if "<<" in written and _has_marker(child):
                # `RUN <<EOF` runs its heredoc as a script; `RUN python3 <<EOF` does not
                heredoc_shell = re.sub(r"<<-?\S+", "", written).strip() in ("", "sh", "bash")
                continue
            for part in child.children:  # a comment line inside the command is Docker's
                if part.type != "comment":
                    start, end = parsed.char(part.start_byte), parsed.char(part.end_byte)
                    region.add(parsed.text[start:end], list(range(start, end)))
            region.add("\n", [parsed.char(child.end_byte)])
            added = True
        elif child.type == "json_string_array":
            _docker_exec_form(parsed, child, region)
            added = True
        elif child.type == "heredoc_block" and heredoc_shell:
            for line in child.named_children:
                if line.type == "heredoc_line":
                    start, end = parsed.char(line.start_byte), parsed.char(line.end_byte)
                    region.add(parsed.text[start:end] + "\n", [*range(start, end), end])
            added = True
    return added


def _has_marker(node: Node) -> bool:
    return any(c.type == "heredoc_marker" or _has_marker(c) for c in node.named_children)


def _docker_exec_form(parsed: Parsed, node: Node, region: Region) -> None:
    """`["curl", "-s", "URL"]`: each element one word, single-quoted (no expansion);
    `["sh", "-c", "script"]`: the script."""
    elements = [
        decode(e, parsed.data, parsed.char) for e in node.named_children if e.type == "json_string"
    ]
    if (
        len(elements) >= 3
        and _SHELLS.fullmatch(elements[0][0])
        and re.fullmatch(r"-[a-z]*c", elements[1][0])
    ):
        script, offsets = elements[2]
        region.add(script + "\n", [*offsets, parsed.char(node.end_byte)])
        return
    for decoded, offsets in elements:
        quoted = decoded.replace("'", "'\\''")
        where: list[int] = []
        for ch, at in zip(decoded, offsets, strict=True):
            where.extend([at] * (4 if ch == "'" else 1))
        first = offsets[0] if offsets else parsed.char(node.start_byte)
        region.add("'" + quoted + "' ", [first, *where, first, first])
    region.add("\n", [parsed.char(node.end_byte)])
