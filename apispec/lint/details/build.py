"""The Reference a candidate and its call make: segments, spans, method and query."""

from __future__ import annotations

from apispec.lint.calls.assemble import CallInfo
from apispec.lint.candidates import Candidate
from apispec.lint.details.query import call_query, template_values, url_query
from apispec.lint.reference import Reference, Segment, Span
from apispec.lint.scan import PARAM, Source


def build(source: Source, candidate: Candidate, info: CallInfo, language: str) -> Reference:
    flat, offs, owner, hit = candidate.flat, candidate.offs, candidate.owner, candidate.hit
    chain = candidate.chain
    parts = chain.parts
    segments: list[Segment] = []
    i = hit.start
    end = hit.end
    while end > hit.start and flat[end - 1] == "/":
        end -= 1
    if i < end and flat[i] == "/":
        i += 1
    path_chars: list[str] = []
    while i <= end:
        j = flat.find("/", i, end)
        if j < 0:
            j = end
        seg_flat = flat[i:j]
        if seg_flat:
            seg_start = offs[i]
            last = j - 1
            last_part = parts[owner[last]]
            seg_end = last_part.end if last_part.is_param else offs[last] + 1
            if PARAM in seg_flat:
                source_text = source.text[seg_start:seg_end]
                segments.append(Segment(source_text, True, Span(seg_start, seg_end)))
                path_chars.append("{}")
            elif seg_flat.isdigit():
                segments.append(Segment(seg_flat, True, Span(seg_start, seg_end)))
                path_chars.append("{}")
            else:
                segments.append(Segment(seg_flat, False, Span(seg_start, seg_end)))
                path_chars.append(seg_flat)
        i = j + 1
    path = "/" + "/".join(path_chars)
    span_start = offs[hit.start] if hit.start < len(offs) else chain.start
    if segments:
        span_end = segments[-1].span.end if segments[-1].span else chain.end
        span_start = min(span_start, segments[0].span.start if segments[0].span else span_start)
    else:
        span_end = span_start
    line, column = source.line_col(span_start)
    end_line, end_column = source.line_col(span_end)
    query = url_query(source, flat, offs, owner, parts, hit)
    if source.dialect.uri_templates and any(q.value is None for q in query):
        query = template_values(source, query, parts, info)
    seen = {(q.name, q.span) for q in query}
    query += [q for q in call_query(source, info) if (q.name, q.span) not in seen]
    return Reference(
        path=path,
        segments=tuple(segments),
        span=Span(span_start, span_end),
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        method=info.method,
        query=tuple(query),
        language=language,
        evidence=candidate.evidence,
        extra={"call_window": info.window, "methods": info.methods},
    )
