"""JupyterLab + jupyterlab-lsp discover ``tflsp serve`` by themselves and show its diagnostic.

The environment (pinned in ``jupyterlab-requirements.txt``, built by
``scripts/jupyterlab_env.py`` from PyPI) has no language server configured: jupyter-lsp finds
tflsp through the ``jupyter_lsp_spec_v1`` entry point.  JupyterLab listens on 127.0.0.1 with a
random token; headless Chromium (Debian's, driven by Playwright) opens a notebook whose third
cell has a ``print()`` inside a ``tf.function`` and hovers the underlined call.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ecosystem.helpers import REPO, code_cell, markdown_cell, notebook, write_notebook
from tests.helpers import CATALOG, require

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.timeout(1800)]

sys.path.insert(0, str(REPO / "scripts"))
import jupyterlab_env  # noqa: E402

CLIENT = Path(__file__).resolve().parent / "clients" / "jupyterlab_check.py"
CHROMIUM = Path("/usr/bin/chromium")
STEP = (
    'import tensorflow as tf\n\n\n@tf.function\ndef step(x):\n    print("x", x)\n    return x * 2\n'
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def get_json(url: str) -> dict[str, object]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        data: dict[str, object] = json.load(answer)
        return data


@pytest.fixture(scope="module")
def lab_env() -> Path:
    require(CHROMIUM.exists(), "Debian chromium is not installed (scripts/test.sh installs it)")
    return jupyterlab_env.ensure_environment()


@pytest.fixture
def lab(lab_env: Path, tmp_path: Path) -> Iterator[tuple[str, str, Path]]:
    root = tmp_path / "notebooks"
    root.mkdir()
    cells = [
        markdown_cell("# A training step"),
        code_cell("%matplotlib inline\nimport numpy as np\n"),
        code_cell(STEP),
    ]
    write_notebook(root / "demo.ipynb", notebook(cells))
    port, token = free_port(), secrets.token_hex(16)
    log = (tmp_path / "lab.log").open("w")
    process = subprocess.Popen(
        jupyterlab_env.lab_command(lab_env, root, port, token),
        env=jupyterlab_env.isolated_jupyter_env(tmp_path / "state"),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # the kernel and tflsp serve are its children
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                get_json(f"{base}/api/status?token={token}")
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError((tmp_path / "lab.log").read_text()[-4000:]) from None
                time.sleep(0.5)
        yield base, token, tmp_path
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()


def test_the_spec_is_discovered_without_configuration(lab: tuple[str, str, Path]) -> None:
    base, token, _ = lab
    status = get_json(f"{base}/lsp/status?token={token}")
    specs = status["specs"]
    assert isinstance(specs, dict)
    assert specs["tflsp"]["languages"] == ["python"]
    # Without the token the server refuses: JupyterLab really runs with authentication.
    with pytest.raises(urllib.error.HTTPError) as refused:
        get_json(f"{base}/lsp/status")
    assert refused.value.code == 403


def test_notebook_shows_the_tflsp_diagnostic(lab: tuple[str, str, Path]) -> None:
    base, token, tmp_path = lab
    screenshot = tmp_path / "jupyterlab.png"
    shown = subprocess.run(
        [
            str(jupyterlab_env.environment_path() / "bin" / "python"),
            str(CLIENT),
            f"{base}/lab/tree/demo.ipynb?token={token}",
            str(screenshot),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    lines = shown.stdout.strip().splitlines()
    report = json.loads(lines[-1]) if lines else {}
    log = (tmp_path / "lab.log").read_text()
    assert shown.returncode == 0, (report, shown.stderr[-2000:], log[-4000:])
    assert report["cell"] == 2  # the third cell, where the print() is
    assert report["text"] == 'print("x", x)'
    assert "cm-lintRange-warning" in str(report["classes"])  # TFL101 is a warning
    expected = CATALOG["TFL101"].message("default", "en", {"function": "step"})
    assert str(report["tooltip"]).startswith(expected)
    assert str(report["tooltip"]).rstrip().endswith("tflsp")  # the diagnostic's source
    assert screenshot.exists()
