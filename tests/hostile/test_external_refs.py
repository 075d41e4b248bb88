"""Point 4 of issue 11: `openapi --check` reads nothing the document names outside itself.

The targets exist and hold a marker, so a read would show in the output; the
URL targets point at a listening loopback socket that counts connections.
"""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.hostile.helpers import apispec_run, clean

SECRET = "MARKER-2b1f-must-never-be-printed"


@pytest.fixture
def listener() -> Iterator[tuple[str, list[object]]]:
    """A loopback TCP server: (base URL, accepted connections)."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(16)
    accepted: list[object] = []

    def serve() -> None:
        while True:
            try:
                connection, peer = server.accept()
            except OSError:
                return
            accepted.append(peer)
            connection.close()

    threading.Thread(target=serve, daemon=True).start()
    yield f"http://127.0.0.1:{server.getsockname()[1]}", accepted
    server.close()


def _document(tmp_path: Path, schemas: dict[str, object], name: str = "api.json") -> Path:
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {},
        "components": {"schemas": schemas},
    }
    path = tmp_path / name
    path.write_text(json.dumps(doc, indent=1))
    return path


@pytest.fixture
def secret_files(tmp_path: Path) -> Path:
    """A secret beside the document and one outside its directory."""
    (tmp_path / "docs").mkdir()
    for path in (tmp_path / "docs" / "near.yaml", tmp_path / "far.yaml"):
        path.write_text(f"S:\n  type: object\n  description: {SECRET}\n  x: 5\n")
    return tmp_path / "docs"


@pytest.mark.parametrize("allow", [False, True])
def test_no_url_and_no_file_outside_the_directory_is_read(
    secret_files: Path, listener: tuple[str, list[object]], allow: bool
) -> None:
    base, accepted = listener
    far = secret_files.parent / "far.yaml"
    refs = {
        "A": {"$ref": f"file://{far}#/S"},
        "B": {"$ref": f"{base}/schema.json"},
        "C": {"$ref": "//127.0.0.1/x.json"},
        "D": {"$ref": "../far.yaml#/S"},
        "E": {"$ref": f"{far}#/S"},
        "F": {"$ref": "file:///etc/passwd"},
        "G": {"$id": f"{base}/dir/", "properties": {"p": {"$ref": "near.yaml#/S"}}},
    }
    doc = _document(secret_files, refs)
    result = clean(
        apispec_run("openapi", "--check", str(doc), *(["--allow-external-refs"] if allow else [])),
        1,
    )
    assert SECRET not in result.out + result.err
    assert "root:" not in result.out
    assert accepted == []
    for ref in (f"file://{far}#/S", f"{base}/schema.json", "//127.0.0.1/x.json"):
        assert f"$ref '{ref}' not followed: URLs are never read" in result.out
    why = "outside the document's directory" if allow else "external references are not followed"
    assert f"$ref '../far.yaml#/S' not followed: {why}" in result.out
    assert f"$ref '{far}#/S' not followed: {why}" in result.out


def test_a_relative_file_is_followed_only_when_allowed(secret_files: Path) -> None:
    doc = _document(secret_files, {"A": {"$ref": "near.yaml#/S"}})
    refused = clean(apispec_run("openapi", "--check", str(doc)), 1)
    assert SECRET not in refused.out + refused.err
    assert "$ref 'near.yaml#/S' not followed: external references are not followed" in refused.out
    allowed = clean(apispec_run("openapi", "--check", str(doc), "--allow-external-refs"), 0)
    assert allowed.err == f"{doc}: valid\n"


def test_a_symlink_below_the_directory_that_leads_outside_is_refused(
    secret_files: Path,
) -> None:
    (secret_files / "inside.yaml").symlink_to(secret_files.parent / "far.yaml")
    doc = _document(secret_files, {"A": {"$ref": "inside.yaml#/S"}})
    result = clean(apispec_run("openapi", "--check", str(doc), "--allow-external-refs"), 1)
    assert SECRET not in result.out + result.err
    assert "not followed: outside the document's directory" in result.out


def test_an_allowed_file_that_is_a_fifo_does_not_block(secret_files: Path, fifo) -> None:
    fifo(secret_files / "pipe.yaml")
    doc = _document(secret_files, {"A": {"$ref": "pipe.yaml#/S"}})
    result = clean(
        apispec_run("openapi", "--check", str(doc), "--allow-external-refs", timeout=30), 1
    )
    assert "not a regular file (a named pipe)" in result.out


def test_the_flag_needs_check(tmp_path: Path) -> None:
    result = clean(apispec_run("openapi", "--allow-external-refs", cwd=tmp_path), 2)
    assert result.err == "apispec: error: --allow-external-refs applies to --check FILE only\n"
