"""`registry import` never writes an overlay `registry check` refuses (issue 22 point 16).

A path of 24 `x/` segments below `/experimental/` gives an operation id over the
registry's 64 characters; cut at 60 it ended in `_`, and the number added made
`..._x__2`, which the registry's pattern refuses. Ids are now made to fit by
construction, and the import runs the registry check on the overlay before
writing it: a build that still fails it is a crash (exit 3), with nothing written.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from apispec.registry.importer.describe import Operation
from apispec.registry.importer.overlay import _operation_id
from tests.hostile.helpers import apispec_run, clean, tree

ID = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)*")  # the registry schema's pattern

DEEP = "/api/v2/experimental/" + "x/" * 24
DOC = f"""\
openapi: 3.1.0
info: {{title: deep, version: 25.1.104}}
paths:
  {DEEP}:
    get: {{operationId: "{"x" * 70}", responses: {{'200': {{description: ok}}}}}}
    post: {{responses: {{'200': {{description: ok}}}}}}
  {DEEP}y:
    get: {{responses: {{'200': {{description: ok}}}}}}
  {DEEP}{{id}}:
    get: {{responses: {{'200': {{description: ok}}}}}}
    delete: {{responses: {{'200': {{description: ok}}}}}}
"""


def test_a_path_of_24_segments_imports_an_overlay_registry_check_accepts(tmp_path: Path) -> None:
    (tmp_path / "deep.yaml").write_text(DOC)
    clean(apispec_run("registry", "import", "deep.yaml", "-o", "out", cwd=tmp_path), 0)
    written = yaml.safe_load((tmp_path / "out" / "overlay.yaml").read_text())
    ids = [e["operation_id"] for e in written["endpoints"]]
    assert len(ids) == 5 and len(set(ids)) == 5
    assert all(ID.fullmatch(i) and len(i) <= 64 for i in ids), ids
    check = clean(apispec_run("registry", "check", "--overlay", "out", cwd=tmp_path), 0)
    assert "0 errors" in check.out


segments = st.lists(
    st.text(alphabet="xyz_-.9Ä", min_size=1, max_size=12), min_size=1, max_size=40
).map(lambda parts: "/" + "/".join(parts))


@settings(max_examples=300, deadline=None)
@given(
    paths=st.lists(segments, min_size=1, max_size=30),
    method=st.sampled_from(["GET", "POST", "DELETE"]),
    given_id=st.none() | st.text(max_size=80),
)
def test_every_generated_id_fits_the_registry_and_is_unused(
    paths: list[str], method: str, given_id: str | None
) -> None:
    used = {"get_experimental_x_x_x_x_x_x_x_x_x_x_x_x_x_x_x_x_x_x_x_x_x_x_x_2"}
    made = []
    for path in paths:
        op = Operation(method, path, path, given_id, "", None, "stable", "")
        made.append(_operation_id(op, used))
    assert len(set(made)) == len(made)
    assert all(ID.fullmatch(i) and len(i) <= 64 for i in made), made


# A build that produces a broken overlay, injected into the real command: the check refuses it.
BROKEN = """
import sys
import apispec.registry.importer.run as run
built = run.build_overlay
def broken(description, registry):
    document = built(description, registry)
    document["endpoints"][0]["operation_id"] = "Not_An_Id"
    return document
run.build_overlay = broken
from apispec.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def test_an_overlay_failing_the_check_is_a_crash_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / "deep.yaml").write_text(DOC)
    before = tree(tmp_path)
    done = subprocess.run(
        [sys.executable, "-c", BROKEN, "registry", "import", "deep.yaml", "-o", "out"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 3, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("apispec: internal error: OverlayBuildError: ")
    assert "registry check" in line and "Not_An_Id" in line and "nothing was written" in line
    assert tree(tmp_path) == before
