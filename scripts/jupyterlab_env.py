"""Make (or reuse) the isolated JupyterLab + jupyterlab-lsp environment of the end-to-end test.

    python scripts/jupyterlab_env.py            # create/update it, print its path
    python scripts/jupyterlab_env.py --lab DIR  # and start JupyterLab on DIR to try tflsp by hand

The environment holds the pinned versions of ``tests/ecosystem/jupyterlab-requirements.txt``
(JupyterLab, jupyterlab-lsp, jupyter-lsp, ipykernel, Playwright) and this checkout of tflsp,
installed in editable mode so that the test exercises the code as it is.  It lives under
``$TFLSP_E2E_CACHE`` (default ``~/.cache/tflsp-e2e``), keyed by the requirements, so a second
run reuses it; only PyPI is contacted.  Playwright drives Debian's ``/usr/bin/chromium``, so
no browser is downloaded.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
REQUIREMENTS = REPO / "tests" / "ecosystem" / "jupyterlab-requirements.txt"


def cache_root() -> Path:
    configured = os.environ.get("TFLSP_E2E_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "tflsp-e2e"


def environment_path() -> Path:
    key = hashlib.sha256(REQUIREMENTS.read_bytes()).hexdigest()[:12]
    return cache_root() / f"jupyterlab-{key}"


def _pip(python: Path, *args: str) -> None:
    subprocess.run(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "-q", *args],
        check=True,
        timeout=1200,
    )


def ensure_environment() -> Path:
    """The environment's root; created on first use, tflsp reinstalled from this checkout."""
    root = environment_path()
    python = root / "bin" / "python"
    marker = root / ".requirements-installed"
    if not marker.exists():
        venv.EnvBuilder(with_pip=True, clear=True).create(root)
        _pip(python, "-r", str(REQUIREMENTS))
        marker.write_text(REQUIREMENTS.read_text())
    # Editable and without dependencies once they are there: a few seconds per run.
    deps = [] if (root / ".tflsp-deps").exists() else ["pygls>=2.1,<3", "lsprotocol>=2025.0.0"]
    if deps:
        _pip(python, *deps)
        (root / ".tflsp-deps").write_text("\n".join(deps))
    _pip(python, "--no-deps", "-e", str(REPO))
    return root


def isolated_jupyter_env(state: Path) -> dict[str, str]:
    """Environment variables that keep Jupyter's config, data and settings under ``state``."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JP_"))}
    for name, sub in (
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("JUPYTERLAB_SETTINGS_DIR", "settings"),
        ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"),
        ("IPYTHONDIR", "ipython"),
    ):
        env[name] = str(state / sub)
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env.pop("VIRTUAL_ENV", None)
    return env


def lab_command(root: Path, directory: Path, port: int, token: str) -> list[str]:
    command = [
        str(root / "bin" / "jupyter"),
        "lab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={directory}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        command.append("--allow-root")  # CI containers run as root
    return command


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", type=Path, metavar="DIR", help="start JupyterLab on DIR")
    parser.add_argument("--port", type=int, default=8888)
    args = parser.parse_args()
    root = ensure_environment()
    print(root)
    if args.lab is None:
        return 0
    state = root / "state"
    token = os.urandom(16).hex()
    print(f"http://127.0.0.1:{args.port}/lab?token={token}", flush=True)
    command = lab_command(root, args.lab.resolve(), args.port, token)
    return subprocess.call(command, env=isolated_jupyter_env(state))


if __name__ == "__main__":
    sys.exit(main())
