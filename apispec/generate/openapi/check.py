"""`apispec openapi --check`: openapi-spec-validator's findings at the lines they concern.

The validator reports nested problems (a bad schema, a duplicate parameter)
relative to the object it was checking; every keyword validator is wrapped
so each finding also records where that object sits in the document.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from apispec.generate.openapi.lines import LocatedDocument, read_document
from apispec.support.exceptions import ApispecError


@dataclass(frozen=True)
class Finding:
    path: Path
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def _dotted(parts: tuple[object, ...]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def _located(cls: type[Any]) -> type[Any]:
    """Subclass a keyword validator so its errors carry the document path of their object."""

    def __call__(self: Any, *args: Any, **kwargs: Any) -> Iterator[Any]:
        from jsonschema_path import SchemaPath

        where = next((a for a in args if isinstance(a, SchemaPath)), None)
        for error in cls.__call__(self, *args, **kwargs):
            if where is not None and not hasattr(error, "apispec_located"):
                # the path survives the validator's later re-wrapping of the error
                error.path.extendleft(reversed(where.parts))
                error.apispec_located = True
            yield error

    return type(f"Located{cls.__name__}", (cls,), {"__call__": __call__})


@cache
def _validator_class(base: type) -> type[Any]:
    # `base: type`, not `type[Any]`: mypy finds no __hash__ on the latter, and @cache keys on it
    spec_validator: type[Any] = base
    keywords = {name: _located(cls) for name, cls in spec_validator.keyword_validators.items()}
    return type(f"Located{base.__name__}", (base,), {"keyword_validators": keywords})


def _finding(document: LocatedDocument, error: Any) -> Finding:
    parts: tuple[object, ...] = tuple(error.absolute_path)
    if not parts:
        parts = _fallback_parts(error.message, document.data)
    line, at = document.locate(parts)
    where = _dotted(at)
    return Finding(document.path, line, f"{where}: {error.message}" if where else error.message)


_QUOTED_PATH = re.compile(r"'(/[^']*)'")


def _fallback_parts(message: str, data: Mapping[str, Any]) -> tuple[object, ...]:
    """Errors without a location still name the path they concern (`... in '/a/{x}' ...`)."""
    match = _QUOTED_PATH.search(message)
    if match and match.group(1) in (data.get("paths") or {}):
        return ("paths", match.group(1))
    return ()


def check_document(document: LocatedDocument, allow_external_refs: bool = False) -> list[Finding]:
    """Every finding of openapi-spec-validator for a parsed document, in document order.

    References leave the document only as `apispec.generate.openapi.refs` allows: each
    one that is not followed is a finding at its line.
    """
    from jsonschema_path import SchemaPath
    from openapi_spec_validator.settings import OpenAPISpecValidatorSettings
    from openapi_spec_validator.shortcuts import get_validator_cls
    from openapi_spec_validator.validation.exceptions import ValidatorDetectError
    from referencing.exceptions import Unresolvable

    from apispec.generate.openapi.refs import GuardedRetrieval, RefPolicy, RefRefused, refused_refs

    path, data = document.path, document.data
    try:
        base: type = get_validator_cls(data)
    except (ValidatorDetectError, TypeError):  # TypeError: a version that is not text
        supported = "a supported version (2.0, 3.0.x, 3.1.x, 3.2.x, as text)"
        for key in ("openapi", "swagger"):
            if key in data:
                line, _ = document.locate((key,))
                return [Finding(path, line, f"`{key}: {data[key]!r}` does not name {supported}")]
        return [Finding(path, 1, f"no `openapi` (or `swagger`) field naming {supported}")]
    policy = RefPolicy(path.resolve(), allow_external_refs)
    findings = [
        Finding(path, line, f"$ref {ref!r} not followed: {reason}")
        for line, ref, reason in refused_refs(document.root, policy)
    ]
    reported = {f.line for f in findings}
    # a file URI as base lets relative `$ref`s to neighbouring files resolve
    schema = SchemaPath.from_dict(
        data,
        base_uri=policy.document.as_uri(),
        handlers=GuardedRetrieval(policy),
        resolved_cache_maxsize=OpenAPISpecValidatorSettings().resolved_cache_maxsize,
    )
    validator = _validator_class(base)(schema)
    try:
        for error in validator.iter_errors():
            findings.append(_finding(document, error))
    except Unresolvable as exc:
        target = str(getattr(exc, "ref", exc))
        line, written = document.find_ref(target) or (1, target)
        refused, failed = _cause(exc, RefRefused), _cause(exc, ApispecError)
        if refused is not None:
            if line not in reported:
                message = f"$ref {written!r} not followed: {refused.reason}"
                findings.append(Finding(path, line, message))
        elif failed is not None:
            findings.append(Finding(path, line, f"$ref {written!r} cannot be used: {failed}"))
        else:
            findings.append(Finding(path, line, f"unresolvable $ref {written!r}"))
    except RecursionError:
        findings.append(Finding(path, 1, "validation stopped: a cycle of $refs"))
    except ApispecError as exc:  # an external file that cannot be used (too large, not YAML)
        findings.append(Finding(path, 1, f"validation stopped: {exc}"))
    except Exception as exc:  # the validator's own failure on input it did not expect
        # after structural findings the stop is their consequence, not news
        if not findings:
            findings.append(Finding(path, 1, f"validation stopped: {type(exc).__name__}: {exc}"))
    return sorted(findings, key=lambda f: f.line)


def _cause(exc: BaseException, kind: type[Exception]) -> Any:
    """The `kind` exception somewhere in `exc`'s chain of causes, or None."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, kind):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def check_file(path: Path, allow_external_refs: bool = False) -> list[Finding]:
    """Findings for FILE; a file that is not YAML/JSON raises UsageError (exit 2)."""
    return check_document(read_document(path), allow_external_refs)
