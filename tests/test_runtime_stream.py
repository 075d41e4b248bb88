"""`apispec traffic -` on a 2 GB stream piped from a generator: one pass, bounded memory.

Nothing is written to disk: a small driver process generates the log into the
pipe of `apispec traffic -` and then reports the child's peak resident memory
(`resource.getrusage(RUSAGE_CHILDREN)` in a driver that has no other child).
The same driver with a 1 MB stream gives the baseline of the same run, so the
assertion is about growth, not about the interpreter's size on this machine.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

GIGABYTES = 2
# The driver: BLOCK is 1,024 lines of about 8 KB (a long Referer, as tracking URLs make),
# written again and again; every line is one of four (endpoint, client) pairs.
DRIVER = r"""
import json, resource, subprocess, sys
total = int(sys.argv[1])
shapes = [
    ("GET /api/v2/sensors/{n}/overview", "backup.ps1/1.0"),
    ("GET /api/v2/devices/{n}", "python-requests/2.31"),
    ("POST /api/v2/experimental/devices/{n}/move", "backup.ps1/1.0"),
    ("GET /static/app.js?v={n}", "Mozilla/5.0"),
]
referrer = "https://portal.example/?utm=" + "x" * 8000
lines = []
for i in range(1024):
    request, agent = shapes[i % 4]
    lines.append(
        f'192.0.2.{i % 200} - - [10/Oct/2024:13:55:{i % 60:02d} +0200] '
        f'"{request.format(n=1000 + i)} HTTP/1.1" 200 512 "{referrer}" "{agent}"\n'
    )
block = "".join(lines).encode()
child = subprocess.Popen(
    [sys.executable, "-m", "apispec", "traffic", "-", "--format", "json", "--fail-on", "never"],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
)
import threading
out = {}
reader = threading.Thread(target=lambda: out.update(o=child.stdout.read(), e=child.stderr.read()))
reader.start()
written = blocks = 0
while written < total:
    child.stdin.write(block)
    written += len(block)
    blocks += 1
child.stdin.close()
reader.join()
child.wait()
print(json.dumps({
    "code": child.returncode,
    "blocks": blocks,
    "bytes": written,
    "peak_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss,
    "report": json.loads(out["o"]) if child.returncode == 0 else None,
    "err": out["e"].decode(errors="replace")[-2000:],
}))
"""


def _drive(total: int) -> dict:
    run = subprocess.run(
        [sys.executable, "-c", DRIVER, str(total)], capture_output=True, timeout=900, check=False
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout)
    assert result["code"] == 0, result["err"]
    return result


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is in kilobytes on Linux")
def test_two_gigabytes_from_a_pipe_in_bounded_memory() -> None:
    small = _drive(1 << 20)
    large = _drive(GIGABYTES << 30)
    assert large["bytes"] >= GIGABYTES << 30
    report = large["report"]
    blocks = large["blocks"]
    per_shape = 256 * blocks  # each of the four shapes is a quarter of every block
    assert report["summary"]["requests"] == 1024 * blocks
    assert report["summary"]["not_api_requests"] == per_shape
    assert report["summary"]["malformed_lines"] == 0
    counts = {
        (e["method"], e["endpoint"], c["client"]): c["requests"]
        for e in report["endpoints"]
        for c in e["clients"]
    }
    assert counts == {
        ("GET", "/sensors/{id}/overview", "backup.ps1/1.0"): per_shape,
        ("GET", "/devices/{id}", "python-requests/2.31"): per_shape,
        ("POST", "/experimental/devices/{id}/move", "backup.ps1/1.0"): per_shape,
    }
    growth_mb = (large["peak_kb"] - small["peak_kb"]) / 1024
    assert growth_mb < 48, (small["peak_kb"], large["peak_kb"])
