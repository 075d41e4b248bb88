"""The registry: the API's facts as YAML (data/), their typed model, loading, checks, overlays, diffs and the importer."""
