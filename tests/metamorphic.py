"""Metamorphic transformations of client code: changes that must not change what is linted.

A comment after an opening bracket or at a line's end, a blank line inside brackets,
CRLF or CR-only line ends, a byte-order mark: none changes which API calls a program
makes, so none may change the calls or findings the linter reports, except for their
line numbers. Each transformation takes a file's text and its language and returns the
new text with a map from the old positions to the new lines; tests/test_lint_metamorphic.py
lints the labelled fixture sets before and after and compares, through the linter's
public entry point only (`apispec.lint.run.execute`), so that the same harness judges
any extractor. A new transformation is a function here and a row of TRANSFORMATIONS.

Comments go only where the language allows one, outside strings and other comments:
found with the language's own tokenizer where Python has one (`tokenize` for Python,
PyYAML's scanner for YAML, `json` for JSON), else with Pygments' lexer for the language
and a careful rule per language (which brackets may take a comment or a line break
after them: none in shell, where `[` and `${` are words; no `[` in PowerShell, where it
opens a type). Where no place is known to be safe (HTML, `.http` files, unknown kinds,
Markdown prose) a file is left as it is, and still linted.
"""

from __future__ import annotations

import ast
import bisect
import io
import json
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

import yaml
from markdown_it import MarkdownIt
from pygments.lexers import get_lexer_by_name
from pygments.token import Comment, Name, Punctuation, String, Token

# -- positions -----------------------------------------------------------------------


def line_starts(text: str) -> list[int]:
    """Where each line starts, as the linter and editors count lines (LF, CRLF, lone CR)."""
    return [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]


@dataclass(frozen=True)
class Transformed:
    """A transformed text, and where each old (line, column) is now (its new line)."""

    text: str
    moved: Callable[[int, int], int]
    encoding: str = "utf-8"  # how the text is written: "utf-8-sig" adds a byte-order mark


def unchanged(text: str) -> Transformed:
    return Transformed(text, lambda line, column: line)


def inserted(text: str, insertions: list[tuple[int, str]]) -> Transformed:
    """`text` with each (offset, text) inserted before the character at that offset."""
    insertions = sorted(insertions, key=lambda item: item[0])  # stable: callers' order kept
    pieces = []
    at = 0
    for offset, extra in insertions:
        pieces += [text[at:offset], extra]
        at = offset
    new = "".join([*pieces, text[at:]])
    old_starts = line_starts(text)
    new_starts = line_starts(new)
    offsets = [offset for offset, _ in insertions]
    shifts = []
    total = 0
    for _, extra in insertions:
        total += len(extra)
        shifts.append(total)

    def moved(line: int, column: int) -> int:
        old = old_starts[min(line, len(old_starts)) - 1] + column - 1
        k = bisect.bisect_right(offsets, old)  # insertions at or before the position move it
        return bisect.bisect_right(new_starts, old + (shifts[k - 1] if k else 0))

    return Transformed(new, moved)


# -- languages -----------------------------------------------------------------------

