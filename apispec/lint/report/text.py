"""The reports people read in a terminal or a CI log: `full` (the default) and `concise`.

`full` shows each finding as Clang and ruff do: the header line, the source
line with a caret under the span, the successor, the fix and where the rule is
explained. `concise` is the header line alone, one finding per line, for grep
and editors. Both end with the same summary.
"""

from __future__ import annotations

from collections import Counter

from apispec.lint.engine import LintResult
from apispec.lint.finding import Applicability, Finding, Severity
from apispec.lint.report.grouped import Grouped, grouped, targets_suffix
from apispec.lint.report.snippet import snippet
from apispec.lint.report.style import BLUE, BOLD, CYAN, DIM, SEVERITY, Style
from apispec.lint.report.view import View
from apispec.lint.rules import BY_CODE
from apispec.support.printable import printable


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def applied(finding: Finding, view: View) -> bool:
    """Whether this run's `--fix` (with or without `--unsafe-fixes`) would apply the fix."""
    return finding.fix is not None and finding.fix.applies(view.unsafe_fixes)


def header(result: LintResult, group: Grouped, view: View, style: Style) -> str:
    """`path:line:col: CODE [severity] [*] message [targets]`: the one-line form."""
    f = group.finding
    color = SEVERITY[f.severity]
    message = printable(" ".join(f.message.splitlines()))  # one finding, one line
    marker = " " + style("[*]", CYAN) if applied(f, view) else ""
    targets = style(targets_suffix(result, group.targets), DIM)
    return (
        f"{style(printable(f.path), BOLD)}:{f.line}:{f.column}: "
        f"{style(f.code, BOLD, color)} {style(f'[{f.severity}]', color)}{marker} "
        f"{message}{targets}"
    )


def render_concise(result: LintResult, view: View) -> str:
    style = Style(view.color)
    lines = [header(result, g, view, style) for g in grouped(result)]
    if not view.quiet:
        if lines:
            lines.append("")
        lines.extend(summary(result, view, style))
    return "".join(line + "\n" for line in lines)


def render_full(result: LintResult, view: View) -> str:
    style = Style(view.color)
    lines: list[str] = []
    for group in grouped(result):
        lines.extend(_block(result, group, view, style))
        lines.append("")
    if not view.quiet:
        lines.extend(summary(result, view, style))
    elif lines:
        lines.pop()
    return "".join(line + "\n" for line in lines)


def _block(result: LintResult, group: Grouped, view: View, style: Style) -> list[str]:
    f = group.finding
    lines = [header(result, group, view, style)]
    gutter = " " * len(str(f.line))
    bar = style("|", BLUE)
    if f.line_text and not f.line_text.isspace():  # not strip(): a line may be 80 KB
        end = f.end_column if f.end_line == f.line else None
        shown, start, length = snippet(f.line_text, f.column, end)
        carets = style("^" * length, BOLD, SEVERITY[f.severity])
        lines += [
            f"{gutter} {bar}",
            f"{style(str(f.line), BLUE)} {bar} {shown}".rstrip(),
            f"{gutter} {bar} {' ' * start}{carets}",
        ]
    note = style("=", BLUE)
    facts = result.endpoints.get(f.endpoint) if f.endpoint else None
    if facts and facts.get("successor") and BY_CODE[f.code].per_target:
        lines.append(f"{gutter} {note} successor: {facts['successor']}")
    if f.fix is not None:
        lines.append(f"{gutter} {note} {_fix_line(f, view, style)}")
    lines.append(f"{gutter} {note} help: apispec rule {f.code}")
    return lines


def _fix_line(f: Finding, view: View, style: Style) -> str:
    assert f.fix is not None
    message = printable(f.fix.message)
    applicability = f.fix.applicability
    if applicability is Applicability.SAFE:
        return f"fix {style('[*]', CYAN)}: {message} (safe: apispec lint --fix)"
    if applicability is Applicability.UNSAFE:
        marker = f" {style('[*]', CYAN)}" if view.unsafe_fixes else ""
        return f"fix{marker}: {message} (unsafe: apispec lint --fix --unsafe-fixes)"
    return f"suggestion: {message} (by hand: the call's method must change too)"


