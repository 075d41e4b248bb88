"""CI integrations that are not commands: the GitHub Action's step (action.yml)."""
