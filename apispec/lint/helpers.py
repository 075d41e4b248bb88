"""A project's own API helpers: what the repository pass learns and extraction uses.

Real scripts rarely call the HTTP client with a full URL: they wrap it in a
helper that prepends the API's base (`self._get("/version")`, `Invoke-PrtgApi
-Path '/health'`, `prtg_get /version`). A helper is learnt from its definition
(a function whose body joins a parameter onto a base ending in `/api/v2`, or
hands it to another helper), in the file that defines it and, through the
repository pass, in every other file of the tree; the `helpers` setting names
the ones no rule can infer. Each call site of a helper with a concrete path is
a call, whatever the path's first segment.

This module holds the contract only: what a helper says about its arguments.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

METHOD_PARAMS = frozenset({"method", "verb", "httpmethod", "http_method", "requestmethod"})
QUERY_PARAMS = frozenset(
    {
        "params",
        "query",
        "qs",
        "queryparams",
        "query_params",
        "queryparameter",
        "queryparameters",
        "querystring",
        "query_string",
        "searchparams",
    }
)


class Helper(NamedTuple):
    """One helper: which of its arguments is the path, the method and the query."""

    name: str  # as defined; looked up in lower case
    path: int  # index of the path among positional arguments (a receiver not counted)
    path_name: str  # the path parameter's name, for keyword or named arguments
    strong: bool = True  # its base names this API: any first segment is a call
    method: int | None = None  # index of a method argument, when the helper takes one
    method_name: str | None = None
    method_default: str | None = None  # the method argument's default verb
    implied: str | None = None  # the verb the helper always sends
    query: int | None = None  # index of a query-mapping argument
    query_name: str | None = None
    query_kwargs: bool = False  # keyword arguments of a call are query values (**params)
    params: tuple[str, ...] = ()  # every named parameter (keywords that are not query values)
    receiver: str | None = None  # a configured `client.get`: the receiver's last name
    language: str = "*"  # the language that defines it (a configured one: any)
    # Learnt from a syntax tree (the tree path): what the wrapper puts before the path,
    # how it joins the two, and where it is defined, so a call applies it only where the
    # wrapper is in scope (imported, or a method of the receiver's class).
    base: str = ""  # the known text before the path (a hole: U+0000)
    hints: tuple[str, ...] = ()  # the names of the unknown pieces of the base
    join: str = "concat"  # "concat", "slash", "rfc3986", "prefix": a client object's rule
    owner: str = ""  # the class whose method it is
    module: str = ""  # the defining file as a dotted module path (`pkg.client`)
    # a client object the module makes and others import (`export const api =
    # axios.create({ baseURL })`): its knowledge kind; `path` is -1 then, `base` its base
    client: str = ""
    # the parameter handed on as the library's options object (`fetch(url, { ...init })`):
    # the call's mapping there says the method (`method`) and the query (`options_query`)
    options: int | None = None
    options_query: str = ""
    # what the wrapper writes after the path parameter, up to its query: literal texts,
    # and parameters by position (`kind + "/" + id + "/pause"`: ("/", 2, "/pause"))
    suffix: tuple[str | int, ...] = ()
    # A command-line wrapper (`prtg_get() { curl -G ... "$@" "$BASE$1"; }`): the command it
    # runs, the option words it writes, and the first argument its callers hand on to the
    # command as more options (`prtg_get /x --data-urlencode 'filter=...'`).
    command: str = ""
    words: tuple[str, ...] = ()
    forwards: int | None = None


class HelperTable:
    """Helpers by lower-case name; a name defined twice keeps the stronger definition
    (`by_name`), and every definition of it for the tree path, which applies the one in
    scope at a call (`named`)."""

    __slots__ = ("by_name", "every")

    def __init__(self, helpers: Iterable[Helper] = ()) -> None:
        self.by_name: dict[str, Helper] = {}
        # every definition of a name (the tree path picks the one in scope at a call)
        self.every: dict[str, list[Helper]] = {}
        for helper in helpers:
            self.add(helper)

    def add(self, helper: Helper) -> None:
        key = helper.name.lower()
        self.every.setdefault(key, []).append(helper)
        known = self.by_name.get(key)
        if known is None or (helper.strong and not known.strong):
            self.by_name[key] = helper
        if helper.language != "*":
            known = self.by_name.get(_keyed(key, helper.language))
            if known is None or (helper.strong and not known.strong):
                self.by_name[_keyed(key, helper.language)] = helper

    def merged(self, other: HelperTable | Iterable[Helper]) -> HelperTable:
        """This table with `other`'s helpers added; `other` wins for a name both define."""
        table = HelperTable()
        table.by_name = dict(self.by_name)
        table.every = {name: list(found) for name, found in self.every.items()}
        added = (
            [h for found in other.every.values() for h in found]
            if isinstance(other, HelperTable)
            else list(other)
        )
        for helper in added:
            if helper not in table.every.get(helper.name.lower(), ()):
                table.every.setdefault(helper.name.lower(), []).append(helper)
        for helper in added:
            key = helper.name.lower()
            table.by_name[key] = helper
            if helper.language != "*":
                table.by_name[_keyed(key, helper.language)] = helper
        return table

    def get(self, name: str, language: str) -> Helper | None:
        """The helper `name` a file in `language` may call: one of that language, or configured."""
        key = name.lower()
        found = self.by_name.get(_keyed(key, language))
        if found is not None:
            return found
        found = self.by_name.get(key)
        return found if found is not None and found.language == "*" else None

    def named(self, name: str, language: str) -> list[Helper]:
        """Every helper called `name` a file in `language` may call, each definition apart
        (a `get` of one class and a `get` of another module are two wrappers), the one
        `get` picks first; a language of the same family counts as the file's own."""
        family = _FAMILIES.get(language, language)
        found = [
            h
            for h in self.every.get(name.lower(), ())
            if h.language == "*" or _FAMILIES.get(h.language, h.language) == family
        ]
        first = self.get(name, language)
        return ([first] if first is not None else []) + [h for h in found if h is not first]

    @property
    def helpers(self) -> list[Helper]:
        """Each helper once (every definition of a name)."""
        found = {id(h): h for h in self.by_name.values()}
        for every in self.every.values():
            found.update((id(h), h) for h in every)
        return list(found.values())

    def names_in(self, text_lower: str) -> frozenset[str]:
        """The helper names that appear in a text (given in lower case)."""
        return frozenset(name for name in self.by_name if "\0" not in name and name in text_lower)

    def callable_in(self, names: frozenset[str], language: str) -> frozenset[str]:
        """Those of `names` a file in `language` may call (`get`'s rule): a Python helper
        says nothing about the words of a JSON collection or a Go file."""
        return frozenset(name for name in names if self.get(name, language) is not None)

    def __bool__(self) -> bool:
        return bool(self.by_name)

    def __len__(self) -> int:
        return len(self.by_name)

    def __reduce__(self) -> tuple[type[HelperTable], tuple[tuple[Helper, ...]]]:
        return (HelperTable, (tuple(self.helpers),))


# Languages whose code calls each other's functions and classes directly: a wrapper
# one defines is in scope in the others (Kotlin calls a Java class's methods).
_FAMILIES = {"kotlin": "java", "groovy": "java"}


def _keyed(name: str, language: str) -> str:
    return f"{name}\0{_FAMILIES.get(language, language)}"


def configured(names: Iterable[str]) -> list[Helper]:
    """Helpers named in the configuration (`helpers = ["Invoke-PrtgApi", "client.get"]`).

    The path is the first argument (or `-Path`, `path=`); `client.get` matches
    `get` called on a receiver whose last name is `client`.
    """
    helpers = []
    for written in names:
        receiver, _, name = written.strip().rpartition(".")
        helpers.append(Helper(name, 0, "path", receiver=receiver.rsplit(".", 1)[-1] or None))
    return helpers
