"""What every reader is told: which field names the client, and JSON lines' own field names."""

from __future__ import annotations

from dataclasses import dataclass, field

# `--client-field` words every format understands where it has the field;
# any other word names a field of the format (a JSON key, a W3C field, a HAR
# request header).
AUTO = "auto"  # the User-Agent where the line has one, else the source address
USER_AGENT = "user-agent"
ADDRESS = "address"
USER = "user"  # the authenticated user name of the access log
CLIENT_WORDS = (AUTO, USER_AGENT, ADDRESS, USER)


@dataclass(frozen=True)
class ReadOptions:
    client: str = AUTO
    fields: dict[str, str] = field(default_factory=dict)  # JSON lines: --field NAME=KEY
