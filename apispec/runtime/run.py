"""`apispec traffic`, from the inputs named to the exit code; callable from Python.

The inputs are read one after the other, each in one pass (apispec.runtime.
readers), every request judged (matching) and counted (aggregate). An input
that cannot be opened or recognised, or that ends early (a truncated gzip or
HAR document), is an input error: the others are still read and reported, its
one-line error follows on standard error, and the run exits 2. When no input
could be read at all, the error alone is the answer.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import BinaryIO

from apispec.lint.finding import Severity
from apispec.registry.load import load_registry
from apispec.registry.model import Registry
from apispec.registry.releases import Release
from apispec.runtime import readers
from apispec.runtime.aggregate import Aggregator, InputStats
from apispec.runtime.calls import join, read_calls
from apispec.runtime.matching import Judge
from apispec.runtime.readers.options import AUTO, ReadOptions
from apispec.runtime.readers.source import Source, TruncatedInput, open_source
from apispec.runtime.report.model import Report
from apispec.runtime.seen import Seen
from apispec.support.exceptions import EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, ApispecError

Progress = Callable[[int, int], None]  # (bytes read, bytes in all inputs; 0 when unknown)
_PROGRESS_EVERY = 8192  # records between two progress calls


@dataclass
class TrafficRequest:
    inputs: list[str]  # file names; `-` is standard input
    format_in: str | None = None  # a reader's name; None: recognised from the content
    options: ReadOptions = field(default_factory=ReadOptions)
    targets: list[str] = field(default_factory=list)
    registry: Path | None = None
    overlays: list[Path] = field(default_factory=list)
    calls: Path | None = None  # `apispec lint --show-calls --format json` output
    fail_on: str = "error"
    progress: Progress | None = None


@dataclass
class TrafficOutcome:
    report: Report
    warnings: list[str]
    errors: list[str]
    exit_code: int


def chosen_targets(registry: Registry, named: list[str]) -> tuple[tuple[Release, ...], str | None]:
    """The target releases, and why, when nobody named them (the registry's default)."""
    if named:
        return tuple(registry.release(t) for t in named), None
    release, why = registry.default_release
    return (release,), why


def fails(worst: int, fail_on: str) -> bool:
    """Whether a finding of severity rank `worst` fails the run at `--fail-on` (as lint)."""
    return fail_on != "never" and worst >= Severity(fail_on).rank


def execute(request: TrafficRequest, stdin: BinaryIO) -> TrafficOutcome:
    registry = load_registry(request.registry, tuple(request.overlays))
    targets, why = chosen_targets(registry, request.targets)
    sites = read_calls(request.calls) if request.calls else None
    aggregator = Aggregator(Judge(registry, targets))
    errors: list[str] = []
    opened = 0
    names = request.inputs or ["-"]
    total = sum(_size(name) for name in names)
    done = 0
    for name in names:  # opened one at a time: a thousand rotated logs hold one descriptor
        stats = None
        try:
            source = open_source(name, stdin)
        except ApispecError as exc:
            errors.append(str(exc))
            continue
        try:
            reader = _reader(source, request.format_in)
            stats = aggregator.start(source.name, reader.DESCRIPTION)
            opened += 1
            _read(aggregator, stats, reader, source, request, done, total)
        except TruncatedInput as exc:
            if stats is not None:
                stats.damaged = str(exc)
            errors.append(str(exc))
        except ApispecError as exc:
            errors.append(str(exc))
        finally:
            done += source.size or 0
            source.close()
    if not opened and errors:
        raise ApispecError(errors[0])
    tally = aggregator.tally
    report = Report(tally, registry, tuple(str(t) for t in targets), target_default=why)
    if sites is not None:
        assert request.calls is not None
        report.join = join(sites, list(tally.endpoints), str(request.calls))
    warnings = _warnings(aggregator, request.options)
    if errors:
        code = EXIT_USAGE
    else:
        code = EXIT_FINDINGS if fails(tally.worst, request.fail_on) else EXIT_OK
    return TrafficOutcome(report, warnings, errors, code)


def _size(name: str) -> int:
    """The size of an input on disk, for the progress line (0: standard input, or unknown)."""
    if name == "-":
        return 0
    try:
        return os.stat(name).st_size
    except OSError:
        return 0


def _reader(source: Source, named: str | None) -> ModuleType:
    if named is not None:
        return readers.BY_NAME[named]
    return readers.recognise(source)


def _read(
    aggregator: Aggregator,
    stats: InputStats,
    reader: ModuleType,
    source: Source,
    request: TrafficRequest,
    done: int,
    total: int,
) -> None:
    add, bad = aggregator.add, aggregator.bad
    progress = request.progress
    count = 0
    for record in reader.read(source, request.options):
        if type(record) is Seen:
            add(stats, record)
        else:
            bad(stats, record)
        if progress is not None:
            count += 1
            if count % _PROGRESS_EVERY == 0:
                progress(done + source.consumed, total)


def _warnings(aggregator: Aggregator, options: ReadOptions) -> list[str]:
    tally = aggregator.tally
    warnings = []
    for stats in tally.inputs:
        for example in stats.examples:
            warnings.append(f"{stats.name}:{example.where}: skipped: {example.reason}")
        more = stats.malformed - len(stats.examples)
        if more > 0:
            warnings.append(f"{stats.name}: {more:,} more malformed lines skipped")
    if tally.api and not tally.clients_seen and options.client != AUTO:
        warnings.append(
            f"no request named its client (--client-field {options.client}); every request "
            "is counted for client -"
        )
    return warnings
