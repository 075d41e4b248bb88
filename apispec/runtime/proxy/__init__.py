"""`apispec proxy`: a reverse proxy that judges every request it forwards (see app.py)."""
