"""Documentation generators: real command output written into docs/ (run as python -m apispec.docgen.lint)."""
