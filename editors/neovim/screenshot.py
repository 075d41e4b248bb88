"""Screenshots of apispec in a real Neovim, for docs/editors.md.

Runs Neovim (from the system, with editors/neovim/lua/apispec.lua and no
other configuration) in a pseudo-terminal of a fixed size, lets it talk to
`apispec lsp`, and reads the terminal through pyte, a VT100 emulator: what
is saved is the screen Neovim drew, cell by cell, as SVG (colours kept) and
as text. Three moments: the diagnostics of a client script, the hover on a
deprecated path, completion inside a filter string.

    python editors/neovim/screenshot.py docs/editors

Needs nvim on PATH and `pip install -e '.[test]'` (pyte). Takes ~20 s.
"""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from html import escape
from pathlib import Path

import pyte

COLUMNS, ROWS = 150, 14
HERE = Path(__file__).resolve().parent
DEMO = """\
import requests

BASE = "https://prtg.example.com:1616/api/v2"
get = requests.Session().get

sensor = get(f"{BASE}/sensors/{sid}/overview")
down = get(f"{BASE}/experimental/devices", params={"filter": "status == down"})
probes = get(f"{BASE}/experimental/probes", params={"filter": "st"})
"""
# xterm's 16 colours (pyte names the first 8), then its defaults for text and background.
PALETTE = {
    "black": "#000000",
    "red": "#cd0000",
    "green": "#00cd00",
    "brown": "#cdcd00",
    "blue": "#0000ee",
    "magenta": "#cd00cd",
    "cyan": "#00cdcd",
    "white": "#e5e5e5",
    "brightblack": "#7f7f7f",
    "brightred": "#ff0000",
    "brightgreen": "#00ff00",
    "brightbrown": "#ffff00",
    "brightblue": "#5c5cff",
    "brightmagenta": "#ff00ff",
    "brightcyan": "#00ffff",
    "brightwhite": "#ffffff",
}
FOREGROUND, BACKGROUND = "#1e1e1e", "#ffffff"


class Terminal:
    """Neovim in a pseudo-terminal, its screen kept up to date by pyte."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        master, slave = pty.openpty()
        import fcntl
        import struct
        import termios

        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLORTERM": ""}
        self.process = subprocess.Popen(
            argv, cwd=cwd, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.master = master

    def pump(self, seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            ready, _, _ = select.select([self.master], [], [], 0.05)
            if ready:
                try:
                    data = os.read(self.master, 65536)
                except OSError:
                    return
                self.stream.feed(data)

    def until(self, seen: Callable[[str], bool], timeout: float = 60) -> None:
        end = time.monotonic() + timeout
        while not seen("\n".join(self.screen.display)):
            if time.monotonic() > end:
                raise TimeoutError("Neovim's screen never showed what was awaited:\n" + self.text())
            self.pump(0.1)
        self.pump(0.5)  # let it finish drawing

    def keys(self, text: str) -> None:
        os.write(self.master, text.encode())

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display).rstrip() + "\n"

    def svg(self) -> str:
        return render_svg(self.screen)

    def close(self) -> None:
        self.keys("\x1b:qa!\r")
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        os.close(self.master)


def _colour(name: str, default: str) -> str:
    if name == "default":
        return default
    if name in PALETTE:
        return PALETTE[name]
    return f"#{name}" if len(name) == 6 else default


def render_svg(screen: pyte.Screen) -> str:
    """The screen as an SVG of monospace cells: backgrounds, then runs of same-styled text."""
    width, height = 8.4, 17.0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{COLUMNS * width:.0f}" '
        f'height="{ROWS * height:.0f}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" '
        'font-size="14">',
        f'<rect width="100%" height="100%" fill="{BACKGROUND}"/>',
    ]
    for y in range(ROWS):
        row = screen.buffer[y]
        x = 0
        while x < COLUMNS:
            char = row[x]
            fg = _colour(char.fg, FOREGROUND)
            bg = _colour(char.bg, BACKGROUND)
            if char.reverse:
                fg, bg = bg, fg
            start = x
            text = []
            while x < COLUMNS:
                c = row[x]
                cfg, cbg = _colour(c.fg, FOREGROUND), _colour(c.bg, BACKGROUND)
                if c.reverse:
                    cfg, cbg = cbg, cfg
                if (cfg, cbg, c.bold) != (fg, bg, char.bold):
                    break
                text.append(c.data or " ")
                x += 1
            if bg != BACKGROUND:
                parts.append(
                    f'<rect x="{start * width:.1f}" y="{y * height:.1f}" '
                    f'width="{(x - start) * width:.1f}" height="{height:.1f}" fill="{bg}"/>'
                )
            content = "".join(text).rstrip()
            if content:
                weight = ' font-weight="bold"' if char.bold else ""
                parts.append(
                    f'<text x="{start * width:.1f}" y="{y * height + 13:.1f}" fill="{fg}"{weight} '
                    f'xml:space="preserve">{escape(content)}</text>'
                )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def capture(output: Path) -> list[Path]:
    output.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="apispec-nvim-"))
    (work / "client.py").write_text(DEMO)
    command = (
        json.dumps([sys.executable, "-m", "apispec", "lsp"]).replace("[", "{").replace("]", "}")
    )
    argv = [
        "nvim",
        "--clean",
        "--cmd",
        f"set rtp^={HERE}",
        "-c",
        f"lua require('apispec').setup({{ cmd = {command}, settings = {{ target = '25.x.122' }} }})",
        "-c",
        "set signcolumn=yes nowrap laststatus=0 noruler noshowmode shortmess+=I",
        "-c",
        "set omnifunc=v:lua.vim.lsp.omnifunc completeopt=menuone,noinsert",
        "-c",
        "edit client.py",  # after setup(), so its FileType autocommand sees the buffer
    ]
    term = Terminal(argv, work)
    written = []
    try:
        term.until(lambda s: "deprecated since" in s and "FLT001" in s)
        written += _save(term, output, "neovim-diagnostics")
        term.keys(":call cursor(6, 30)\r:lua vim.lsp.buf.hover()\r")
        term.until(lambda s: "successor: GET /sensors/{id}" in s)
        written += _save(term, output, "neovim-hover")
        term.keys("\x1b\x1b:call cursor(8, 65)\ra\x18\x0f")  # append after `st`, then Ctrl-X Ctrl-O
        term.until(lambda s: "status" in s and "enumeration" in s)
        written += _save(term, output, "neovim-completion")
    finally:
        term.close()
    return written


def _save(term: Terminal, output: Path, name: str) -> list[Path]:
    svg, txt = output / f"{name}.svg", output / f"{name}.txt"
    svg.write_text(term.svg(), encoding="utf-8")
    txt.write_text(term.text(), encoding="utf-8")
    return [svg, txt]


if __name__ == "__main__":
    target = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/editors")
    for path in capture(target):
        print(f"wrote {path}")
