"""Reading the registry's YAML files, with the line of every node.

The model needs only the data; `apispec registry check` also needs to say on
which line of which file a bad value stands, so the same read returns both.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from stat import S_ISDIR
from typing import Any

from apispec.support.exceptions import RegistryError
from apispec.support.inputs import InputError, read_input, stat_named

Pointer = tuple[str | int, ...]


@dataclass
class RegistrySource:
    """The merged registry document and where each part of it was written."""

    directory: Path
    document: dict[str, Any] = field(default_factory=dict)
    files: dict[str, Path] = field(default_factory=dict)  # top-level key -> file
    lines: dict[tuple[str, Pointer], int] = field(default_factory=dict)  # (file, pointer) -> line
    duplicates: list[tuple[Path, int, str]] = field(default_factory=list)

    def locate(self, pointer: Pointer) -> tuple[Path, int]:
        """The file and 1-based line of the node at `pointer`, or of its nearest parent."""
        if not pointer:
            return self.directory, 0
        path = self.files.get(str(pointer[0]), self.directory)
        name = path.name
        probe = tuple(pointer)
        while probe:
            line = self.lines.get((name, probe))
            if line is not None:
                return path, line
            probe = probe[:-1]
        return path, 1

    def shown(self, pointer: Pointer) -> Pointer:
        """The pointer as the file that holds the node would name it (see MergedSource)."""
        return pointer


def default_directory() -> Path:
    """The registry that ships inside the package."""
    return Path(__file__).parent / "data"


def _record_lines(
    node: Any, pointer: Pointer, name: str, source: RegistrySource, path: Path
) -> None:
    import yaml

    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = key_node.value
            if key in seen:
                source.duplicates.append((path, key_node.start_mark.line + 1, key))
            seen.add(key)
            source.lines[(name, (*pointer, key))] = key_node.start_mark.line + 1
            _record_lines(value_node, (*pointer, key), name, source, path)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            source.lines[(name, (*pointer, index))] = item.start_mark.line + 1
            _record_lines(item, (*pointer, index), name, source, path)


def _read_text(path: Path) -> str:
    """A registry file's text: only a regular file is read (apispec.support.inputs; exit 2 otherwise);
    text that is not UTF-8 is a registry error (a finding for `registry check`)."""
    data = read_input(path)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RegistryError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc


def _cache_file(files: list[Path]) -> Path | None:
    """Where the parsed document of exactly these file versions is cached, if anywhere.

    Parsing the YAML (and importing PyYAML) is most of a short command's start-up;
    the JSON copy loads in under a millisecond. The key covers every file's name,
    size and modification time, so an edit of the registry invalidates it.
    """
    if os.environ.get("APISPEC_NO_CACHE"):
        return None
    import platformdirs

    digest = hashlib.sha256()
    for path in files:
        try:
            stat = path.stat()
        except OSError:
            return None  # a dangling link: reading it gives the one-line error
        digest.update(f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\0".encode())
    return Path(platformdirs.user_cache_dir("apispec")) / f"registry-{digest.hexdigest()[:24]}.json"


def _load_cached(cache: Path | None, directory: Path) -> RegistrySource | None:
    if cache is None:
        return None
    try:
        data = json.loads(cache.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return RegistrySource(
        directory=directory,
        document=data["document"],
        files={key: directory / name for key, name in data["files"].items()},
    )


def _store_cached(cache: Path | None, source: RegistrySource) -> None:
    if cache is None:
        return
    payload = {
        "document": source.document,
        "files": {key: path.name for key, path in source.files.items()},
    }
    from apispec.support.outputs import WriteError, write_atomic

    try:
        cache.parent.mkdir(parents=True, exist_ok=True)
        # atomic, so a concurrent reader never sees half a file; a cache needs no fsync
        write_atomic(cache, json.dumps(payload), durable=False)
    except (OSError, WriteError):
        pass  # a read-only cache directory only costs speed


def read_registry(directory: Path | None = None, *, with_lines: bool = False) -> RegistrySource:
    """Merge every `*.yaml` file of `directory`; each file contributes top-level keys.

    Without `with_lines` the parsed document may come from the on-disk cache.
    """
    directory = Path(directory) if directory is not None else default_directory()
    info = stat_named(directory)
    if info is None or not S_ISDIR(info.st_mode):
        raise InputError(
            str(directory), "not a directory" if info else "registry directory does not exist"
        )
    files = sorted(directory.glob("*.yaml"))
    if not files:
        raise InputError(str(directory), "no registry files (*.yaml) found")
    cache = None if with_lines else _cache_file(files)
    cached = _load_cached(cache, directory)
    if cached is not None:
        return cached
    source = _parse_files(directory, files, with_lines)
    if not with_lines:
        _store_cached(cache, source)
    return source


def _parse_files(directory: Path, files: list[Path], with_lines: bool) -> RegistrySource:
    """Parse every file; a registry other than the bundled one goes through the guarded
    pure-Python loader (nesting and alias limits, see apispec.support.yaml_load)."""
    import yaml

    from apispec.support.yaml_load import GuardedSafeLoader, LimitError, compose

    trusted = not with_lines and directory.resolve() == default_directory().resolve()
    source = RegistrySource(directory=directory)
    for path in files:
        text = _read_text(path)
        try:
            if trusted:
                data = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
            else:
                loader = GuardedSafeLoader(text)
                try:
                    node = compose(loader)
                    data = loader.construct_document(node) if node is not None else None
                finally:
                    loader.dispose()
                if with_lines and node is not None:
                    _record_lines(node, (), path.name, source, path)
        except LimitError as exc:
            line = exc.problem_mark.line + 1 if exc.problem_mark is not None else 1
            raise RegistryError(f"{path}:{line}: refused: {exc.problem}") from exc
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            line = mark.line + 1 if mark is not None else 1
            problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
            raise RegistryError(f"{path}:{line}: invalid YAML: {problem}") from exc
        if data is None:
            continue
        if not isinstance(data, dict):
            raise RegistryError(f"{path}:1: a registry file must be a mapping of sections")
        for key, value in data.items():
            if key in source.files:
                line = source.lines.get((path.name, (key,)), 1)
                raise RegistryError(
                    f"{path}:{line}: section {key!r} is already defined in {source.files[key].name}"
                )
            source.files[key] = path
            source.document[key] = value
    return source
