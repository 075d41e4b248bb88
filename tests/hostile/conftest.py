"""Fixtures for hostile-input tests (helpers in tests/hostile/helpers.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest


@pytest.fixture
def fifo() -> Callable[[Path], Path]:
    """A FIFO at a path: opening it to read blocks until someone writes (nobody will)."""

    def make(path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkfifo(path)
        return path

    return make
