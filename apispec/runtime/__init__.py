"""Runtime truth: which endpoints clients really call, from logs and from a checking proxy.

The linter reads code; this package reads what reached the server. `readers/`
turns each log format into `Seen` records (one request each), `matching` judges a
request with the linter's own matching and rules, `aggregate` counts per endpoint
and client in one pass, `calls` joins the counts with the calls the linter found
in code, `report/` writes the result, `run` is `apispec traffic` from inputs to
exit code, and `proxy/` is `apispec proxy`, which judges requests as they pass.
"""
