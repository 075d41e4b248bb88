"""FLT001: syntax errors, with the expected terminals in words and hints for real-world slips."""

from __future__ import annotations

import pytest

from apispec.filters import check, parse

# (filter, [(code, start, end, message, hint), ...]): the whole report, exactly.
CASES = [
    (
        "status eq down",
        [
            (
                "FLT001",
                7,
                9,
                "expected an operator (=, !=, <, <=, >, >=, in, contains, matches) after `status`, found `eq`",
                "`eq` is OData notation; this language writes `=`",
            ),
        ],
    ),
    (
        "parentId eq 2048",
        [
            ("FLT002", 0, 8, "`parentId` is not a filterable property", "did you mean `parentid`?"),
            (
                "FLT001",
                9,
                11,
                "expected an operator (=, !=, <, <=, >, >=, in, contains, matches) after `parentId`, found `eq`",
                "`eq` is OData notation; this language writes `=`",
            ),
            (
                "FLT004",
                12,
                16,
                "`parentid` takes a text in double quotes, not a number",
                'write `parentid = "2048"`',
            ),
        ],
    ),
    (
        "type=sensor;status=down",
        [
            (
                "FLT001",
                11,
                12,
                "unexpected character `;` after `sensor`: expected `and`, `or` or the end of the filter",
                "join conditions with `and`, not `;` (the old API's style): `type=sensor and status=down`",
            ),
        ],
    ),
    (
        "status = up AND type = sensor",
        [
            (
                "FLT001",
                12,
                15,
                "expected `and`, `or` or the end of the filter after `up`, found `AND`",
                "keywords are lower case: write `and`",
            ),
        ],
    ),
    (
        "status = up OR type = sensor",
        [
            (
                "FLT001",
                12,
                14,
                "expected `and`, `or` or the end of the filter after `up`, found `OR`",
                "keywords are lower case: write `or`",
            ),
        ],
    ),
    (
        "NOT(status = up)",
        [
            (
                "FLT001",
                0,
                3,
                "`NOT` is read as a property name: keywords are lower case",
                "write `not`",
            ),
        ],
    ),
    (
        "not status = up",
        [
            (
                "FLT001",
                4,
                10,
                "expected `(` after `not`, found `status`",
                "`not` takes a parenthesized expression: write `not(status = up)`",
            ),
        ],
    ),
    (
        "status == up",
        [
            (
                "FLT001",
                8,
                9,
                "expected a value (a text in double quotes, a number, true, false, an enumeration value or a list in `[ ]`) after `=`, found `=`",
                "compare with a single `=`",
            ),
        ],
    ),
    (
        "name = 'HQ'",
        [
            (
                "FLT001",
                7,
                8,
                "unexpected character `'` after `=`: expected a value (a text in double quotes, a number, true, false, an enumeration value or a list in `[ ]`)",
                'text values use double quotes: write `"HQ"`',
            ),
        ],
    ),
    (
        "status = up && type = sensor",
        [
            (
                "FLT001",
                12,
                14,
                "unexpected `&&` after `up`: expected `and`, `or` or the end of the filter",
                "join conditions with `and`, not `&&`",
            ),
        ],
    ),
    (
        "status = up || type = sensor",
        [
            (
                "FLT001",
                12,
                14,
                "unexpected `||` after `up`: expected `and`, `or` or the end of the filter",
                "join conditions with `or`, not `||`",
            ),
        ],
    ),
    (
        'name in ["a", "b",]',
        [
            (
                "FLT001",
                18,
                19,
                "expected a list element (a text in double quotes, a number, true, false or an enumeration value) after `,`, found `]`",
                "remove the comma before `]`: a list has no trailing comma",
            ),
        ],
    ),
    (
        "(status = up or status = down",
        [
            (
                "FLT001",
                29,
                29,
                "expected `and`, `or` or `)` after `down`, but the filter ends there",
                "the `(` at column 1 is not closed: add `)`",
            ),
        ],
    ),
    (
        'name = "HQ',
        [
            (
                "FLT001",
                7,
                8,
                "this text has no closing double quote",
                'add `"` where the text ends',
            ),
        ],
    ),
    (
        "status = and",
        [
            (
                "FLT001",
                9,
                12,
                "expected a value (a text in double quotes, a number, true, false, an enumeration value or a list in `[ ]`) after `=`, found `and`",
                "`and` is a keyword, not a value: is the value missing?",
            ),
        ],
    ),
    (
        "",
        [
            (
                "FLT001",
                0,
                0,
                "the filter is empty: expected a property name, a relationship word (ancestors, descendants, parents, children), `not(` or `(`",
                None,
            ),
        ],
    ),
    (
        "status",
        [
            (
                "FLT001",
                6,
                6,
                "expected an operator (=, !=, <, <=, >, >=, in, contains, matches) after `status`, but the filter ends there",
                None,
            ),
        ],
    ),
    (
        'name = "a\\qb"',
        [
            (
                "FLT001",
                9,
                11,
                'invalid escape `\\q` in a text value: only `\\"` and `\\\\` are allowed',
                "write `\\\\` for a backslash",
            ),
        ],
    ),
    (
        'status = up and children id = "1"',
        [
            (
                "FLT001",
                16,
                24,
                "expected a property name, `not(` or `(` after `and`, found `children`",
                "a relationship word stands only at the very start of a filter and applies to all of it: `children <filter>`",
            ),
        ],
    ),
    (
        "name=@sub(x)",
        [
            (
                "FLT001",
                5,
                6,
                "unexpected character `@` after `=`: expected a value (a text in double quotes, a number, true, false, an enumeration value or a list in `[ ]`)",
                '`@` functions such as `@sub()` belong to the old API; compare with `=`, `in` or `contains` and a text in double quotes, for example `name = "x"`',
            ),
        ],
    ),
    (
        "name = HQ office",
        [
            (
                "FLT001",
                10,
                16,
                "expected `and`, `or` or the end of the filter after `HQ`, found `office`",
                'a text value with spaces goes in double quotes: `"HQ office"`',
            ),
        ],
    ),
    (
        "status = up)",
        [
            (
                "FLT001",
                11,
                12,
                "expected `and`, `or` or the end of the filter after `up`, found `)`",
                "this `)` has no matching `(`",
            ),
        ],
    ),
    (
        "name in []",
        [
            (
                "FLT001",
                9,
                10,
                "expected a list element (a text in double quotes, a number, true, false or an enumeration value) after `[`, found `]`",
                "a list needs at least one element",
            ),
        ],
    ),
    (
        '"status" = up',
        [
            (
                "FLT001",
                0,
                8,
                'expected a property name, a relationship word (ancestors, descendants, parents, children), `not(` or `(` at the start of the filter, found `"status"`',
                "property names are written without quotes: `status`",
            ),
        ],
    ),
    (
        "status\xa0= up",
        [
            (
                "FLT001",
                6,
                7,
                "unexpected character U+00A0 (no-break space) after `status`: expected an operator (=, !=, <, <=, >, >=, in, contains, matches)",
                "this is a no-break space; use a plain space",
            ),
        ],
    ),
    (
        "status <> up",
        [
            (
                "FLT001",
                8,
                9,
                "expected a value (a text in double quotes, a number, true, false, an enumeration value or a list in `[ ]`) after `<`, found `>`",
                "write `!=` for not equal",
            ),
        ],
    ),
    (
        "status = ٣",
        [
            (
                "FLT001",
                9,
                10,
                "unexpected character `٣` after `=`: expected a value (a text in double quotes, a number, true, false, an enumeration value or a list in `[ ]`)",
                "numbers use the ASCII digits 0-9 only",
            ),
        ],
    ),
    (
        "name = “HQ”",
        [
            (
                "FLT001",
                7,
                8,
                "unexpected character `“` after `=`: expected a value (a text in double quotes, a number, true, false, an enumeration value or a list in `[ ]`)",
                'use straight double quotes `"`',
            ),
        ],
    ),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0] or "empty" for c in CASES])
