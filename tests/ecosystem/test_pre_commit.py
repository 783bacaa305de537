"""The hooks in ``.pre-commit-hooks.yaml``, run by the real pre-commit against a scratch repo.

pre-commit installs a hook repository from a git commit.  The working tree may hold files the
lead has not committed yet (``try-repo`` would only pick up changes to tracked files), so the
test commits a snapshot of what a clone would contain (package, metadata, hook definitions)
into a temporary repository and points a user project's ``.pre-commit-config.yaml`` at it.
Installing the hook environment needs PyPI (pygls, lsprotocol, setuptools): about a minute.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ecosystem.helpers import REPO, code_cell, markdown_cell, notebook, write_notebook

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]

SNAPSHOT = (
    "pyproject.toml",
    "README.md",
    "MANIFEST.in",
    ".pre-commit-hooks.yaml",
    "tflsp",
    "scripts/tflsp_build.py",  # the build backend
)
BAD = 'import tensorflow as tf\n\n\n@tf.function\ndef step(x):\n    print("x", x)\n    return x\n'


def _git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(
        GIT_AUTHOR_NAME="tflsp tests",
        GIT_AUTHOR_EMAIL="tests@example.invalid",
        GIT_COMMITTER_NAME="tflsp tests",
        GIT_COMMITTER_EMAIL="tests@example.invalid",
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
    )
    return env


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, env=_git_env(), check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    if shutil.which("git") is None:
        pytest.fail("git is needed to run pre-commit")
    root = tmp_path_factory.mktemp("hook-repo")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for name in SNAPSHOT:
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=ignore)
        else:
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / name)
    git("init", "-q", "-b", "main", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "snapshot", cwd=root)
    return root, git("rev-parse", "HEAD", cwd=root)


@pytest.fixture(scope="module")
def pre_commit_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pre-commit-home")


@pytest.fixture
def project(tmp_path: Path, hook_repo: tuple[Path, str]) -> Iterator[Path]:
    repo, rev = hook_repo
    (tmp_path / ".pre-commit-config.yaml").write_text(
        "repos:\n"
        f"  - repo: {repo.as_uri()}\n"
        f"    rev: {rev}\n"
        "    hooks:\n"
        "      - id: tflsp\n"
        "      - id: tflsp-fix\n"
        "        stages: [manual]\n"
    )
    (tmp_path / "train.py").write_text(BAD)
    cells = [markdown_cell("# Demo"), code_cell("%matplotlib inline\n" + BAD)]
    write_notebook(tmp_path / "explore.ipynb", notebook(cells))
    # Not Python: the hooks' types must keep tflsp away from it (it would be a syntax error).
    (tmp_path / "settings.json").write_text('{"print": "x"}\n')
    git("init", "-q", "-b", "main", cwd=tmp_path)
    git("add", "-A", cwd=tmp_path)
    yield tmp_path


def pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**_git_env(), "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=800,
    )


def test_hook_fails_on_pitfalls_and_passes_after_the_fix(
    project: Path, pre_commit_home: Path
) -> None:
    checked = pre_commit("run", "--all-files", cwd=project, home=pre_commit_home)
    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "tflsp" in checked.stdout and "Failed" in checked.stdout
    assert "train.py:6:5: TFL101 [*] [print-in-graph]" in checked.stdout
    assert "explore.ipynb:cell 2:7:5: TFL101 [*] [print-in-graph]" in checked.stdout
    assert "settings.json" not in checked.stdout

    before = json.loads((project / "explore.ipynb").read_text())
    fixed = pre_commit(
        "run",
        "tflsp-fix",
        "--hook-stage",
        "manual",
        "--all-files",
        cwd=project,
        home=pre_commit_home,
    )
    # pre-commit fails a hook that modified files, so the user reviews the fix.
    assert fixed.returncode == 1, fixed.stdout + fixed.stderr
    assert "files were modified by this hook" in fixed.stdout
    assert 'tf.print("x", x)' in (project / "train.py").read_text()
    after = json.loads((project / "explore.ipynb").read_text())
    assert 'tf.print("x", x)' in "".join(after["cells"][1]["source"])
    assert after["cells"][0] == before["cells"][0] and after["metadata"] == before["metadata"]

    git("add", "-A", cwd=project)
    again = pre_commit("run", "--all-files", cwd=project, home=pre_commit_home)
    assert again.returncode == 0, again.stdout + again.stderr
    assert "Passed" in again.stdout


def test_try_repo_uses_uncommitted_changes(
    project: Path,
    pre_commit_home: Path,
    hook_repo: tuple[Path, str],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """``try-repo`` on a clone with edits to tracked files runs the edited hooks."""
    clone = tmp_path_factory.mktemp("clone") / "tflsp"
    git("clone", "-q", str(hook_repo[0]), str(clone), cwd=clone.parent)
    hooks = clone / ".pre-commit-hooks.yaml"
    hooks.write_text(hooks.read_text().replace("name: tflsp\n", "name: tflsp (edited)\n", 1))
    tried = pre_commit(
        "try-repo", str(clone), "tflsp", "--files", "train.py", cwd=project, home=pre_commit_home
    )
    assert tried.returncode == 1, tried.stdout + tried.stderr
    assert "tflsp (edited)" in tried.stdout
    assert "train.py:6:5: TFL101" in tried.stdout
    assert "explore.ipynb" not in tried.stdout  # only the file it was given
