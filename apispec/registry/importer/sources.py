"""Where an OpenAPI description's documents come from, and how far apispec may go for them.

SOURCE is a file, a directory or an http(s) URL. Its *base* is the file's
directory, the directory itself, or the URL up to its last `/`; a relative
`$ref` may name any document inside the base and nothing else. A reference
that leaves it (`../../etc/passwd`, `file:///...`, another host, an absolute
path elsewhere, a redirect elsewhere) is an error naming the reference, raised
before anything outside is opened or requested. Every document is size-capped
and parsed with depth and alias caps (`apispec.registry.importer.parse`).

URLs are fetched with the standard library (urllib): one GET per document, a
timeout per request and a deadline for the whole import, no redirect that
leaves the base. That is all an import needs, and it keeps an HTTP client
library out of the dependencies. Header values given with `--header` are sent
to the source's own origin only and never appear in a message or a file.
"""

from __future__ import annotations

import os
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from http.client import HTTPMessage
from pathlib import Path
from typing import IO, Any

from apispec.support.exceptions import ApispecError, UsageError
from apispec.support.inputs import InputError, megabytes, read_input

# Caps of one import; docs/registry.md lists them.
MAX_DOCUMENT_SIZE = 16 * 1024 * 1024  # one document
MAX_TOTAL_SIZE = 64 * 1024 * 1024  # all documents together
MAX_DOCUMENTS = 500
REQUEST_TIMEOUT = 30.0  # seconds without progress on one request
IMPORT_DEADLINE = 300.0  # seconds for every request of an import together
_ROOT_NAMES = ("openapi.yaml", "openapi.yml", "openapi.json")
_TOP_KEY = re.compile(rb'^(?:openapi|"openapi")\s*:|^\s*\{\s*"openapi"\s*:', re.MULTILINE)
# Encoded dots, slashes and backslashes let a server and apispec disagree on where
# a reference points; no honest description needs them in a reference's path.
_AMBIGUOUS = re.compile(r"%2e|%2f|%5c|\\", re.IGNORECASE)


class SourceError(ApispecError):
    """SOURCE cannot be imported as asked: one line, exit 2."""


def shown_url(url: str) -> str:
    """A URL fit for messages and files: no user name, password, query or fragment."""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    port = f":{parts.port}" if parts.port else ""
    return urllib.parse.urlunsplit((parts.scheme, host + port, parts.path, "", ""))


def parse_headers(values: list[str]) -> dict[str, str]:
    """`Name: value` pairs; a malformed one is named by its position, never echoed."""
    headers: dict[str, str] = {}
    for index, text in enumerate(values, 1):
        name, colon, value = text.partition(":")
        name = name.strip()
        if not colon or not re.fullmatch(r"[A-Za-z0-9!#$%&'*+.^_`|~-]+", name):
            raise UsageError(f"--header #{index} is not 'Name: value' (its text is not shown)")
        if "\r" in value or "\n" in value:
            raise UsageError(f"--header {name}: the value holds a line break")
        headers[name] = value.strip()
    return headers


@dataclass
class Base:
    """Where documents may be read from, and the bytes read so far."""

    root: str  # location of the root document
    prefix: str  # every location must start with this
    shown_source: str  # SOURCE as messages and the overlay show it
    total: int = 0
    count: int = 0

    def locate(self, reference: str, relative_to: str) -> str:
        """The location a reference's document part names; SourceError if outside the base."""
        raise NotImplementedError

    def fetch(self, location: str) -> bytes:
        raise NotImplementedError

    def shown(self, location: str) -> str:
        raise NotImplementedError

    def read(self, location: str) -> bytes:
        if self.count >= MAX_DOCUMENTS:
            raise SourceError(
                f"{self.shown_source}: more than {MAX_DOCUMENTS} documents referenced"
            )
        data = self.fetch(location)
        self.count += 1
        self.total += len(data)
        if self.total > MAX_TOTAL_SIZE:
            raise SourceError(
                f"{self.shown_source}: its documents are larger than "
                f"{megabytes(MAX_TOTAL_SIZE)} together"
            )
        return data

    def _outside(self, reference: str, relative_to: str, why: str) -> SourceError:
        return SourceError(
            f"{self.shown(relative_to)}: $ref {reference!r} leaves the base "
            f"{self.shown_prefix()} ({why}); only documents inside it are read"
        )

    def shown_prefix(self) -> str:
        return self.prefix


