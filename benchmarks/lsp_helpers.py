"""What learning a workspace's own API helpers costs `apispec lsp`, on a tree of your choice.

Does what the server does after `initialize`, without the protocol around it:
walks the folder as `apispec lint FOLDER` would, then for each file reads it,
hashes it and (unless that content was learnt before) runs the first pass of
the linter over it to learn the helpers it defines. Measured twice: cold, then
again as after a configuration change (every file read and hashed, each
content found in the cache). With --compare, also checks that the server's
workspace diagnostics equal `apispec lint FOLDER`'s findings.

Usage: python benchmarks/lsp_helpers.py FOLDER [--compare]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from apispec.lsp import adapter
from apispec.lsp.analysis import Analyzer
from apispec.lsp.documents import Documents
from apispec.lsp.helper_index import HelperIndex
from apispec.lsp.settings import Profiles
from apispec.lsp.workspace import scan


def learn(folder: Path, profiles: Profiles, analyzer: Analyzer, index: HelperIndex) -> int:
    files = adapter.workspace_candidates(folder, profiles.profile(folder, folder).config)
    todo, _ = index.walked(folder, files)
    for path in todo:
        profile = profiles.profile(Path(path).parent, folder)
        read = adapter.read_file(path, profile.config.max_file_size)
        if read is None:
            continue
        data, status, digest = read
        helpers = index.learnt(profile.key, digest)
        if helpers is None:
            checker, _ = analyzer.checker(profile)
            helpers = tuple(adapter.file_helpers(checker, data, path))
        index.set_file(folder, path, status, (profile.key, digest), helpers)
    return len(files)


def compare(folder: Path, profiles: Profiles, index: HelperIndex) -> None:
    server = {
        (os.path.relpath(str(r.document.path), folder), f.code, f.line, f.column, f.message)
        for r in scan([folder], Documents(), profiles, Analyzer(), lambda: False, index)
        for f in r.result.findings
    }
    shown = subprocess.run(
        [sys.executable, "-m", "apispec", "lint", "--no-cache", "--format", "json", "."],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    cli = {
        (f["path"], f["code"], f["line"], f["column"], f["message"])
        for f in json.loads(shown)["findings"]
    }
    print(f"workspace diagnostics: {len(server)} findings, apispec lint: {len(cli)}")
    print(f"  only the server's: {sorted(server - cli)[:5]}")
    print(f"  only the CLI's:    {sorted(cli - server)[:5]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--compare", action="store_true")
    args = parser.parse_args()
    folder = args.folder.resolve()
    profiles, analyzer, index = Profiles(), Analyzer(), HelperIndex()
    adapter.load_registry(None)  # the server loads it before learning starts
    for label in ("cold", "after a configuration change"):
        if label != "cold":
            index.relearn([folder])
        wall, cpu = time.perf_counter(), time.process_time()
        files = learn(folder, profiles, analyzer, index)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        table = index.table(folder)
        helpers = len(table[0].table.helpers) if table else 0
        print(f"{label}: {files} files, {helpers} helpers, {wall:.2f} s wall, {cpu:.2f} s CPU")
    if args.compare:
        compare(folder, profiles, index)


if __name__ == "__main__":
    main()
