"""Plumbing every part shares: safe file input and output, guarded YAML, terminal, tables, printable text, errors."""
