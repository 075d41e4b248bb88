"""`--calls FILE`: what the code calls (`apispec lint --show-calls --format json`) against
what the server saw.

Each endpoint seen at runtime gets the call sites that explain it: a call whose
matched template is the endpoint's (a `{collection}` segment matches any
collection), with the same method or no method shown in the code. Both
directions of the gap are listed: endpoints seen at runtime that no call
site explains (a script nobody keeps in the repository, a URL built where the
linter cannot follow) and call sites never seen at runtime (dead code, or code
paths the traffic did not exercise).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apispec.lint.match import COLLECTION
from apispec.support.inputs import InputError, load_json, read_input_text


@dataclass(frozen=True)
class CallSite:
    path: str
    line: int
    column: int
    method: str | None
    call: str  # the path as the code writes it, `{id}` for each parameter
    endpoint: str | None  # the registry template it matched

    @property
    def place(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass
class Join:
    """Call sites per runtime endpoint, and the two lists of the gap."""

    source: str
    sites: dict[tuple[str, str], list[CallSite]] = field(default_factory=dict)
    unexplained: list[tuple[str, str]] = field(default_factory=list)
    never_seen: list[CallSite] = field(default_factory=list)


def read_calls(path: Path) -> list[CallSite]:
    """The call sites of a `--show-calls --format json` file; InputError for anything else."""
    name = str(path)
    data = load_json(read_input_text(path, expected="a JSON file"), name)
    calls = data.get("calls") if isinstance(data, dict) else None
    if not isinstance(calls, list):
        raise InputError(
            name, "not the output of `apispec lint --show-calls --format json` (no calls list)"
        )
    sites = []
    for index, item in enumerate(calls):
        site = _site(item)
        if site is None:
            raise InputError(name, f"calls[{index}] is not a call of `apispec lint --show-calls`")
        sites.append(site)
    return sites


def _site(item: Any) -> CallSite | None:
    if not isinstance(item, dict):
        return None
    path, line, column = item.get("path"), item.get("line"), item.get("column")
    method, call, endpoint = item.get("method"), item.get("call"), item.get("endpoint")
    if not (isinstance(path, str) and isinstance(call, str)):
        return None
    if not (isinstance(line, int) and isinstance(column, int)):
        return None
    if not (method is None or isinstance(method, str)):
        return None
    if not (endpoint is None or isinstance(endpoint, str)):
        return None
    return CallSite(path, line, column, method, call, endpoint)


def join(sites: list[CallSite], seen: list[tuple[str, str]], source: str) -> Join:
    """Which sites explain which runtime endpoints (method, template or path shown)."""
    result = Join(source)
    used: set[int] = set()
    for key in seen:
        explaining = [i for i, site in enumerate(sites) if _explains(site, key)]
        used.update(explaining)
        if explaining:
            result.sites[key] = [sites[i] for i in explaining]
        else:
            result.unexplained.append(key)
    result.never_seen = [site for i, site in enumerate(sites) if i not in used]
    return result


def _explains(site: CallSite, key: tuple[str, str]) -> bool:
    method, path = key
    if site.method is not None and site.method != method:
        return False
    written = site.endpoint if site.endpoint is not None else site.call
    mine, theirs = written.strip("/").split("/"), path.strip("/").split("/")
    if len(mine) != len(theirs):
        return False
    return all(a in (b, COLLECTION) for a, b in zip(mine, theirs, strict=True))