def test_syntax_errors_are_explained(text: str, expected: list[tuple]) -> None:
    found = [(d.code, d.start, d.end, d.message, d.hint) for d in check(text)]
    assert found == expected


def test_several_slips_are_reported_in_one_run() -> None:
    found = check('not status = up AND NOT name = "x"')
    assert [(d.code, d.start, d.end) for d in found] == [
        ("FLT001", 4, 10),  # not without parentheses
        ("FLT001", 16, 19),  # AND
        ("FLT001", 20, 23),  # NOT
        ("FLT001", 24, 28),  # and again not without parentheses
    ]


def test_the_first_error_is_the_earliest_in_the_text() -> None:
    found = check('tags contains "x" AND status = "up"')
    assert [d.code for d in found] == ["FLT002", "FLT001", "FLT004"]
    assert [d.start for d in found] == sorted(d.start for d in found)


def test_keywords_are_their_own_terminals() -> None:
    assert not parse("status = and").ok
    assert not parse("status = true.x or").ok
    assert parse("status = android").ok  # a keyword is never the prefix of a longer word
    assert parse("order = x").ok


def test_only_ascii_digits_are_numbers() -> None:
    assert parse("id = 2048").ok
    for digit in ("\u0663", "\uff12", "\u0967"):  # Arabic-Indic, fullwidth, Devanagari
        assert not parse(f"id = {digit}").ok


