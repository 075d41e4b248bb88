"""Generators: the OpenAPI document, reference docs, changelogs and the MCP tool catalog, all from the registry."""