def summary(result: LintResult, view: View, style: Style | None = None) -> list[str]:
    """Counts by severity and rule, what --fix repairs, and what was checked against what."""
    style = style or Style(False)
    findings = result.findings
    lines = []
    if findings:
        groups = grouped(result)
        severities = Counter(g.finding.severity for g in groups)
        parts = [
            plural(severities[s], str(s)) if s != Severity.INFO else f"{severities[s]} info"
            for s in (Severity.ERROR, Severity.WARNING, Severity.INFO)
            if severities[s]
        ]
        files = len({f.path for f in findings})
        lines.append(
            style(f"Found {plural(len(groups), 'finding')}", BOLD)
            + f" ({', '.join(parts)}) in {plural(files, 'file')}:"
        )
        for code, count in sorted(Counter(g.finding.code for g in groups).items()):
            lines.append(f"  {code}  {count:>5}  {BY_CODE[code].name}")
        lines.extend(_fixable(groups, view, style))
    elif unchecked := sum(s.not_checked for s in result.skipped):
        # never "No findings" over a file nobody checked
        lines.append(
            style(f"{plural(unchecked, 'file')} could not be checked", BOLD)
            + " (listed below); the files checked have no findings."
        )
    else:
        missed = not_checked(result)
        lines.append(
            style(
                f"No findings in the files checked; {missed}." if missed else "No findings.", BOLD
            )
        )
    if result.fixed:
        lines.append(f"Fixed {plural(result.fixed, 'finding')}.")
    lines.append(_checked(result, view))
    lines.extend(_skipped(result, view))
    return lines


def not_checked(result: LintResult) -> str:
    """`1 named path was not checked (below)`, or "" when every path named on the command
    line was read: a report never says "No findings" of a file nobody read."""
    missed = sum(s.named for s in result.skipped)
    if not missed:
        return ""
    return f"{plural(missed, 'named path')} {'was' if missed == 1 else 'were'} not checked (below)"


def _fixable(groups: list[Grouped], view: View, style: Style) -> list[str]:
    fixes = Counter(g.finding.fix.applicability for g in groups if g.finding.fix is not None)
    safe, unsafe = fixes[Applicability.SAFE], fixes[Applicability.UNSAFE]
    marker = style("[*]", CYAN)
    if view.unsafe_fixes and safe + unsafe:
        return [f"{marker} {plural(safe + unsafe, 'finding')} fixable with --fix --unsafe-fixes."]
    if safe:
        more = f" ({unsafe} more with --fix --unsafe-fixes)" if unsafe else ""
        return [f"{marker} {plural(safe, 'finding')} fixable with --fix{more}."]
    if unsafe:
        return [f"{plural(unsafe, 'finding')} fixable with --fix --unsafe-fixes."]
    return []


def _checked(result: LintResult, view: View) -> str:
    if result.upgrade_from:
        against = f"for an upgrade from {result.upgrade_from} to {', '.join(result.targets)}"
    else:
        against = f"against {', '.join(result.targets)}"
    if result.target_default:
        against += f" (default: {printable(result.target_default)})"
    took = f" in {view.elapsed:.2f} s" if view.elapsed is not None else ""
    return f"Checked {plural(result.files, 'file')} {against}{took}."


def _skipped(result: LintResult, view: View) -> list[str]:
    """Skipped files worth a look one per line; binary files and ignored paths counted only
    (a tree of images and vendored code would bury the rest), unless --show-skipped."""
    binary = [s for s in result.skipped if s.reason == "binary" and not s.named]
    listed = result.skipped if view.show_skipped else [s for s in result.skipped if s not in binary]
    lines = []
    hidden = []
    if binary and not view.show_skipped:
        hidden.append(f"{plural(len(binary), 'binary file')} skipped")
    if result.ignored and not view.show_skipped:
        hidden.append(f"{plural(len(result.ignored), 'path')} ignored by .gitignore or --exclude")
    if hidden:
        lines.append(f"Not listed: {', '.join(hidden)} (--show-skipped lists them).")
    if listed:
        lines.append(f"Skipped {plural(len(listed), 'file')}:")
        lines.extend(f"  {printable(s.path)}: {printable(s.reason)}" for s in listed)
    if result.ignored and view.show_skipped:
        lines.append(f"Ignored {plural(len(result.ignored), 'path')} (.gitignore, --exclude):")
        lines.extend(f"  {printable(path)}" for path in result.ignored)
    return lines


def statistics(result: LintResult) -> str:
    """`--statistics`: counts per rule and per endpoint, most frequent first."""
    lines = ["Findings per rule:"]
    for code, count in Counter(f.code for f in result.findings).most_common():
        rule = BY_CODE[code]
        lines.append(f"  {count:>6}  {code}  {rule.name} ({rule.severity})")
    lines.append("Findings per endpoint:")
    per_endpoint = Counter(
        f"{f.endpoint[0]} {f.endpoint[1]}" if f.endpoint else "(no registry endpoint)"
        for f in result.findings
    )
    for endpoint, count in per_endpoint.most_common():
        lines.append(f"  {count:>6}  {endpoint}")
    return "\n".join(lines) + "\n"
