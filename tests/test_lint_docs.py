"""docs/linter.md and docs/cli.md show what apispec prints today (issue 13, acceptance 4).

Each generated part is real output of the CLI (`python -m apispec.docgen.lint` writes them);
a change to a rule, a message, a reporter or the examples that is not regenerated fails
here, naming the command that fixes it.
"""

from __future__ import annotations

import pytest

from apispec.docgen.lint import PAGES, ROOT, generated


@pytest.mark.parametrize(
    ("page", "name"), [(page, name) for page, parts in PAGES.items() for name, _ in parts]
)
def test_generated_part_is_current(page: str, name: str) -> None:
    make = dict(PAGES[page])[name]
    text = (ROOT / page).read_text(encoding="utf-8")
    assert generated(text, name) == make(), (
        f"{page}: the {name!r} part is stale; run `python -m apispec.docgen.lint`"
    )


def test_every_format_is_shown() -> None:
    from apispec.lint.report import FORMATS

    text = generated((ROOT / "docs/linter.md").read_text(encoding="utf-8"), "formats")
    for fmt in FORMATS:
        if fmt != "text":  # another name for full
            assert f"$ apispec lint --format {fmt}" in text or fmt == "full", fmt
    assert "$ apispec lint client.py\n" in text  # the default, full
