"""A real editor as the client: headless Neovim opens a catalog bad example, and the test
checks the diagnostics, the hover, the lenses and a quick fix Neovim applied itself."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import CATALOG, docs_link, require

pytestmark = [pytest.mark.e2e, pytest.mark.timeout(120)]

SCRIPT = Path(__file__).resolve().parent / "clients" / "nvim_lsp_check.lua"


def run_neovim(file: Path, line: int) -> list[dict[str, object]]:
    nvim = shutil.which("nvim")
    require(nvim is not None, "Neovim is not installed (scripts/test.sh installs it)")
    assert nvim is not None
    env = {
        **os.environ,
        "TFLSP_PYTHON": sys.executable,
        "TFLSP_FILE": str(file),
        "TFLSP_LINE": str(line),
        "LANG": "C.UTF-8",
    }
    env.pop("LC_ALL", None)
    completed = subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {SCRIPT}"],
        capture_output=True,
        text=True,
        env=env,
        timeout=100,
        cwd=str(file.parent),
    )
    records = [json.loads(line) for line in completed.stdout.splitlines() if line.startswith("{")]
    assert completed.returncode == 0, (completed.stdout, completed.stderr[-2000:])
    return records


def test_neovim_shows_diagnostics_hover_and_applies_a_fix(tmp_path: Path) -> None:
    pattern = CATALOG["TFL101"]
    source = pattern.bad_path.read_text(encoding="utf-8")
    file = tmp_path / "bad.py"
    file.write_text(source, encoding="utf-8")
    flagged = [i for i, text in enumerate(source.splitlines()) if "# [TFL101]" in text]
    records = run_neovim(file, flagged[0])
    by_key = {key: value for record in records for key, value in record.items()}
    assert "error" not in by_key, by_key.get("error")

    diagnostics = by_key["diagnostics"]
    assert isinstance(diagnostics, list)
    assert sorted(d["lnum"] for d in diagnostics if d["code"] == "TFL101") == flagged
    first = next(d for d in diagnostics if d["code"] == "TFL101")
    assert first["source"] == "tflsp"
    assert first["severity"] == 2  # vim.diagnostic.severity.WARN
    assert first["href"] == docs_link(pattern.code)

    hover = by_key["hover"]
    assert isinstance(hover, dict)
    assert pattern.title_in("en") in hover["contents"]["value"]

    assert by_key["lenses"] == ["tflsp.verifyFunction"]

    assert by_key["fix_title"] == pattern.fix_title("en")
    assert "tf.print(" in str(by_key["line_text"])
    after = by_key["after_fix"]
    assert isinstance(after, list)
    assert flagged[0] not in [d["lnum"] for d in after]
