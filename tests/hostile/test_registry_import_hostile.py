"""`apispec registry import` on hostile sources: one line, exit 2, nothing read outside the base.

Each case runs the real command in a child process with an audit hook that
records every file it opens and every address it connects to, so "nothing
read outside the base" is observed, not assumed. The 100 MB document is made
on the spot (sparse on disk, streamed over HTTP) and never kept.
"""

from __future__ import annotations

import http.server
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest

# The child: record opens and connects, run the CLI, write what it saw as JSON.
_CHILD = r"""
import json, os, sys
seen = {"open": [], "connect": []}
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        seen["open"].append(os.fsdecode(args[0]))
    elif event == "socket.connect":
        seen["connect"].append(list(args[1])[:2] if isinstance(args[1], tuple) else str(args[1]))
sys.addaudithook(hook)
from apispec.cli import main
try:
    code = main(sys.argv[2:])
finally:
    # VmHWM, not ru_maxrss: Linux carries ru_maxrss across execve, so a child of a
    # big test worker (vfork) would report the worker's peak, not its own.
    with open("/proc/self/status") as status:
        peak = [line for line in status if line.startswith("VmHWM:")]
    seen["maxrss_kb"] = int(peak[0].split()[1]) if peak else 0
    with open(sys.argv[1], "w") as log:
        json.dump(seen, log)
sys.exit(code)
"""

TOKEN = "s3cr3t-t0ken-value"


@dataclass
class Run:
    code: int
    out: str
    err: str
    opened: list[str]
    connected: list[list[object]]
    maxrss_kb: int


def _import(tmp_path: Path, source: str, *extra: str, timeout: float = 60) -> Run:
    log = tmp_path / "audit.json"
    output = tmp_path / "overlay-out"
    command = [sys.executable, "-c", _CHILD, str(log), "registry", "import", source]
    command += ["--output", str(output), *extra]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    seen = json.loads(log.read_text())
    assert not (output / "overlay.yaml").exists(), "a refused import wrote an overlay"
    return Run(
        done.returncode, done.stdout, done.stderr, seen["open"], seen["connect"], seen["maxrss_kb"]
    )


def _refused(run: Run, *words: str) -> None:
    assert run.code == 2, run.err
    assert "Traceback" not in run.err
    lines = run.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("apispec: error: "), run.err
    for word in words:
        assert word in lines[0], lines[0]


def _opened_outside(run: Run, base: Path, *also: str) -> list[str]:
    """Files the child opened in the test's area but outside `base`, or among `also`."""
    root = os.path.realpath(base.parent)
    inside = os.path.realpath(base)
    outside = []
    for name in run.opened:
        real = os.path.realpath(name)
        in_area = real.startswith(root + os.sep) and not real.startswith(inside)
        if (real in also or in_area) and not real.endswith("audit.json"):
            outside.append(name)
    return outside


ROOT = """\
openapi: 3.0.3
info: {title: hostile, version: 25.1.104}
paths:
  /health:
    $ref: "REF"
"""


def _base(tmp_path: Path, ref: str, extra: str = "") -> Path:
    base = tmp_path / "base"
    base.mkdir()
    (base / "openapi.yaml").write_text(ROOT.replace("REF", ref) + extra)
    secret = tmp_path / "outside"
    secret.mkdir()
    (secret / "secret.yaml").write_text("get: {summary: stolen}\n")
    return base


@pytest.mark.parametrize(
    ("ref", "words"),
    [
        ("../../etc/passwd", ["'../../etc/passwd'", "leaves the base", "outside its directory"]),
        ("../outside/secret.yaml", ["'../outside/secret.yaml'", "leaves the base"]),
        ("/etc/passwd", ["'/etc/passwd'", "leaves the base"]),
        ("file:///etc/passwd", ["'file:///etc/passwd'", "leaves the base", "file://"]),
        ("paths/..%2F..%2Foutside/secret.yaml", ["leaves the base", "encoded"]),
    ],
    ids=["dot-dot-etc-passwd", "dot-dot-sibling", "absolute-path", "file-url", "encoded-dots"],
)
def test_a_reference_out_of_the_directory_is_refused_unread(
    tmp_path: Path, ref: str, words: list[str]
) -> None:
    base = _base(tmp_path, ref)
    run = _import(tmp_path, str(base))
    _refused(run, *words)
    assert _opened_outside(run, base, "/etc/passwd") == []


