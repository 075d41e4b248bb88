"""Language knowledge: one dialect module per language family, and the tables they share.

`table.py` maps file names and fence names to languages, `clients.py` holds
what is known about HTTP clients, frameworks and mocks as rows, `dialect.py`
the base every dialect overrides, and `embedded.py` finds code inside
Markdown, HTML and notebooks. Only apispec/lint/extract.py loads dialects.
"""