@dataclass
class FileBase(Base):
    """A file or directory on disk; the base is a directory, compared by real path."""

    real_prefix: str = ""

    @classmethod
    def open(cls, source: Path) -> FileBase:
        if not source.exists():
            raise SourceError(f"{source}: no such file or directory")
        if source.is_dir():
            directory = source
            root = _find_root(source)
        else:
            directory = source.parent
            root = source
        prefix = os.path.abspath(directory)
        return cls(
            root=os.path.join(prefix, root.name),
            prefix=prefix,
            shown_source=str(source),
            real_prefix=os.path.realpath(prefix),
        )

    def shown(self, location: str) -> str:
        return (
            os.path.relpath(location)
            if not os.path.relpath(location).startswith("..")
            else location
        )

    def shown_prefix(self) -> str:
        return self.shown(self.prefix) + os.sep

    def locate(self, reference: str, relative_to: str) -> str:
        parts = urllib.parse.urlsplit(reference)
        if parts.scheme or parts.netloc:
            scheme = f"{parts.scheme}://" if parts.scheme else "//"
            raise self._outside(reference, relative_to, f"a {scheme} reference")
        if _AMBIGUOUS.search(parts.path):
            raise self._outside(reference, relative_to, "an encoded or backslash path")
        path = urllib.parse.unquote(parts.path)
        if not path:
            return relative_to
        target = os.path.normpath(os.path.join(os.path.dirname(relative_to), path))
        # lexically first, so nothing outside is even looked at; then symlinks
        if not _within(target, self.prefix):
            raise self._outside(reference, relative_to, "outside its directory")
        if not _within(os.path.realpath(target), self.real_prefix):
            raise self._outside(reference, relative_to, "a symbolic link out of its directory")
        return target

    def fetch(self, location: str) -> bytes:
        return read_input(
            location,
            name=self.shown(location),
            max_size=MAX_DOCUMENT_SIZE,
            expected="an OpenAPI document",
        )


def inside(path: Path, directory: Path) -> bool:
    """Whether `path`, symbolic links resolved, lies in `directory`: what a directory
    the user named may offer to be read."""
    return _within(os.path.realpath(path), os.path.realpath(directory))


def _within(path: str, directory: str) -> bool:
    return path == directory or path.startswith(directory.rstrip(os.sep) + os.sep)


def _find_root(directory: Path) -> Path:
    """The root document of a multi-file description: `openapi.yaml` or the one with `openapi:`."""
    for name in _ROOT_NAMES:
        if (directory / name).is_file():
            return _root_inside(directory / name, directory)
    found = []
    for path in sorted(directory.iterdir()):
        if path.suffix.lower() not in (".yaml", ".yml", ".json") or not path.is_file():
            continue
        if not inside(path, directory):
            continue
        try:
            head = read_input(path, max_size=MAX_DOCUMENT_SIZE)[:65536]
        except InputError:
            continue
        if _TOP_KEY.search(head):
            found.append(path)
    if len(found) == 1:
        return found[0]
    if not found:
        raise SourceError(
            f"{directory}: no OpenAPI document in it (a .yaml, .yml or .json file with a "
            "top-level `openapi` field)"
        )
    names = ", ".join(p.name for p in found[:5])
    raise SourceError(f"{directory}: several OpenAPI documents ({names}); name one of them")


def _root_inside(root: Path, directory: Path) -> Path:
    if not inside(root, directory):
        raise SourceError(f"{root}: a symbolic link out of {directory}; name the file itself")
    return root


class _Redirects(urllib.request.HTTPRedirectHandler):
    """Follow a redirect only where the base allows it (headers go to that origin only)."""

    def __init__(self, allowed: Any) -> None:
        self.allowed = allowed

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        target = urllib.parse.urljoin(req.full_url, newurl)
        why = self.allowed(target)
        if why:
            raise SourceError(
                f"{shown_url(req.full_url)}: redirected to {shown_url(target)}, {why}"
            )
        return super().redirect_request(req, fp, code, msg, headers, target)