# File name -> the kind of code, by extension or name (not the linter's tables: the
# harness must not inherit the linter's mistakes).
_KINDS = {
    ".py": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".ts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".cs": "csharp",
    ".java": "java",
    ".kt": "kotlin",
    ".php": "php",
    ".rb": "ruby",
    ".rake": "ruby",
    ".ps1": "powershell",
    ".psm1": "powershell",
    ".sh": "bash",
    ".tf": "terraform",
    ".yml": "yaml",
    ".yaml": "yaml",
    ".json": "json",
    ".ipynb": "json",
    ".md": "markdown",
}
_NAMES = {"Makefile": "make"}
# Fence info strings -> kinds, for the code blocks of Markdown files.
_FENCES = {
    "python": "python",
    "py": "python",
    "bash": "bash",
    "sh": "bash",
    "shell": "bash",
    "powershell": "powershell",
    "ps1": "powershell",
    "javascript": "javascript",
    "js": "javascript",
    "typescript": "typescript",
    "ts": "typescript",
    "go": "go",
    "csharp": "csharp",
    "cs": "csharp",
    "java": "java",
    "kotlin": "kotlin",
    "ruby": "ruby",
    "php": "php",
    "yaml": "yaml",
    "yml": "yaml",
    "json": "json",
}
# Kinds whose block comments may follow an opening bracket on the same line.
_BLOCK = {
    "javascript": "/* c */",
    "typescript": "/* c */",
    "tsx": "/* c */",
    "go": "/* c */",
    "csharp": "/* c */",
    "java": "/* c */",
    "kotlin": "/* c */",
    "php": "/* c */",
    "terraform": "/* c */",
    "powershell": "<# c #>",
}
_LINE = {kind: "//" for kind in _BLOCK} | {
    "python": "#",
    "ruby": "#",
    "powershell": "#",
    "bash": "#",
    "make": "#",
    "terraform": "#",
    "yaml": "#",
}
# The opening brackets after which a comment or a line break is legal, per kind.
_OPENERS = dict.fromkeys(_BLOCK, "([{") | {"python": "([{", "ruby": "([{", "powershell": "({"}
_LEXERS = {"bash": "bash", "make": "bash", "tsx": "tsx", "php": "php"}


def kind_of(path: str) -> str | None:
    name = PurePosixPath(path)
    return _NAMES.get(name.name) or _KINDS.get(name.suffix.lower())


@dataclass(frozen=True)
class Places:
    """Where a text may take a comment: before each line break, after each bracket."""

    line_ends: list[int]  # offsets of line breaks that may have a comment before them
    brackets: list[int]  # offsets just past opening brackets that may have one after them


def places(text: str, kind: str) -> Places:
    if kind == "python":
        try:
            return _python_places(text)
        except (SyntaxError, tokenize.TokenError):  # newer Python than the one running
            return Places([], [])
    if kind == "yaml":
        return _yaml_places(text)
    if kind == "markdown" or kind not in _LINE:
        return Places([], [])
    return _lexed_places(text, kind)


def _python_places(text: str) -> Places:
    """Python's own tokenizer: NEWLINE and NL tokens end lines outside strings."""
    ends: list[int] = []
    brackets: list[int] = []
    starts = line_starts(text)
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        offset = starts[token.start[0] - 1] + token.start[1]
        if token.type in (tokenize.NEWLINE, tokenize.NL) and token.string:
            if not (token.start[0] == 1 and text.startswith("#!")):  # a shebang's arguments
                ends.append(offset)
        elif token.type == tokenize.OP and token.string in ("(", "[", "{"):
            brackets.append(offset + 1)
    return Places(ends, brackets)


def _yaml_places(text: str) -> Places:
    """PyYAML's scanner: a line break inside no scalar (plain, quoted or block) may have a
    comment before it; brackets (flow collections) are left alone."""
    inside: list[tuple[int, int]] = []
    for token in yaml.scan(text, Loader=yaml.SafeLoader):
        if isinstance(token, yaml.ScalarToken):
            inside.append((token.start_mark.index, token.end_mark.index))
    starts = [start for start, _ in inside]
    ends = []
    for m in re.finditer(r"\n", text):
        k = bisect.bisect_right(starts, m.start()) - 1
        if k >= 0 and inside[k][0] < m.start() < inside[k][1]:
            continue
        line = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        if line.strip() and not line.lstrip().startswith("#"):
            ends.append(m.start())
    return Places(ends, [])