def test_a_symbolic_link_out_of_the_directory_is_refused_unread(tmp_path: Path) -> None:
    base = _base(tmp_path, "paths.yaml#/health")
    (base / "paths.yaml").symlink_to(tmp_path / "outside" / "secret.yaml")
    run = _import(tmp_path, str(base))
    _refused(run, "'paths.yaml#/health'", "symbolic link")
    assert _opened_outside(run, base) == []


def test_a_root_document_linked_out_of_the_directory_is_refused_unread(tmp_path: Path) -> None:
    base = _base(tmp_path, "#/x")
    (base / "openapi.yaml").unlink()
    (base / "openapi.yaml").symlink_to(tmp_path / "outside" / "secret.yaml")
    run = _import(tmp_path, str(base))
    _refused(run, "openapi.yaml", "symbolic link out of")
    assert _opened_outside(run, base) == []


def test_a_reference_nowhere_used_is_still_checked(tmp_path: Path) -> None:
    """A bad $ref in a part the import never follows is refused all the same."""
    extra = "x-notes:\n  see:\n    $ref: ../outside/secret.yaml\n"
    base = _base(tmp_path, "#/x-health", extra + "x-health: {get: {summary: ok}}\n")
    run = _import(tmp_path, str(base))
    _refused(run, "'../outside/secret.yaml'")
    assert _opened_outside(run, base) == []


class _Recorder(http.server.BaseHTTPRequestHandler):
    """Serves `routes` (path -> (status, headers, body or a chunk generator)); records requests."""

    routes: ClassVar[dict[str, tuple[int, dict[str, str], object]]] = {}
    requests: ClassVar[list[tuple[str, dict[str, str]]]] = []

    def do_GET(self) -> None:
        self.requests.append((self.path, dict(self.headers)))
        status, headers, body = self.routes.get(self.path, (404, {}, b"not here"))
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        if isinstance(body, bytes):
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.end_headers()  # no length: the body streams until the connection closes
        try:
            for chunk in body():  # type: ignore[operator]
                self.wfile.write(chunk)
        except (BrokenPipeError, ConnectionResetError):
            pass
        self.close_connection = True

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def serve() -> Iterator[
    Callable[[dict[str, tuple[int, dict[str, str], object]]], tuple[str, list]]
]:
    servers = []

    def start(routes: dict[str, tuple[int, dict[str, str], object]]) -> tuple[str, list]:
        handler = type("Handler", (_Recorder,), {"routes": routes, "requests": []})
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}", handler.requests

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _yaml(text: str) -> tuple[int, dict[str, str], bytes]:
    return 200, {"Content-Type": "application/yaml"}, text.encode()


def test_a_reference_to_another_host_is_refused_unrequested(tmp_path: Path, serve) -> None:
    other, other_requests = serve({"/x.yaml": _yaml("get: {summary: elsewhere}\n")})
    url, requests = serve({"/oas/": _yaml(ROOT.replace("REF", f"{other}/x.yaml"))})
    run = _import(tmp_path, f"{url}/oas/", "--header", f"Authorization: Bearer {TOKEN}")
    _refused(run, f"'{other}/x.yaml'", "another origin")
    assert other_requests == []
    port = int(other.rsplit(":", 1)[1])
    assert all(c[1] != port for c in run.connected if isinstance(c, list))
    assert [path for path, _ in requests] == ["/oas/"]
    assert TOKEN not in run.err + run.out


