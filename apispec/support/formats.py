"""Report format names that every command spells alike.

`docs` and `changelog` once said `md` where `lint` and `registry diff` said
`markdown`; a user who learnt one was refused by the other. Each command lists
the canonical names in its help and accepts the aliases here as well, so the
same word works everywhere (the command line and the linter's `output-format`).
"""

from __future__ import annotations

# alias -> the canonical name a command's help shows
ALIASES = {"md": "markdown"}


def canonical_format(name: str) -> str:
    """The canonical name of a format (`md` -> `markdown`); other names unchanged."""
    return ALIASES.get(name, name)
