"""What configures a document's linting: its configuration file, then the editor's settings.

Precedence (docs/editors.md), for each key separately:

1. `[tool.apispec]` in pyproject.toml or `.apispec.toml`, found from the
   document's folder upwards exactly as `apispec lint` finds it from the
   current directory;
2. the editor's settings (`initializationOptions`, then `workspace/configuration`
   section `apispec` for the document's workspace folder);
3. the defaults.

`configurationPreference` changes that order as ruff's server does:
`filesystemFirst` (the default, above), `editorFirst` (editor settings win,
the file fills the rest) or `editorOnly` (files are not read).

A mistake in a setting is reported once and that setting is ignored; a broken
configuration file is reported and the document is linted as if it had none,
instead of showing nothing.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from apispec.lsp import adapter
from apispec.support.exceptions import ApispecError, did_you_mean
from apispec.support.inputs import configured_path, real_path

PREFERENCES = ("filesystemFirst", "editorFirst", "editorOnly")
LINT_KEYS = (
    "target",
    "select",
    "ignore",
    "registry",
    "overlays",
    "exclude",
    "severity",
    "max-file-size",
    "respect-gitignore",
)
DEFAULT_DEBOUNCE_MS = 30
MAX_DEBOUNCE_MS = 5000


def canonical(key: str) -> str:
    """`maxFileSize`, `max_file_size` and `max-file-size` are one key."""
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"-\1", key).replace("_", "-").lower()


_LSP_KEYS = {
    "configuration-preference": "configurationPreference",
    "inlay-hints": "inlayHints",
    "debounce": "debounce",
}


@dataclass(frozen=True)
class ClientSettings:
    """The editor's settings, validated; `lint` holds config keys in their TOML spelling."""

    lint: tuple[tuple[str, Any], ...] = ()
    preference: str = "filesystemFirst"
    inlay_hints: bool = False
    debounce_ms: int = DEFAULT_DEBOUNCE_MS
    problems: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def parse(cls, raw: Any) -> ClientSettings:
        """Settings from `initializationOptions` or a `workspace/configuration` answer."""
        if isinstance(raw, dict) and isinstance(raw.get("settings"), dict):
            raw = raw["settings"]  # ruff's and Neovim's `{"settings": {...}}` shape
        if isinstance(raw, dict) and isinstance(raw.get("apispec"), dict):
            raw = raw["apispec"]
        if raw is None or raw == []:  # Lua clients encode an empty table as []
            return cls()
        if not isinstance(raw, dict):
            return cls(problems=("apispec settings: expected an object of settings",))
        lint: dict[str, Any] = {}
        problems: list[str] = []
        values: dict[str, Any] = {}
        for key, value in raw.items():
            name = canonical(str(key))
            if value is None:
                continue  # VS Code sends null for settings left at their default
            try:
                if name in LINT_KEYS:
                    lint[name] = _lint_value(name, value)
                elif name in _LSP_KEYS:
                    values[name] = _lsp_value(name, value)
                else:
                    known = [*LINT_KEYS, *_LSP_KEYS]
                    hint = did_you_mean(name, known)
                    problems.append(f"apispec settings: unknown setting {key!r}{hint}")
            except (ApispecError, ValueError) as exc:
                problems.append(f"apispec settings: {exc}")
        return cls(
            lint=tuple(sorted(lint.items(), key=lambda kv: kv[0])),
            preference=values.get("configuration-preference", "filesystemFirst"),
            inlay_hints=values.get("inlay-hints", False),
            debounce_ms=values.get("debounce", DEFAULT_DEBOUNCE_MS),
            problems=tuple(problems),
        )


def _strings(name: str, value: Any, single: bool = False) -> tuple[str, ...]:
    if single and isinstance(value, str):
        return (value,)
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{name}: expected a list of strings")
    return tuple(value)


def _lint_value(name: str, value: Any) -> Any:
    where = f"{name}"
    if name == "target":
        return _strings(name, value, single=True)
    if name in ("select", "ignore"):
        return tuple(sorted(adapter.expand_codes(list(_strings(name, value)), where)))
    if name == "exclude":
        return _strings(name, value)
    if name == "overlays":
        return tuple(_path_text(name, v) for v in _strings(name, value))
    if name == "registry":
        if not isinstance(value, str):
            raise ValueError(f"{name}: expected a path")
        return _path_text(name, value)
    if name == "severity":
        if not isinstance(value, dict):
            raise ValueError(f'{name}: expected an object of CODE: "error|warning|info"')
        levels: dict[str, adapter.Severity] = {}
        for code, level in value.items():
            for expanded in adapter.expand_codes([code], f"{where}.{code}"):
                levels[expanded] = adapter.parse_severity(level, f"{where}.{code}")
        return tuple(sorted(levels.items()))
    if name == "max-file-size":
        return adapter.parse_size(value, where)
    if name == "respect-gitignore":
        if not isinstance(value, bool):
            raise ValueError(f"{name}: expected true or false")
        return value
    raise AssertionError(name)