def test_a_file_reference_to_a_host_is_refused_unrequested(tmp_path: Path, serve) -> None:
    other, other_requests = serve({"/x.yaml": _yaml("get: {summary: elsewhere}\n")})
    base = _base(tmp_path, f"{other}/x.yaml")
    run = _import(tmp_path, str(base))
    _refused(run, "leaves the base", "http://")
    assert other_requests == []


def test_a_redirect_to_another_origin_is_not_followed(tmp_path: Path, serve) -> None:
    other, other_requests = serve({"/oas/": _yaml(ROOT.replace("REF", "#/x"))})
    url, _ = serve({"/oas/": (302, {"Location": f"{other}/oas/"}, b"")})
    run = _import(tmp_path, f"{url}/oas/", "--header", f"Authorization: Bearer {TOKEN}")
    _refused(run, "redirected", "another origin")
    assert other_requests == []
    assert TOKEN not in run.err


def test_a_reference_above_the_url_prefix_is_refused(tmp_path: Path, serve) -> None:
    url, requests = serve(
        {
            "/api/v2/oas/": _yaml(ROOT.replace("REF", "../../admin/secret.yaml")),
            "/api/admin/secret.yaml": _yaml("get: {summary: stolen}\n"),
        }
    )
    run = _import(tmp_path, f"{url}/api/v2/oas/")
    _refused(run, "'../../admin/secret.yaml'", "outside")
    assert [path for path, _ in requests] == ["/api/v2/oas/"]


def test_a_self_referencing_cycle_is_an_error(tmp_path: Path) -> None:
    base = _base(tmp_path, "#/paths/~1health")
    run = _import(tmp_path, str(base))
    _refused(run, "$ref cycle")


def test_a_cycle_across_files_is_an_error(tmp_path: Path) -> None:
    base = _base(tmp_path, "a.yaml#/item")
    (base / "a.yaml").write_text("item:\n  $ref: b.yaml#/item\n")
    (base / "b.yaml").write_text("item:\n  $ref: a.yaml#/item\n")
    run = _import(tmp_path, str(base))
    _refused(run, "$ref cycle", "a.yaml", "b.yaml")


