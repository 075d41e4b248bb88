"""Stage 3 of extraction: the call around a path - callee, method, and whether it is a call at all."""
