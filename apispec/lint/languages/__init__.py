"""One module per language family; `dialect(name)` gives the scanner settings for a language."""

from __future__ import annotations

from functools import cache
from importlib import import_module

from apispec.lint.languages.common import Dialect

_MODULES = {
    "python": ("python", "PythonDialect"),
    "shell": ("shell", "ShellDialect"),
    "powershell": ("powershell", "PowerShellDialect"),
    "javascript": ("javascript", "JavaScriptDialect"),
    "go": ("go", "GoDialect"),
    "csharp": ("csharp", "CSharpDialect"),
    "java": ("java", "JavaDialect"),
    "ruby": ("ruby", "RubyDialect"),
    "php": ("php", "PhpDialect"),
}


class GenericDialect(Dialect):
    """Unknown languages: quoted full URLs with /api/v2 only."""

    full_urls_only = True


@cache
def dialect(language: str) -> Dialect:
    entry = _MODULES.get(language)
    if entry is None:
        return GenericDialect()
    try:
        module = import_module(f"apispec.lint.languages.{entry[0]}")
    except ModuleNotFoundError:
        return GenericDialect()
    return getattr(module, entry[1])()
