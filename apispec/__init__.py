"""apispec: spec toolkit and compatibility linter for the Monitoring Service REST API v2."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    # Resolved on first use: importlib.metadata costs tens of milliseconds at
    # start-up, and only `apispec --version` needs the version.
    if name != "__version__":
        raise AttributeError(name)
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("apispec-v2")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0.0.0+source"
