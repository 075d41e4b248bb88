"""docs/registry.md must tell the same inferred error statuses as errors.yaml."""

from __future__ import annotations

import re
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "docs" / "registry.md"


def test_inferred_status_table_matches_the_registry(registry):
    rows = dict(re.findall(r"^\| ([A-Z_]+) \| (\d{3}) \|", DOC.read_text(encoding="utf-8"), re.M))
    inferred = {
        e.code: str(e.status) for e in registry.error_codes if e.status_source == "inferred"
    }
    assert rows == inferred