def _lexed_places(text: str, kind: str) -> Places:
    """Pygments' lexer for the language: a line break in whitespace (or ending a one-line
    comment) may have a comment before it, unless the line continues on the next; an
    opening bracket that is code (not in a string, nor in a string's code hole) may have
    one after it."""
    lexer = get_lexer_by_name(_LEXERS.get(kind, kind), stripnl=False, ensurenl=False)
    ends: list[int] = []
    brackets: list[int] = []
    holes = 0  # depth of code holes inside strings (`${...}`, `{$x}`)
    quoted = False  # between a string's own opening and closing quote tokens
    tagged = set()  # lines holding a JSX/TSX tag: their text is markup, not code
    starts = line_starts(text)
    openers = _OPENERS.get(kind, "")
    for offset, token, value in lexer.get_tokens_unprocessed(text):
        if token in String.Interpol:
            holes += value.count("{") - value.count("}")
            continue
        if token in String and value in ('"', "'", "`"):
            quoted = not quoted  # a string with code inside comes as its quotes and pieces
            continue
        if token in Name.Tag:
            tagged.add(bisect.bisect_right(starts, offset))
        if not quoted and holes == 0 and token in Punctuation and value[-1:] in openers:
            after = offset + len(value)
            if not (kind == "ruby" and value == "{" and text[after:].lstrip(" ").startswith("|")):
                brackets.append(after)  # not before a Ruby block's parameters
        if "\n" in value and (token in Token.Text or token in Comment.Single):
            ends.append(offset + value.index("\n"))
    if kind == "csharp":  # the lexer reads nested interpolated strings as code: not on their lines
        brackets = [at for at in brackets if '$"' not in _line_of(text, at, starts)]
    return Places([at for at in ends if _may_end(text, at, kind, tagged, starts)], brackets)


def _line_of(text: str, at: int, starts: list[int]) -> str:
    line = bisect.bisect_right(starts, at)
    return text[starts[line - 1] : starts[line] if line < len(starts) else len(text)]


def _may_end(text: str, at: int, kind: str, tagged: set[int], starts: list[int]) -> bool:
    line = bisect.bisect_right(starts, at)
    written = text[starts[line - 1] : at].rstrip()
    if not written or written.startswith("#!") or line in tagged:
        return False
    if written.endswith("\\") or (kind == "powershell" and written.endswith("`")):
        return False  # a continued line
    if kind == "make":  # a recipe line is shell; a make line's value would take the spaces
        return text[starts[line - 1] : starts[line - 1] + 1] == "\t"
    if kind in _HEREDOCS and _TERMINATOR.fullmatch(written):
        return False  # a heredoc's terminator stands alone on its line (PHP before 7.3 too)
    if kind == "php":  # inside <?php ... ?>
        opened = text.rfind("<?php", 0, at)
        return opened >= 0 and text.rfind("?>", 0, at) < opened
    return True


_HEREDOCS = frozenset({"bash", "make", "ruby", "php", "terraform"})
_TERMINATOR = re.compile(r"[ \t]*[A-Za-z_]\w*[;,)]*")


# -- transformations -----------------------------------------------------------------


def comments(text: str, kind: str | None) -> Transformed:
    """A comment after every opening bracket and at every line end where one is legal."""
    return inserted(text, _comment_insertions(text, kind, 0))


def _comment_insertions(text: str, kind: str | None, base: int) -> list[tuple[int, str]]:
    if kind == "markdown":
        return _in_fences(text, _comment_insertions)
    if kind is None or kind not in _LINE:
        return []
    where = places(text, kind)
    marker = _LINE[kind]
    block = _BLOCK.get(kind)
    after = f" {block}" if block else f"  {marker} c\n"
    found = [(base + at, after) for at in where.brackets]  # first where both fall together
    found += [(base + at, f"  {marker} c") for at in where.line_ends]
    return found


def blank_lines(text: str, kind: str | None) -> Transformed:
    """A blank line after every opening bracket where a line break is legal."""
    return inserted(text, _blank_insertions(text, kind, 0))


def _blank_insertions(text: str, kind: str | None, base: int) -> list[tuple[int, str]]:
    if kind == "markdown":
        return _in_fences(text, _blank_insertions)
    if kind == "json":
        return [(base + at, "\n\n") for at in _json_openers(text)]
    if kind is None or kind not in _OPENERS:
        return []
    return [(base + at, "\n\n") for at in places(text, kind).brackets]


