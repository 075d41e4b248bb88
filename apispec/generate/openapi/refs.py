"""Which `$ref`s `apispec openapi --check` may follow: the document's own, by default.

A document under check often comes from a pull request. Left to itself the
validator resolves `$ref: file:///etc/passwd` (and prints what it read) or
fetches `http://...` (a request from the CI runner to wherever the author
likes). So, as openapi-spec-validator's own users are advised and prance makes
opt-in: nothing outside the document is read unless the user passes
`--allow-external-refs`, and even then only regular files below the document's
own directory; a URL of any scheme never.

Two layers hold that: `refused_refs` reports every `$ref` written in the
document that will not be followed (a finding at its line), and
`GuardedRetrieval` is the only retriever the validator gets, for every URI
scheme, so a reference that reaches another URI some other way (a `$id` that
changes the base) is refused too.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from urllib.request import url2pathname

import yaml

NEVER_URLS = "URLs are never read"
EXTERNAL_OFF = "external references are not followed (--allow-external-refs reads relative files below the document's directory)"
OUTSIDE = "outside the document's directory"


class RefRefused(Exception):
    """The validator asked for a URI the policy does not allow; `reason` says why."""

    def __init__(self, uri: str, reason: str) -> None:
        super().__init__(f"{uri}: {reason}")
        self.uri = uri
        self.reason = reason


@dataclass(frozen=True)
class RefPolicy:
    document: Path  # resolved
    allow_external: bool = False

    @property
    def directory(self) -> Path:
        return self.document.parent

    def _below(self, target: str) -> bool:
        real = os.path.realpath(target)
        return os.path.commonpath([real, str(self.directory)]) == str(self.directory)

    def written_refusal(self, ref: str) -> str | None:
        """Why a `$ref` as written in the document will not be followed (None: it will)."""
        if ref.startswith("#"):
            return None
        parts = urlsplit(ref)
        if parts.scheme or parts.netloc:
            return NEVER_URLS
        path = unquote(parts.path)
        if not os.path.isabs(path) and os.path.realpath(self.directory / path) == str(
            self.document
        ):
            return None  # the document itself, named by its file name
        if not self.allow_external:
            return EXTERNAL_OFF
        if os.path.isabs(path) or not self._below(str(self.directory / path)):
            return OUTSIDE
        return None

    def file_of(self, uri: str) -> Path:
        """The local file a resolved URI may be read from; RefRefused otherwise."""
        parts = urlsplit(uri)
        if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
            raise RefRefused(uri, NEVER_URLS)
        path = url2pathname(unquote(parts.path))
        if os.path.realpath(path) == str(self.document):
            return self.document
        if not self.allow_external:
            raise RefRefused(uri, EXTERNAL_OFF)
        if not self._below(path):
            raise RefRefused(uri, OUTSIDE)
        return Path(path)


class GuardedRetrieval(dict[str, Any]):
    """jsonschema-path's scheme -> handler table, answering every scheme with `retrieve`.

    The retriever falls back to urllib for a scheme missing from the table, so
    the table claims them all.
    """

    def __init__(self, policy: RefPolicy) -> None:
        super().__init__()
        self.policy = policy

    def __contains__(self, scheme: object) -> bool:
        return True

    def __getitem__(self, scheme: str) -> Any:
        return self.retrieve

    def retrieve(self, uri: str) -> Any:
        from apispec.generate.openapi.lines import parse_document
        from apispec.support.inputs import read_input

        path = self.policy.file_of(uri)
        return parse_document(path, read_input(path)).data


def refused_refs(root: yaml.Node, policy: RefPolicy) -> Iterator[tuple[int, str, str]]:
    """(line, ref, reason) of each `$ref` in the document that will not be followed."""
    stack = [root]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if (
                    key.value == "$ref"
                    and isinstance(value, yaml.ScalarNode)
                    and value.tag == "tag:yaml.org,2002:str"  # `$ref: 5` is no reference
                ):
                    reason = policy.written_refusal(value.value)
                    if reason is not None:
                        yield key.start_mark.line + 1, value.value, reason
                stack.extend((value, key))
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(node.value)
