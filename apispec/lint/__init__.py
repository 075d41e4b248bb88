"""The compatibility linter: find API v2 calls in client code and flag what breaks."""