def test_offsets_are_characters_not_bytes() -> None:
    (diagnostic,) = check('name = "äöü" and tags contains "x"')
    assert (diagnostic.start, diagnostic.end) == (17, 21)
    assert diagnostic.line_column('name = "äöü" and tags contains "x"') == (1, 18)


def test_line_and_column_count_lines() -> None:
    text = 'status = up\nand tags contains "x"'
    (diagnostic,) = check(text)
    assert diagnostic.start == 16
    assert diagnostic.line_column(text) == (2, 5)


def test_a_stray_placeholder_character_is_not_a_placeholder() -> None:
    (diagnostic,) = check("parentid = \ue000")
    assert diagnostic.code == "FLT001"
    assert (diagnostic.start, diagnostic.end) == (11, 12)


OPERATOR_EXPECTED = "expected an operator (=, !=, <, <=, >, >=, in, contains, matches)"


@pytest.mark.parametrize(
    ("text", "start", "end", "word", "symbol"),
    [
        ("status ne down", 7, 9, "ne", "!="),
        ("id gt 5", 3, 5, "gt", ">"),
        ('name lt "b"', 5, 7, "lt", "<"),
        ("id ge 5", 3, 5, "ge", ">="),
        ("id le 5", 3, 5, "le", "<="),
    ],
)
def test_odata_operators_get_their_symbol(text, start, end, word, symbol) -> None:
    first = check(text)[0]
    assert (first.code, first.start, first.end) == ("FLT001", start, end)
    prop = text.split()[0]
    assert first.message == f"{OPERATOR_EXPECTED} after `{prop}`, found `{word}`"
    assert first.hint == f"`{word}` is OData notation; this language writes `{symbol}`"


def test_after_an_odata_fix_the_operator_is_checked_against_the_property() -> None:
    found = check("id gt 5")
    assert [(d.code, d.start, d.end) for d in found] == [
        ("FLT001", 3, 5),
        ("FLT003", 3, 5),  # `>` is not allowed on `id` either
        ("FLT004", 6, 7),
    ]


def test_each_slip_in_one_filter_is_reported() -> None:
    found = check("favorite eq true and status ne up")
    assert [(d.start, d.end, d.hint) for d in found] == [
        (9, 11, "`eq` is OData notation; this language writes `=`"),
        (28, 30, "`ne` is OData notation; this language writes `!=`"),
    ]
