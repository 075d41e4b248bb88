"""Build Reference records by hand, for engine tests independent of extraction."""

from __future__ import annotations

from apispec.lint.reference import QueryValue, Reference, Segment, Span


def position(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def reference(
    text: str,
    parts: list[str],
    *,
    after: str = "",
    method: str | None = None,
    query: tuple[QueryValue, ...] = (),
    headers: tuple = (),
) -> Reference:
    """The reference whose segments are `parts` found in order in `text` (after `after`).

    A part written `{...}`, `$...` or digits is a parameter, as extraction reports it.
    """
    cursor = text.index(after) + len(after) if after else 0
    segments = []
    for part in parts:
        start = text.index(part, cursor)
        cursor = start + len(part)
        is_param = part.startswith(("{", "$", "+", "%")) or part.isdigit()
        segments.append(Segment(part, is_param, Span(start, cursor)))
    path = "/" + "/".join("{}" if s.is_param else s.text for s in segments)
    start, end = segments[0].span.start, segments[-1].span.end
    line, column = position(text, start)
    end_line, end_column = position(text, end)
    return Reference(
        path=path,
        segments=tuple(segments),
        span=Span(start, end),
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        method=method,
        query=query,
        headers=headers,
    )
