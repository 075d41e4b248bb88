"""One module per `apispec` subcommand; see apispec.cli.COMMANDS."""
