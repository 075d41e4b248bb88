"""The OpenAPI 3.1 document of one release, built from the registry alone.

`build_document` is the public entry point (the mock server and the MCP
catalog use it); `apispec.generate.openapi.check` validates any OpenAPI file.
"""

from apispec.generate.openapi.build import build_document

__all__ = ["build_document"]