def _json_openers(text: str) -> list[int]:
    """Just past each `[` and `{` of a JSON text outside its strings."""
    found = []
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[{]', text):
        if m.group() in "[{":
            found.append(m.end())
    return found


def _in_fences(
    text: str, insertions: Callable[[str, str | None, int], list[tuple[int, str]]]
) -> list[tuple[int, str]]:
    """The insertions of each fenced code block's own language, placed in the Markdown."""
    found: list[tuple[int, str]] = []
    for start, end, kind in fences(text):
        found += insertions(text[start:end], kind, start)
    return found


def fences(text: str) -> list[tuple[int, int, str]]:
    """(start, end, kind) of the code of each closed fenced block in a language known here."""
    starts = line_starts(text)
    found = []
    for token in MarkdownIt().parse(text):
        if token.type != "fence" or token.map is None:
            continue
        kind = _FENCES.get(token.info.strip().split(" ")[0].lower())
        first, last = token.map[0] + 1, token.map[1] - 1  # the code's lines; the closing fence
        if kind is None or last <= first or last >= len(starts):
            continue
        if text[starts[last] :].lstrip(" ").startswith(token.markup):
            found.append((starts[first], starts[last], kind))
    return found


def crlf(text: str, kind: str | None) -> Transformed:
    return unchanged(re.sub(r"\r?\n", "\r\n", text))


def cr_only(text: str, kind: str | None) -> Transformed:
    return unchanged(re.sub(r"\r?\n", "\r", text))


def bom(text: str, kind: str | None) -> Transformed:
    return Transformed(text, lambda line, column: line, "utf-8-sig")


TRANSFORMATIONS: dict[str, Callable[[str, str | None], Transformed]] = {
    "comments": comments,
    "blank-lines": blank_lines,
    "crlf": crlf,
    "cr-only": cr_only,
    "bom": bom,
}

# -- string literals -----------------------------------------------------------------


def literals(text: str, kind: str | None) -> list[object] | None:
    """The string literals of a text in order, as the language's parser (Python: `ast`,
    JSON and YAML: the values loaded) or Pygments' lexer reads them; a transformation or
    a suppression keeps them all. None for a kind the harness does not read."""
    text = re.sub(r"\r\n?", "\n", text.removeprefix("\ufeff"))
    if kind == "markdown":
        return [literals(text[start:end], fence) for start, end, fence in fences(text)]
    if kind == "python":
        try:
            tree = ast.parse(text)
        except SyntaxError:  # newer Python than the one running: not read here
            return None
        return [
            n.value
            for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str)
        ]
    if kind == "json":
        return [json.loads(text)]
    if kind == "yaml":
        return list(yaml.load_all(text, Loader=_TaggedLoader))
    if kind is None or kind not in _LINE:
        return None
    lexer = get_lexer_by_name(_LEXERS.get(kind, kind), stripnl=False, ensurenl=False)
    found: list[object] = []
    for _, token, value in lexer.get_tokens_unprocessed(text):
        if token in String:
            found.append(value)
        elif token not in Comment and ('"' in value or "'" in value):
            # a string inside another token (C#'s `[Query("filter")]` is one attribute token)
            found += _QUOTED.findall(value)
    return found


class _TaggedLoader(yaml.SafeLoader):
    """Safe loading that keeps a local tag's scalar (Home Assistant's `!secret name`) as its
    text: such files are configuration, not Python objects."""


def _tagged(loader: yaml.SafeLoader, suffix: str, node: yaml.Node) -> object:
    if isinstance(node, yaml.ScalarNode):
        return f"!{suffix} {loader.construct_scalar(node)}"
    if isinstance(node, yaml.SequenceNode):
        return [f"!{suffix}", *loader.construct_sequence(node, deep=True)]
    return {f"!{suffix}": loader.construct_mapping(node, deep=True)}  # type: ignore[arg-type]


_TaggedLoader.add_multi_constructor("!", _tagged)


_QUOTED = re.compile(r""""(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'""")
