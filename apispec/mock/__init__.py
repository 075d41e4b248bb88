"""The mock server: the API v2 as the spec describes it, for testing scripts offline.

    from apispec.mock import MockConfig, create_app
    app = create_app(MockConfig(objects=2000, seed=1))   # an ASGI app

`apispec mock` serves it with uvicorn (apispec.mock.server); docs/mock.md
describes the data, the users and every decision where the spec is silent.
"""

from apispec.mock.app import create_app
from apispec.mock.context import MockConfig

__all__ = ["MockConfig", "create_app"]
