"""What one call sends, as clients.py finds it and build.py turns it into a Reference."""

from __future__ import annotations

from dataclasses import dataclass, field

from apispec.lint.extract.ir import CallE, Param, Value


@dataclass
class Request:
    """One request a call sends, with what the code shows about it."""

    call: CallE  # the call written at the call site (a wrapper's caller)
    url: Value
    method: str | None = None
    base: Value | None = None  # the client object's base URL
    join: str = "slash"
    query: Value | None = None
    headers: Value | None = None
    row: str = ""  # "client", "wrapper", "verb"
    wrapped: bool = False  # made through a wrapper of the file (its path may be one word)
    trusted: bool = False  # through a wrapper whose base names this API: any path counts
    option_names: tuple[str, ...] = ()
    query_keyword: str = ""  # the keyword the library reads the query from (`params`)
    # where the library takes an options object, and the entry naming its method
    config: tuple[int, ...] = ()
    method_keyword: str = ""
    extra_query: list[Value] = field(default_factory=list)
    chain: bool = False  # a link of a builder chain: the chain's object is the request
    # the parameter of the function being summarised that holds the method (a wrapper's
    # `method`, `$1`): read from where the client takes the method, whatever its name
    method_param: Param | None = None
    # a command line (curl, wget): its command, the option words the wrapper writes, and
    # the wrapper's parameter whose words are handed to the command as more options
    command: str = ""
    words: tuple[str, ...] = ()
    forwarded: Param | None = None