def test_a_schema_that_contains_itself_is_not_a_cycle(tmp_path: Path) -> None:
    """A tree node whose children are tree nodes is ordinary; the import must finish."""
    doc = """\
openapi: 3.0.3
info: {title: tree, version: 25.1.104}
paths:
  /experimental/probes:
    get:
      parameters: [{name: filter, in: query, schema: {type: string}}]
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {type: array, items: {$ref: "#/components/schemas/Node"}}
components:
  schemas:
    Node:
      type: object
      properties:
        status: {type: string, enum: [up, down, warning]}
        children: {type: array, items: {$ref: "#/components/schemas/Node"}}
"""
    base = tmp_path / "tree"
    base.mkdir()
    (base / "openapi.yaml").write_text(doc)
    out = tmp_path / "tree-overlay"
    done = subprocess.run(
        [sys.executable, "-m", "apispec", "registry", "import", str(base), "-o", str(out)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "values: [up, down, warning]" in (out / "overlay.yaml").read_text()


BOMB = """\
openapi: 3.0.3
info: {title: bomb, version: 25.1.104}
x-a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
x-b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
x-c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
x-d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
x-e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
x-f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
x-g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
x-h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
x-i: &i [*h, *h, *h, *h, *h, *h, *h, *h, *h]
paths: {}
"""


def test_an_alias_bomb_is_refused_small(tmp_path: Path) -> None:
    base = tmp_path / "bomb"
    base.mkdir()
    (base / "openapi.yaml").write_text(BOMB)
    run = _import(tmp_path, str(base / "openapi.yaml"))
    _refused(run, "openapi.yaml", "aliases")
    assert run.maxrss_kb < 300_000


def test_a_recursive_alias_is_refused(tmp_path: Path) -> None:
    base = tmp_path / "loop"
    base.mkdir()
    (base / "openapi.yaml").write_text(
        "openapi: 3.0.3\ninfo: {title: t, version: 25.1.104}\nx-loop: &l [*l]\npaths: {}\n"
    )
    run = _import(tmp_path, str(base / "openapi.yaml"))
    _refused(run, "openapi.yaml")


def test_deep_nesting_is_refused(tmp_path: Path) -> None:
    base = tmp_path / "deep"
    base.mkdir()
    deep = "[" * 50_000 + "]" * 50_000
    (base / "openapi.json").write_text(
        f'{{"openapi": "3.0.3", "info": {{"title": "t", "version": "25.1.104"}}, "x": {deep}}}'
    )
    run = _import(tmp_path, str(base / "openapi.json"))
    _refused(run, "openapi.json", "nested deeper")


HUNDRED_MB = 100 * 1024 * 1024


def test_a_100_mb_file_is_refused_unread(tmp_path: Path) -> None:
    base = tmp_path / "huge"
    base.mkdir()
    huge = base / "openapi.yaml"
    with huge.open("wb") as handle:  # sparse: takes no disk space and no time
        handle.write(b"openapi: 3.0.3\ninfo: {title: huge, version: 25.1.104}\npaths:\n")
        handle.truncate(HUNDRED_MB)
    run = _import(tmp_path, str(huge))
    _refused(run, "openapi.yaml", "too large", "100 MB")
    assert run.maxrss_kb < 200_000


def test_a_100_mb_answer_without_length_is_cut_off(tmp_path: Path, serve) -> None:
    line = b"x-filler: " + b"a" * 1013 + b"\n"

    def chunks() -> Iterator[bytes]:
        yield b"openapi: 3.0.3\ninfo: {title: huge, version: 25.1.104}\n"
        for _ in range(HUNDRED_MB // len(line)):
            yield line * 64

    url, _ = serve({"/oas/": (200, {"Content-Type": "application/yaml"}, chunks)})
    run = _import(tmp_path, f"{url}/oas/")
    _refused(run, "too large")
    assert run.maxrss_kb < 200_000


def test_a_100_mb_answer_with_its_length_is_refused_before_reading(tmp_path: Path, serve) -> None:
    def nothing() -> Iterator[bytes]:
        yield b"openapi: 3.0.3\n"

    url, _ = serve({"/oas/": (200, {"Content-Length": str(HUNDRED_MB)}, nothing)})
    run = _import(tmp_path, f"{url}/oas/")
    _refused(run, "too large", "100 MB")


def test_a_named_pipe_is_refused_without_blocking(tmp_path: Path) -> None:
    base = _base(tmp_path, "pipe.yaml#/item")
    os.mkfifo(base / "pipe.yaml")
    run = _import(tmp_path, str(base), timeout=30)
    _refused(run, "pipe.yaml", "not a regular file")


def test_header_values_are_sent_but_never_shown_or_written(tmp_path: Path, serve) -> None:
    doc = ROOT.replace('$ref: "REF"', "get: {operationId: getHealth, summary: Health}")
    url, requests = serve({"/oas/": _yaml(doc), "/denied/": (401, {}, b"no")})
    out = tmp_path / "overlay-ok"
    header = f"Authorization: Bearer {TOKEN}"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "apispec",
            "registry",
            "import",
            f"{url}/oas/",
            "-o",
            str(out),
            "--header",
            header,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert requests[0][1]["Authorization"] == f"Bearer {TOKEN}"
    assert TOKEN not in done.stdout + done.stderr
    assert TOKEN not in (out / "overlay.yaml").read_text()
    denied = _import(tmp_path, f"{url}/denied/", "--header", header)
    _refused(denied, "HTTP 401")
    assert TOKEN not in denied.err + denied.out
    malformed = _import(tmp_path, f"{url}/oas/", "--header", TOKEN)
    _refused(malformed, "--header #1")
    assert TOKEN not in malformed.err
