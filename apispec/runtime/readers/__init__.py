"""One reader per log format; which one reads an input, by `--format-in` or by its content.

Each reader module has `NAME`, `DESCRIPTION`, `looks_like(first)` and
`read(source, options)`, which yields `Seen` and `Bad` records in one pass.
Recognition looks at the first line that is not empty (the whole head for a
HAR document, which may be one line of megabytes): a HAR document opens with
`{"log":`, the proxy's log with its marker, IIS with a `#` directive, the mock's
log with its banner or its line shape, an access log with its line shape, and
any other JSON object per line is JSON lines.
"""

from __future__ import annotations

from types import ModuleType

from apispec.runtime.readers import access_log, har, iis, json_lines, mock_log, proxy_log
from apispec.runtime.readers.source import Source
from apispec.support.inputs import InputError

# In the order recognition tries them: the specific shapes before the general ones.
READERS: tuple[ModuleType, ...] = (har, proxy_log, iis, mock_log, access_log, json_lines)
BY_NAME: dict[str, ModuleType] = {reader.NAME: reader for reader in READERS}
BY_NAME["common"] = access_log  # the common log format is the combined one without two fields
FORMATS = tuple(BY_NAME)


def recognise(source: Source) -> ModuleType:
    """The reader for an input's content; InputError naming the input when none fits."""
    head = source.head()
    if har.looks_like(head):
        return har
    first = next((line.rstrip(b"\r") for line in head.split(b"\n") if line.strip()), None)
    if first is None:
        return access_log  # an empty log: any reader reads nothing from it
    for reader in READERS[1:]:
        if reader.looks_like(first):
            return reader
    raise InputError(
        source.name,
        "cannot tell the log format from its first line; name it with --format-in "
        f"({', '.join(FORMATS)})",
    )
