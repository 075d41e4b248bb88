"""Linter configuration: `[tool.apispec]` in pyproject.toml or a `.apispec.toml`.

The file is found by walking up from the current directory, as ruff does; a
`.apispec.toml` wins over a pyproject.toml in the same directory. Any mistake in
it (unknown key, wrong type, unknown rule) is a one-line error naming the file
and the key, exit 2, because a silently ignored setting is worse than none.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from apispec.lint.budget import DEFAULT_SECONDS
from apispec.lint.discover import DEFAULT_MAX_SIZE, pattern_error
from apispec.support.exceptions import ApispecError, UsageError, did_you_mean
from apispec.support.formats import canonical_format
from apispec.support.inputs import (
    InputError,
    configured_path,
    load_toml,
    read_input,
    read_input_text,
    real_path,
    stat_named,
)
from apispec.support.printable import shortened

if TYPE_CHECKING:  # imported where used: most runs have no per-file ignores
    import pathspec
from apispec.lint.finding import FAIL_LEVELS, Severity
from apispec.lint.helpers import Helper, configured
from apispec.lint.patterns import lazy
from apispec.lint.rules import expand_codes

KEYS = (
    "target",
    "registry",
    "overlays",
    "select",
    "ignore",
    "per-file-ignores",
    "exclude",
    "severity",
    "fail-on",
    "max-file-size",
    "respect-gitignore",
    "file-timeout",
    "output-format",
    "helpers",
)
_HELPER_NAME = lazy(r"[A-Za-z_$][\w$-]*(?:\.[A-Za-z_$][\w$-]*)*")
_SIZE = lazy(r"\s*([0-9]+(?:\.[0-9]+)?)\s*(B|KB|MB|GB)?\s*", re.IGNORECASE)
_UNITS = {"B": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3}
MAX_SIZE_SETTING = 1024**4  # the largest max-file-size accepted


class ConfigError(ApispecError):
    """A configuration file that cannot be used as written (exit 2)."""


@dataclass
class Config:
    """What a configuration file says; every field None/empty when it does not say it."""

    source: Path | None = None
    root: Path = field(default_factory=Path.cwd)
    target: list[str] = field(default_factory=list)
    registry: Path | None = None
    overlays: list[Path] = field(default_factory=list)
    select: set[str] | None = None
    ignore: set[str] = field(default_factory=set)
    per_file_ignores: list[tuple[pathspec.GitIgnoreSpec, set[str]]] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    severity: dict[str, Severity] = field(default_factory=dict)
    fail_on: str | None = None
    max_file_size: int = DEFAULT_MAX_SIZE
    respect_gitignore: bool = True
    file_timeout: float = DEFAULT_SECONDS  # seconds per file; 0: no limit
    output_format: str | None = None  # checked against the reporters' names by the run
    # own API helpers the linter cannot infer: `name`, `receiver.name`, or a row
    helpers: list[Helper] = field(default_factory=list)

    def enabled(self, code: str) -> bool:
        return (self.select is None or code in self.select) and code not in self.ignore

    def ignored_in(self, relative_path: str) -> set[str]:
        """Codes that per-file-ignores switch off for this path (relative to the root)."""
        codes: set[str] = set()
        for spec, ignored in self.per_file_ignores:
            if spec.match_file(relative_path):
                codes |= ignored
        return codes


def find_config(start: Path) -> Path | None:
    """The nearest `.apispec.toml`, or pyproject.toml with `[tool.apispec]`, at or above `start`.

    A name that exists but is not a regular file (a FIFO, a directory) is
    returned too, so that reading it gives its one-line error instead of the
    file being passed over silently.
    """
    for directory in (start, *start.parents):
        dotfile = directory / ".apispec.toml"
        if os.path.lexists(dotfile):
            return dotfile
        pyproject = directory / "pyproject.toml"
        if os.path.lexists(pyproject) and _has_tool_table(pyproject):
            return pyproject
    return None


def _has_tool_table(pyproject: Path) -> bool:
    return b"tool.apispec" in read_input(pyproject)  # any encoding: another project's file


def load_config(path: Path | None = None, start: Path | None = None) -> Config:
    """Read the given configuration file, or the one found above `start` (default: cwd)."""
    if path is None:
        path = find_config((start or Path.cwd()).resolve())
        if path is None:
            return Config()
    elif stat_named(path) is None and not os.path.lexists(path):
        raise UsageError(f"configuration file not found: {path}")
    try:
        document = load_toml(read_input_text(path), str(path))
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    if path.name == "pyproject.toml":
        tool = document.get("tool", {})
        table = tool.get("apispec", {}) if isinstance(tool, dict) else {}
        where = "[tool.apispec]"
    else:
        table, where = document, "the top level"
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {where} must be a table")
    return _parse(table, path, where)


def _parse(table: dict[str, Any], path: Path, where: str) -> Config:
    config = Config(source=path, root=real_path(path.parent))
    for key, value in table.items():
        if key not in KEYS:
            hint = did_you_mean(key, KEYS)
            raise ConfigError(f"{path}: unknown key {key!r} in {where}{hint}")
        _set(config, key, value, f"{path}: {key}")
    return config


def _set(config: Config, key: str, value: Any, where: str) -> None:
    if key == "target":
        config.target = _strings(value, where, allow_single=True)
    elif key == "registry":
        config.registry = configured_path(_string(value, where), config.root, where)
    elif key == "overlays":
        config.overlays = [configured_path(v, config.root, where) for v in _strings(value, where)]
    elif key == "select":
        config.select = expand_codes(_strings(value, where), where)
    elif key == "ignore":
        config.ignore = expand_codes(_strings(value, where), where)
    elif key == "per-file-ignores":
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected a table of glob = [codes]")
        import pathspec

        config.per_file_ignores = [
            (
                pathspec.GitIgnoreSpec.from_lines([_glob(glob, where)]),
                expand_codes(_strings(codes, f"{where}.{glob}"), f"{where}.{glob}"),
            )
            for glob, codes in value.items()
        ]
    elif key == "exclude":
        config.exclude = [_glob(glob, where) for glob in _strings(value, where)]
    elif key == "severity":
        if not isinstance(value, dict):
            raise ConfigError(f'{where}: expected a table of CODE = "error|warning|info"')
        for code, level in value.items():
            for expanded in expand_codes([code], where):
                config.severity[expanded] = parse_severity(level, f"{where}.{code}")
    elif key == "fail-on":
        config.fail_on = parse_fail_on(value, where)
    elif key == "max-file-size":
        config.max_file_size = parse_size(value, where)
    elif key == "respect-gitignore":
        if not isinstance(value, bool):
            raise ConfigError(f"{where}: expected true or false")
        config.respect_gitignore = value
    elif key == "file-timeout":
        config.file_timeout = parse_seconds(value, where)
    elif key == "output-format":
        config.output_format = canonical_format(_string(value, where))
    elif key == "helpers":
        config.helpers = _helpers(value, where)


_HELPER_KEYS = ("name", "path", "method", "query", "strong")
_VERBS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})


def _helpers(value: Any, where: str) -> list[Helper]:
    if not isinstance(value, list):
        raise ConfigError(f"{where}: expected a list of helper names or tables")
    return [_helper(entry, f"{where}[{i}]") for i, entry in enumerate(value)]


def _helper(entry: Any, where: str) -> Helper:
    """A configured helper: a name (its path the first argument), or a row saying where
    its path, method and query are, for a wrapper whose definition the linter never sees
    (an installed package's `prtgkit.fetch(method, path, params)`)."""
    if isinstance(entry, str):
        return configured([_helper_name(entry, where)])[0]
    if not isinstance(entry, dict):
        raise ConfigError(f"{where}: expected a helper name or a table with a name")
    unknown = sorted(set(entry) - set(_HELPER_KEYS))
    if unknown:
        raise ConfigError(
            f"{where}: unknown key {unknown[0]!r}{did_you_mean(unknown[0], _HELPER_KEYS)}"
            f" (keys: {', '.join(_HELPER_KEYS)})"
        )
    if "name" not in entry:
        raise ConfigError(f"{where}: a helper table needs a name")
    helper = configured([_helper_name(_string(entry["name"], f"{where}.name"), where)])[0]
    path = entry.get("path", 0)
    if isinstance(path, bool) or not isinstance(path, int) or not 0 <= path <= 32:
        raise ConfigError(f"{where}.path: expected the path argument's position (0, 1, ...)")
    helper = helper._replace(path=path)
    if "method" in entry:
        method = entry["method"]
        if isinstance(method, str) and method.upper() in _VERBS:
            helper = helper._replace(implied=method.upper())
        else:
            index, name = _place(method, f"{where}.method")
            helper = helper._replace(method=index, method_name=name)
    if "query" in entry:
        if entry["query"] == "**":
            helper = helper._replace(query_kwargs=True)
        else:
            index, name = _place(entry["query"], f"{where}.query")
            helper = helper._replace(query=index, query_name=name)
    if "strong" in entry:
        if not isinstance(entry["strong"], bool):
            raise ConfigError(f"{where}.strong: expected true or false")
        helper = helper._replace(strong=entry["strong"])
    return helper


def _place(value: Any, where: str) -> tuple[int | None, str | None]:
    """An argument's place: its position among positional arguments (from 0), or the
    parameter's name as keyword and named arguments give it (`params`, `-Query`)."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ConfigError(f"{where}: expected an argument position (0, 1, ...) or a name")
    if isinstance(value, int):
        if not 0 <= value <= 32:
            raise ConfigError(f"{where}: argument position {value} is not between 0 and 32")
        return value, None
    name = value.strip().lstrip("-")
    if not _HELPER_NAME.fullmatch(name):
        raise ConfigError(f"{where}: {value!r} is not a parameter name")
    return None, name


def _helper_name(name: str, where: str) -> str:
    """A helper as code calls it: `Invoke-PrtgApi`, `api_get`, `client.get`."""
    if not _HELPER_NAME.fullmatch(name.strip()):
        raise ConfigError(
            f"{where}: {name!r} is not a function name such as Invoke-PrtgApi or client.get"
        )
    return name.strip()


def _glob(pattern: str, where: str) -> str:
    problem = pattern_error(pattern)
    if problem is not None:
        raise ConfigError(f"{where}: invalid pattern {pattern!r} ({problem})")
    return pattern


def _string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{where}: expected a string")
    return value


def _strings(value: Any, where: str, allow_single: bool = False) -> list[str]:
    if allow_single and isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a list of strings")
    return list(value)


def parse_severity(value: Any, where: str) -> Severity:
    try:
        return Severity(value)
    except ValueError:
        choices = [s.value for s in Severity]
        raise ConfigError(
            f"{where}: unknown severity {value!r}{did_you_mean(str(value), choices)}; "
            f"use one of {', '.join(choices)}"
        ) from None


def parse_fail_on(value: Any, where: str) -> str:
    if value not in FAIL_LEVELS:
        raise ConfigError(f"{where}: expected one of {', '.join(FAIL_LEVELS)}, got {value!r}")
    return str(value)


def parse_seconds(value: Any, where: str) -> float:
    """Seconds from a number or a numeric text (`10`, `2.5`); 0 turns the limit off."""
    try:
        seconds = float(value) if not isinstance(value, bool) else -1.0
    except (TypeError, ValueError, OverflowError):
        seconds = -1.0
    if not 0 <= seconds < float("inf"):
        raise ConfigError(f"{where}: expected a number of seconds such as 10 or 2.5, got {value!r}")
    return seconds


def parse_size(value: Any, where: str) -> int:
    """Bytes from an integer or a text like `5MB`, `512 KB`, at most `MAX_SIZE_SETTING`
    (a size of 320 digits is infinity as a float, and no file is that large anyway)."""
    size: float | None = None
    if isinstance(value, int) and not isinstance(value, bool) and value > 0:
        size = value
    match = _SIZE.fullmatch(value) if isinstance(value, str) else None
    if match is not None:
        size = float(match.group(1)) * _UNITS[(match.group(2) or "B").upper()]
    if size is None:
        shown = shortened(value) if isinstance(value, str) else repr(value)
        raise ConfigError(f"{where}: expected a size such as 5MB or 1048576, got {shown}")
    if not size <= MAX_SIZE_SETTING:
        got = f", got {shortened(value)}" if isinstance(value, str) else ""
        raise ConfigError(f"{where}: expected a size of at most 1024GB{got}")
    return int(size)
