"""`apispec registry import`: a server's own OpenAPI description, turned into an overlay.

Stages, each a module: `sources` reads documents (a file, a directory or a
URL) and never leaves SOURCE's own directory or URL prefix; `refs` follows
`$ref`s between them with caps; `describe` turns the OpenAPI document into
registry facts; `overlay` keeps what the registry lacks or states otherwise.
"""
