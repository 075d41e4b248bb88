"""apispec.support.inputs: the one way a user-named file is read."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from apispec.support.inputs import (
    MAX_DEPTH,
    InputError,
    check_parsed,
    load_json,
    load_toml,
    read_input,
    read_input_text,
)


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "a.yaml"
    path.write_bytes(b"\xef\xbb\xbfa: 1\n" * 10_000)
    assert read_input(path) == path.read_bytes()
    assert read_input_text(path).startswith("a: 1\n")  # the byte order mark is dropped


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match=r"pipe\.yaml: not a regular file \(a named pipe\)"):
        read_input(fifo)


def test_a_device_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="/dev/zero: not a regular file"):
        read_input("/dev/zero")


def test_a_directory_names_what_was_expected(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="is a directory, expected a baseline"):
        read_input(tmp_path, expected="a baseline")


def test_missing_file_and_its_display_name(tmp_path: Path) -> None:
    with pytest.raises(InputError) as caught:
        read_input(tmp_path / "none.json", name="--users none.json")
    assert str(caught.value) == "--users none.json: cannot read: no such file"
    assert caught.value.reason == "cannot read: no such file"
    assert caught.value.exit_code == 2


def test_size_cap(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2048)
    with pytest.raises(InputError, match=r"too large \(2 KB; the limit is 1 KB\)"):
        read_input(path, max_size=1024)


def test_text_that_is_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(b"a = 'caf\xe9'\n")
    with pytest.raises(InputError, match=r"not UTF-8 text \(invalid continuation byte at byte 8\)"):
        read_input_text(path)


def test_depth_cap_is_checked_without_recursion() -> None:
    deep: list = []
    node = deep
    for _ in range(50_000):
        node.append([])
        node = node[0]
    with pytest.raises(InputError, match=f"nested deeper than {MAX_DEPTH} levels"):
        check_parsed(deep, "doc")
    check_parsed({"a": [{"b": [1]}]}, "doc")


def test_deeply_nested_json_and_toml_are_one_line_errors() -> None:
    with pytest.raises(InputError, match="nested deeper"):
        load_json("[" * 100_000 + "]" * 100_000, "data.json")
    with pytest.raises(InputError, match="nested deeper"):
        load_toml("a = " + "[" * 5_000 + "]" * 5_000, "pyproject.toml")
    with pytest.raises(InputError, match=r"not valid JSON: Expecting value \(line 1, column 7\)"):
        load_json('{"a": }', "data.json")
