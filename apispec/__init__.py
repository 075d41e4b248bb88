"""apispec: spec toolkit and compatibility linter for the Monitoring Service REST API v2."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("apispec-v2")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"
