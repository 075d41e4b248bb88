"""Serialize a document as JSON or YAML, keeping the generator's key order."""

from __future__ import annotations

import json
from typing import Any


def render(document: dict[str, Any], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    import yaml

    class Dumper(yaml.SafeDumper):
        """Multi-line descriptions as `|` blocks, so the Markdown reads as written."""

    def text(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
        style = "|" if "\n" in value else None
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)

    Dumper.add_representer(str, text)
    return yaml.dump(document, Dumper=Dumper, sort_keys=False, allow_unicode=True, width=100)
