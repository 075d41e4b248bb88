"""One document's bytes to data, with the caps every user document gets.

JSON goes through `apispec.support.inputs.load_json` (nesting cap); YAML through
`apispec.support.yaml_load`'s guarded loader, which measures the composed node graph
before anything is constructed, so an alias bomb or a recursive alias is
refused while it is still a small graph.
"""

from __future__ import annotations

from typing import Any

from apispec.support.inputs import InputError, load_json


def parse_document(data: bytes, name: str, json_hint: bool) -> Any:
    """The document in `data`; InputError (one line, naming `name`) for anything unusable."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(name, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if json_hint or text.lstrip()[:1] in ("{", "["):
        try:
            return load_json(text, name)
        except InputError:
            if json_hint:
                raise
    return load_yaml(text, name)


def load_yaml(text: str, name: str) -> Any:
    import yaml

    from apispec.support.yaml_load import GuardedSafeLoader, LimitError, compose

    loader = GuardedSafeLoader(text)
    try:
        node = compose(loader)
        return None if node is None else loader.construct_document(node)
    except LimitError as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark is not None else 1
        raise InputError(name, f"refused at line {line}: {exc.problem}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 1})" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(name, f"not valid YAML: {problem}{where}") from None
    finally:
        loader.dispose()
