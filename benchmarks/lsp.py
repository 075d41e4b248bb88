"""How fast `apispec lsp` answers an editor: first diagnostics, diagnostics after a change,
and completion.

First, --starts times (default 5) from a cold start: the time from starting the
process to the first `textDocument/publishDiagnostics` for examples/python/
prtg_inventory.py, the way Neovim starts it (initialize, initialized, didOpen;
settings answered), next to `apispec lint` of the same file in the same run as
the baseline, with their ratio (target: first diagnostics within 1 s).

Then it starts the real server on stdio, opens a generated 2,000-line Python file
(about 2 % of its lines are API v2 calls, as in benchmarks/lint.py's dense
corpus), warms it up, then measures, each over --repeat rounds:

- push: from sending `textDocument/didChange` (one line edited, once per
  round, each round after the last one's diagnostics) to receiving
  `textDocument/publishDiagnostics` for that version; the first change after
  a pause is linted at once, so the server's throttle (30 ms) only shows when
  changes come faster than it;
- pull: a `textDocument/diagnostic` request right after a change (no debounce);
- completion: `textDocument/completion` inside a filter string of that file.

With --slip the file also holds a filter with a fixable slip (`status == down`),
so every lint also verifies API006's fix (one more extraction of the file).

The client is a few lines of JSON-RPC over pipes, so the figures are the
server's (plus two pipe hops), not a client library's.

Usage: python benchmarks/lsp.py [--lines N] [--repeat R] [--slip] [--starts S]
Targets (issue 14): diagnostics within 100 ms of a change on a warm server,
completion within 50 ms.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from lint import CALLS, FILLER, HEADERS  # the lint benchmark's Python shapes

FILTER_CALL = (
    'r = requests.get(f"{{BASE}}/experimental/sensors", '
    "params={{'filter': 'status = down and ty'}}, headers=AUTH)"
)

SLIP_CALL = (
    'up = requests.get(f"{{BASE}}/experimental/devices", '
    "params={{'filter': 'status == down'}}, headers=AUTH)"
)


def generate(lines: int, seed: int = 7, slip: bool = False) -> tuple[str, int, int]:
    """The file, and the line and column of a cursor inside a filter string."""
    rng = random.Random(seed)
    out = HEADERS[".py"].splitlines()
    while len(out) < lines:
        n = len(out)
        if n == lines // 2:
            out.append(FILTER_CALL.format())
        elif slip and n == lines // 4:
            out.append(SLIP_CALL.format())
        elif rng.random() < 0.02:
            out.append(rng.choice(CALLS[".py"]).format(n=n))
        else:
            out.append(FILLER[".py"][n % len(FILLER[".py"])].format(n=n))
    cursor_line = lines // 2
    return "\n".join(out) + "\n", cursor_line, out[cursor_line].index("and ty") + len("and ty")


class Client:
    """JSON-RPC over the server's pipes; messages arrive on a queue, in order."""

    def __init__(self, command: list[str]) -> None:
        self.server = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
        )
        self.messages: queue.Queue[dict] = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        stream = self.server.stdout
        assert stream is not None
        while True:
            length = 0
            while True:
                line = stream.readline()
                if not line:
                    return
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
                if line in (b"\r\n", b"\n"):
                    break
            self.messages.put(json.loads(stream.read(length)))

    def send(self, message: dict) -> None:
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        assert self.server.stdin is not None
        self.server.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        self.server.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.send({"id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m)

    def wait(self, wanted) -> dict:
        while True:
            message = self.messages.get(timeout=120)
            if "method" in message and "id" in message:  # a request to the client
                result = None
                if message["method"] == "workspace/configuration":
                    result = [SETTINGS for _ in message["params"]["items"]]
                self.send({"id": message["id"], "result": result})
            if wanted(message):
                return message


SETTINGS = {"target": "25.x.122"}
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "python" / "prtg_inventory.py"


def first_diagnostics(path: Path) -> float:
    """Seconds from starting `apispec lsp` to the first diagnostics of `path`, as an
    editor without pull diagnostics (Neovim before 0.10) sees them."""
    started = time.perf_counter()
    client = Client([sys.executable, "-m", "apispec", "lsp"])
    client.request(
        "initialize",
        {
            "processId": None,
            "rootUri": path.parent.as_uri(),
            "capabilities": {"workspace": {"configuration": True}},
            "initializationOptions": {"settings": SETTINGS},
        },
    )
    client.notify("initialized", {})
    item = {"uri": path.as_uri(), "languageId": "python", "version": 1, "text": path.read_text()}
    client.notify("textDocument/didOpen", {"textDocument": item})
    client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    elapsed = time.perf_counter() - started
    client.request("shutdown", {})
    client.notify("exit", {})
    client.server.wait(timeout=30)
    return elapsed


def cli_lint(path: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--target", SETTINGS["target"], str(path)],
        capture_output=True,
        check=False,
    )
    return time.perf_counter() - started


def startup(starts: int) -> None:
    lsp = [first_diagnostics(EXAMPLE) for _ in range(starts)]
    cli = [cli_lint(EXAMPLE) for _ in range(starts)]
    first, baseline = statistics.median(lsp), statistics.median(cli)
    print(f"first diagnostics from process start ({EXAMPLE.name}, {starts} cold starts):")
    print(f"  apispec lsp:  median {first:5.2f} s, max {max(lsp):5.2f} s")
    print(f"  apispec lint: median {baseline:5.2f} s (the same file, the baseline)")
    print(f"  ratio {first / baseline:.2f}; target: first diagnostics <= 1 s")


def _ms(values: list[float]) -> str:
    values = sorted(v * 1000 for v in values)
    p90 = values[min(len(values) - 1, int(len(values) * 0.9))]
    return (
        f"median {statistics.median(values):6.1f} ms, p90 {p90:6.1f} ms, max {values[-1]:6.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--slip", action="store_true", help="add a filter with a fixable slip")
    parser.add_argument("--starts", type=int, default=5, help="cold starts timed (0: none)")
    args = parser.parse_args()
    if args.starts:
        startup(args.starts)

    text, cursor_line, cursor_column = generate(args.lines, slip=args.slip)
    folder = Path(tempfile.mkdtemp(prefix="apispec-lsp-bench-"))
    path = folder / "client.py"
    path.write_text(text)
    uri = path.as_uri()
    calls = sum("/api/v2" in line or "BASE}/" in line for line in text.splitlines())
    print(f"document: {args.lines} lines, {calls} API v2 call lines, {len(text) / 1000:.0f} kB")

    results: dict[str, list[float]] = {"push": [], "pull": [], "completion": []}
    for mode in ("push", "pull"):
        capabilities: dict = {}
        if mode == "pull":
            capabilities = {"textDocument": {"diagnostic": {}}}
        client = Client([sys.executable, "-m", "apispec", "lsp"])
        started = time.perf_counter()
        client.request("initialize", {"capabilities": capabilities, "rootUri": folder.as_uri()})
        client.notify("initialized", {})
        item = {"uri": uri, "languageId": "python", "version": 1, "text": text}
        client.notify("textDocument/didOpen", {"textDocument": item})
        version = 1
        if mode == "push":
            client.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
        else:
            client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
        print(f"{mode}: server up, first diagnostics after {time.perf_counter() - started:.2f} s")
        lines = text.split("\n")
        for round_ in range(args.repeat + 3):  # three warm-up rounds
            version += 1
            lines[3] = f"# edit {round_}"
            change = {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"text": "\n".join(lines)}],
            }
            start = time.perf_counter()
            client.notify("textDocument/didChange", change)
            if mode == "push":
                client.wait(
                    lambda m, v=version: (
                        m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"].get("version") == v
                    )
                )
            else:
                client.request("textDocument/diagnostic", {"textDocument": {"uri": uri}})
            elapsed = time.perf_counter() - start
            if round_ >= 3:
                results[mode].append(elapsed)
            if mode == "push":
                start = time.perf_counter()
                answer = client.request(
                    "textDocument/completion",
                    {
                        "textDocument": {"uri": uri},
                        "position": {"line": cursor_line, "character": cursor_column},
                    },
                )
                elapsed = time.perf_counter() - start
                labels = [i["label"] for i in answer["result"]["items"]]
                assert labels == ["type"], labels
                if round_ >= 3:
                    results["completion"].append(elapsed)
        client.request("shutdown", {})
        client.notify("exit", {})
        client.server.wait(timeout=30)

    print(f"diagnostics, push:             {_ms(results['push'])}")
    print(f"diagnostics, pull:             {_ms(results['pull'])}")
    print(f"completion in a filter string: {_ms(results['completion'])}")
    print("targets: diagnostics <= 100 ms, completion <= 50 ms (medians above)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
