"""``python -m build`` makes a wheel and an sdist that work on their own, without TensorFlow.

The build runs on a copy of the files a clone would have (tracked and untracked-but-not-
ignored), so it neither sees local build leftovers nor writes into the working tree.  The
wheel is then installed into a fresh virtual environment (dependencies from PyPI) and the
installed ``tflsp`` is driven from a directory outside the source tree.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import tflsp
from tests.ecosystem.helpers import REPO, code_cell, notebook, write_notebook
from tests.helpers import CATALOG, opens

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

# The fresh environment must not see this checkout or the test's own environment.
CLEAN_ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "PYTHONSTARTUP")
}
PATTERN_FILES = ("pattern.toml", "explanation.en.md", "explanation.ja.md", "bad.py", "good.py")


def source_files() -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.decode()
    return [name for name in listed.split("\0") if name and (REPO / name).is_file()]


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    checkout = tmp_path_factory.mktemp("checkout")
    for name in source_files():
        if name.startswith(("vscode-extension/", "docs/_build/")):
            continue
        target = checkout / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / name, target)
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(checkout)],
        capture_output=True,
        text=True,
        timeout=600,
        env=CLEAN_ENV,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    return out


def only(folder: Path, pattern: str) -> Path:
    (found,) = folder.glob(pattern)
    return found


def test_twine_check_passes(dist: Path) -> None:
    files = sorted(str(p) for p in dist.iterdir())
    assert len(files) == 2
    checked = subprocess.run(
        [sys.executable, "-m", "twine", "check", "--strict", *files],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.count("PASSED") == 2


def test_wheel_carries_the_catalog_and_metadata(dist: Path) -> None:
    wheel = only(dist, "*.whl")
    assert wheel.name == f"tflsp-{tflsp.__version__}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"tflsp-{tflsp.__version__}.dist-info"
        metadata = archive.read(f"{info}/METADATA").decode()
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
    for pattern in CATALOG:
        for name in PATTERN_FILES:
            assert f"tflsp/catalog/patterns/{pattern.folder.name}/{name}" in names
    assert "tflsp/py.typed" in names
    # The HTML documentation the links point at, in both languages (scripts/tflsp_build.py).
    site = "tflsp/data/docs/html"
    assert {f"{site}/index.html", f"{site}/ja/index.html"} <= names
    for pattern in CATALOG:
        for prefix in ("", "ja/"):
            assert f"{site}/{prefix}patterns/{pattern.slug}.html" in names
    assert not [n for n in names if "/.doctrees/" in n or n.endswith(".doctree")]
    assert {"tflsp/notebook.py", "tflsp/ipynb.py", "tflsp/jupyter.py"} <= names
    assert not [n for n in names if "__pycache__" in n or n.startswith("tests/")]
    assert f"Version: {tflsp.__version__}" in metadata
    assert re.search(r"Requires-Dist: tensorflow==2\.21\.\*; extra == \"tf\"", metadata)
    assert not re.search(r"Requires-Dist: tensorflow[^;]*$", metadata, re.M)  # core: no TF
    assert "tflsp = tflsp.cli.main:main" in entry_points
    assert "[jupyter_lsp_spec_v1]\ntflsp = tflsp.jupyter:spec" in entry_points


def test_sdist_carries_sources_tests_and_hooks(dist: Path) -> None:
    sdist = only(dist, "*.tar.gz")
    root = f"tflsp-{tflsp.__version__}"
    with tarfile.open(sdist) as archive:
        names = set(archive.getnames())
    for pattern in CATALOG:
        assert f"{root}/tflsp/catalog/patterns/{pattern.folder.name}/pattern.toml" in names
    for name in (".pre-commit-hooks.yaml", "README.md", "tests/ecosystem/test_packaging.py"):
        assert f"{root}/{name}" in names
    assert not [n for n in names if "/docs/_build/" in n or "__pycache__" in n]


# -- the installed wheel, in a fresh environment without TensorFlow ---------------------------


@pytest.fixture(scope="module")
def venv(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("venv")
    subprocess.run(
        [sys.executable, "-m", "venv", str(root)], check=True, timeout=300, env=CLEAN_ENV
    )
    installed = subprocess.run(
        [str(root / "bin" / "python"), "-m", "pip", "install", "-q", str(only(dist, "*.whl"))],
        capture_output=True,
        text=True,
        timeout=600,
        env=CLEAN_ENV,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr
    return root


def run(venv: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(venv / "bin" / "tflsp"), *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        env={**CLEAN_ENV, "LANG": "C.UTF-8"},
    )


def test_no_tensorflow_in_the_environment(venv: Path, tmp_path: Path) -> None:
    probe = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import tensorflow"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env=CLEAN_ENV,
    )
    assert "No module named 'tensorflow'" in probe.stderr


def test_version_check_and_rules(venv: Path, tmp_path: Path) -> None:
    version = run(venv, "--version", cwd=tmp_path)
    assert version.stdout == f"tflsp {tflsp.__version__} (catalog: {len(CATALOG)} patterns)\n"

    pattern = CATALOG["TFL101"]
    (tmp_path / "bad.py").write_text(pattern.bad_path.read_text(encoding="utf-8"))
    cells = [code_cell(pattern.bad_path.read_text(encoding="utf-8"))]
    write_notebook(tmp_path / "bad.ipynb", notebook(cells))
    checked = run(venv, "check", "--format", "json", ".", cwd=tmp_path)
    assert checked.returncode == 1, checked.stderr
    records = json.loads(checked.stdout)
    assert {(r["path"], r["code"]) for r in records} >= {
        ("bad.py", "TFL101"),
        ("bad.ipynb", "TFL101"),
    }

    # Links open the pages installed with the wheel, never the source tree of this test.
    site_packages = next((venv / "lib").glob("python*/site-packages")).resolve()
    for record in records:
        if record["code"] in CATALOG:
            assert opens(record["url"]), record["url"]
            assert record["url"].startswith((site_packages / "tflsp/data/docs/html").as_uri())
    shown = run(venv, "docs", "TFL101", "--lang", "ja", "--print", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert (
        shown.stdout.strip()
        == (site_packages / f"tflsp/data/docs/html/ja/patterns/{pattern.slug}.html").as_uri()
    )

    rules = run(venv, "rules", cwd=tmp_path)
    assert rules.returncode == 0
    for code in CATALOG.codes():
        assert code in rules.stdout


def _frame(message: dict[str, object]) -> bytes:
    body = json.dumps(message).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def _read_message(stream) -> dict[str, object]:  # type: ignore[no-untyped-def]
    length = None
    while True:
        line = stream.readline()
        if not line:
            raise AssertionError("the server closed stdout")
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode().partition(":")
        if name.lower() == "content-length":
            length = int(value)
    assert length is not None
    message: dict[str, object] = json.loads(stream.read(length))
    return message


def test_serve_answers_initialize(venv: Path, tmp_path: Path) -> None:
    server = subprocess.Popen(
        [str(venv / "bin" / "tflsp"), "serve"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**CLEAN_ENV, "LANG": "C.UTF-8"},
    )
    assert server.stdin is not None and server.stdout is not None and server.stderr is not None
    try:
        server.stdin.write(
            _frame(
                {
                    "jsonrpc": "2.0",
                    "id": 1,
                    "method": "initialize",
                    "params": {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}},
                }
            )
        )
        server.stdin.flush()
        while True:
            answer = _read_message(server.stdout)
            if answer.get("id") == 1:
                break
        result = answer["result"]
        assert isinstance(result, dict)
        assert result["serverInfo"]["name"] == "tflsp"
        assert result["serverInfo"]["version"] == tflsp.__version__
        assert "textDocumentSync" in result["capabilities"]
        server.stdin.write(_frame({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}))
        server.stdin.flush()
        while _read_message(server.stdout).get("id") != 2:
            pass
        server.stdin.write(_frame({"jsonrpc": "2.0", "method": "exit"}))
        server.stdin.flush()
        assert server.wait(timeout=30) == 0, server.stderr.read().decode()[-2000:]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


def test_jupyter_spec_points_at_this_environment(venv: Path, tmp_path: Path) -> None:
    code = (
        "import json; from importlib.metadata import entry_points;"
        "(ep,) = entry_points(group='jupyter_lsp_spec_v1', name='tflsp');"
        "print(json.dumps(ep.load()(None)))"
    )
    shown = subprocess.run(
        [str(venv / "bin" / "python"), "-c", code],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
        env=CLEAN_ENV,
    )
    spec = json.loads(shown.stdout)["tflsp"]
    assert spec["argv"][:4] == [str(venv / "bin" / "python"), "-m", "tflsp", "serve"]
    started = subprocess.run(
        [*spec["argv"][:-1], "--help"], capture_output=True, text=True, env=CLEAN_ENV
    )
    assert started.returncode == 0 and "--stdio" in started.stdout