def _path_text(name: str, value: str) -> str:
    """A path setting; a NUL in it is refused here, once, instead of failing every lint."""
    if "\0" in value:
        raise ValueError(f"{name}: {value!r} holds a NUL character, which no file name can")
    return value


def _lsp_value(name: str, value: Any) -> Any:
    if name == "configuration-preference":
        if value not in PREFERENCES:
            raise ValueError(f"configurationPreference: expected one of {', '.join(PREFERENCES)}")
        return value
    if name == "inlay-hints":
        if not isinstance(value, bool):
            raise ValueError("inlayHints: expected true or false")
        return value
    if name == "debounce":
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or not 0 <= value <= MAX_DEBOUNCE_MS
        ):
            raise ValueError(f"debounce: expected milliseconds from 0 to {MAX_DEBOUNCE_MS}")
        return value
    raise AssertionError(name)


@dataclass(frozen=True)
class Profile:
    """Everything that decides a document's findings; equal profiles lint alike."""

    config: adapter.Config = field(compare=False, hash=False)
    targets: tuple[str, ...]  # as written; checked against the registry when linting
    registry_dir: Path | None
    overlays: tuple[Path, ...]  # applied in order on top of the registry, later ones winning
    source: Path | None  # the configuration file used, if any
    stamp: tuple[int, int] | None  # its (mtime_ns, size) when read
    client: ClientSettings

    @property
    def key(self) -> tuple[object, ...]:
        return (
            self.source,
            self.stamp,
            self.client,
            self.targets,
            self.registry_dir,
            self.overlays,
        )


def merge(
    file_config: adapter.Config | None,
    file_keys: frozenset[str],
    client: ClientSettings,
    folder: Path | None,
) -> adapter.Config:
    """The configuration a document is linted with: the file's, with the editor's settings
    filling the keys it does not set (or overriding them, `editorFirst`)."""
    config = (
        replace(file_config)
        if file_config is not None
        else adapter.Config(root=real_path(folder or Path.cwd()))
    )
    base = folder or Path.cwd()
    for name, value in client.lint:
        if name in file_keys and client.preference != "editorFirst":
            continue
        if name == "target":
            config.target = list(value)
        elif name == "select":
            config.select = set(value)
        elif name == "ignore":
            config.ignore = set(value)
        elif name == "exclude":
            config.exclude = list(value)
        elif name == "severity":
            config.severity = dict(value)
        elif name == "max-file-size":
            config.max_file_size = value
        elif name == "respect-gitignore":
            config.respect_gitignore = value
        elif name == "registry":
            config.registry = _path(value, base)
        elif name == "overlays":
            config.overlays = [_path(v, base) for v in value]
    return config


def _path(value: str, base: Path) -> Path:
    """A path from the editor's settings: `~` expanded, relative to the workspace folder."""
    return configured_path(os.path.expanduser(value), base, "apispec settings")


class Profiles:
    """Finds and caches configuration files; gives each document its Profile.

    A configuration file is read again when its modification time or size
    changes; `forget()` (after a watched-file event) drops the directory
    lookups too, so a new or deleted file is seen.
    """

    def __init__(self) -> None:
        self.defaults = ClientSettings()
        self.by_folder: dict[Path, ClientSettings] = {}
        self._found: dict[Path, Path | None] = {}
        self._read: dict[Path, tuple[tuple[int, int], adapter.Config, frozenset[str]]] = {}
        self.errors: dict[Path, str] = {}  # configuration file -> its current error

    def forget(self) -> None:
        self._found.clear()
        self._read.clear()

    def client_for(self, folder: Path | None) -> ClientSettings:
        if folder is not None and folder in self.by_folder:
            return self.by_folder[folder]
        return self.defaults

    def profile(self, directory: Path | None, folder: Path | None) -> Profile:
        """The profile of a document in `directory` (None: not on disk) of workspace `folder`."""
        client = self.client_for(folder)
        source = stamp = None
        file_config = None
        keys: frozenset[str] = frozenset()
        start = directory or folder
        if client.preference != "editorOnly" and start is not None:
            source = self._config_file(start)
            if source is not None:
                loaded = self._load(source)
                if loaded is not None:
                    stamp, file_config, keys = loaded
                else:
                    source = None
        config = merge(file_config, keys, client, folder)
        return Profile(
            config,
            tuple(config.target),
            config.registry,
            tuple(config.overlays),
            source,
            stamp,
            client,
        )

    def _config_file(self, directory: Path) -> Path | None:
        if directory not in self._found:
            self._found[directory] = adapter.find_config(directory)
        return self._found[directory]

    def _load(self, path: Path) -> tuple[tuple[int, int], adapter.Config, frozenset[str]] | None:
        try:
            status = path.stat()
        except OSError:
            self._found.clear()
            return None
        stamp = (status.st_mtime_ns, status.st_size)
        cached = self._read.get(path)
        if cached is not None and cached[0] == stamp:
            return cached
        try:
            config = adapter.load_config(path)
            keys = adapter.config_keys(path)
        except (ApispecError, OSError, ValueError) as exc:
            self.errors[path] = str(exc)
            return None
        self.errors.pop(path, None)
        self._read[path] = (stamp, config, keys)
        return self._read[path]