@dataclass
class UrlBase(Base):
    """An http(s) URL; the base is its scheme, host, port and path up to the last `/`."""

    headers: dict[str, str] = field(default_factory=dict)
    origin: tuple[str, str] = ("", "")
    started: float = field(default_factory=time.monotonic)
    fetched: dict[str, bytes] = field(default_factory=dict)

    @classmethod
    def open(cls, url: str, headers: dict[str, str]) -> UrlBase:
        parts = urllib.parse.urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise SourceError(f"{shown_url(url)}: not an http(s) URL with a host")
        base = cls(
            root=url,
            prefix="",
            shown_source=shown_url(url),
            headers=headers,
            origin=_origin(url),
        )
        # the root document decides the prefix: a redirect may have moved it
        final, data = base._get(url, base._same_origin)
        base.root = final
        path = urllib.parse.urlsplit(final).path or "/"
        base.prefix = path[: path.rfind("/") + 1]
        base.fetched[final] = data
        return base

    def shown(self, location: str) -> str:
        return shown_url(location)

    def shown_prefix(self) -> str:
        scheme, host = self.origin
        return f"{scheme}://{host}{self.prefix}"

    def _same_origin(self, url: str) -> str | None:
        return None if _origin(url) == self.origin else "another origin"

    def _inside(self, url: str) -> str | None:
        if _origin(url) != self.origin:
            return "another origin"
        path = urllib.parse.urlsplit(url).path
        return None if path.startswith(self.prefix) else f"outside {self.shown_prefix()}"

    def locate(self, reference: str, relative_to: str) -> str:
        parts = urllib.parse.urlsplit(reference)
        if parts.scheme and parts.scheme not in ("http", "https"):
            raise self._outside(reference, relative_to, f"a {parts.scheme}: reference")
        if _AMBIGUOUS.search(parts.path):
            raise self._outside(reference, relative_to, "an encoded or backslash path")
        document = urllib.parse.urlunsplit(parts._replace(fragment=""))
        if not document:
            return relative_to
        target = urllib.parse.urljoin(relative_to, document)
        why = self._inside(target)
        if why:
            raise self._outside(reference, relative_to, why)
        return target

    def fetch(self, location: str) -> bytes:
        if location in self.fetched:
            return self.fetched.pop(location)
        return self._get(location, self._inside)[1]

    def _get(self, url: str, allowed: Any) -> tuple[str, bytes]:
        shown = shown_url(url)
        left = IMPORT_DEADLINE - (time.monotonic() - self.started)
        if left <= 0:
            raise SourceError(f"{shown}: the import took longer than {IMPORT_DEADLINE:.0f} s")
        opener = urllib.request.build_opener(_Redirects(allowed))
        request = urllib.request.Request(url, headers={**self.headers, "User-Agent": "apispec"})
        try:
            with opener.open(request, timeout=min(REQUEST_TIMEOUT, left)) as answer:
                length = answer.headers.get("Content-Length")
                if length and length.isdigit() and int(length) > MAX_DOCUMENT_SIZE:
                    raise SourceError(_too_large(shown, int(length)))
                return answer.geturl(), self._body(answer, shown)
        except urllib.error.HTTPError as exc:
            raise SourceError(f"{shown}: HTTP {exc.code} {exc.reason}") from None
        except urllib.error.URLError as exc:
            raise SourceError(f"{shown}: cannot fetch ({_reason(exc.reason)})") from None
        except TimeoutError:
            raise SourceError(f"{shown}: no answer within {REQUEST_TIMEOUT:.0f} s") from None
        except OSError as exc:
            raise SourceError(f"{shown}: cannot fetch ({_reason(exc)})") from None

    def _body(self, answer: Any, shown: str) -> bytes:
        chunks: list[bytes] = []
        total = 0
        while True:
            if time.monotonic() - self.started > IMPORT_DEADLINE:
                raise SourceError(f"{shown}: the import took longer than {IMPORT_DEADLINE:.0f} s")
            chunk = answer.read(65536)
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > MAX_DOCUMENT_SIZE:
                raise SourceError(_too_large(shown, None))
            chunks.append(chunk)


def _origin(url: str) -> tuple[str, str]:
    parts = urllib.parse.urlsplit(url)
    default = {"http": 80, "https": 443}.get(parts.scheme)
    return (parts.scheme, f"{(parts.hostname or '').lower()}:{parts.port or default}")


def _too_large(shown: str, size: int | None) -> str:
    what = f"{megabytes(size)}; " if size is not None else ""
    return f"{shown}: too large ({what}the limit is {megabytes(MAX_DOCUMENT_SIZE)})"


def _reason(reason: object) -> str:
    text = getattr(reason, "strerror", None) or str(reason)
    return " ".join(str(text).split())


def open_source(source: str, headers: dict[str, str]) -> Base:
    """The base of SOURCE: a URL when it has an http(s) scheme, else a path."""
    scheme = urllib.parse.urlsplit(source).scheme.lower()
    if scheme in ("http", "https"):
        return UrlBase.open(source, headers)
    if headers:
        raise UsageError("--header applies to http(s) sources only")
    if len(scheme) > 1:  # a one-letter scheme is a Windows drive
        raise UsageError(f"{source}: unsupported scheme {scheme}: (use a path or an http(s) URL)")
    return FileBase.open(Path(source))
