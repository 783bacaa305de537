"""The persistent cache of ``tflsp check``, through the real command line.

A cached finding is recognised by planting one in the store that the analyzer would never
produce (a TFL101 on line 1 of a clean file): when the output shows it, the run read the cache;
when it does not, the file was analysed again.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from tests.test_cli import BAD, CLEAN, tflsp

# The wrapper runs the real entry point after changing what a new release or another catalog
# would change.
WRAPPED = (
    "import sys, tflsp, tflsp.cli.cache as cache\n"
    "{patch}\n"
    "from tflsp.cli.main import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def check_json(*args: str, cwd: Path, env: dict[str, str] | None = None) -> list[tuple]:
    proc = tflsp("check", "--format", "json", *args, cwd=cwd, env=env)
    assert proc.returncode in (0, 1), proc.stderr
    return [(r["path"], r["line"], r["code"], r["message"]) for r in json.loads(proc.stdout)]


def stores(cache: Path) -> list[Path]:
    return sorted(cache.glob("*/*.json"))


def the_store(cache: Path) -> Path:
    found = stores(cache)
    assert len(found) == 1, found
    return found[0]


def plant(cache: Path, name: str) -> None:
    """Replace the cached findings of every entry for file ``name`` by a made-up TFL101."""
    store = the_store(cache)
    data = json.loads(store.read_text())
    planted = 0
    for entry in data["entries"].values():
        if Path(entry["path"]).name == name:
            entry["report"]["diagnostics"] = [
                ["TFL101", 1, 0, 1, 5, "warning", "default", {"function": "planted"}, None, None]
            ]
            planted += 1
    assert planted == 1
    store.write_text(json.dumps(data))


def planted(findings: list[tuple]) -> bool:
    return any("planted" in f[3] for f in findings)


@pytest.fixture(autouse=True)
def _default_location(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TFLSP_CACHE_DIR", raising=False)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "clean.py").write_text(CLEAN)
    return tmp_path


def test_warm_run_prints_the_same_and_reads_the_cache(project: Path) -> None:
    cold = tflsp("check", ".", cwd=project)
    cache = project / ".tflsp_cache"
    assert (
        (cache / "CACHEDIR.TAG")
        .read_text()
        .startswith("Signature: 8a477f597d28d172789f06886806bc55")
    )
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    for fmt in ("text", "json", "sarif"):
        first = tflsp("check", "--format", fmt, ".", cwd=project)
        warm = tflsp("check", "--format", fmt, ".", cwd=project)
        assert (warm.returncode, warm.stdout, warm.stderr) == (
            first.returncode,
            first.stdout,
            first.stderr,
        )
    assert tflsp("check", "--lang", "ja", ".", cwd=project).stdout != cold.stdout
    plant(cache, "clean.py")
    assert planted(check_json(".", cwd=project))


def test_the_cache_is_found_from_a_subfolder_and_in_the_project_root(project: Path) -> None:
    sub = project / "pkg"
    sub.mkdir()
    (sub / "model.py").write_text(BAD)
    tflsp("check", "model.py", cwd=sub)
    assert stores(project / ".tflsp_cache") and not (sub / ".tflsp_cache").exists()


def test_a_content_change_invalidates(project: Path) -> None:
    check_json(".", cwd=project)
    plant(project / ".tflsp_cache", "clean.py")
    (project / "clean.py").write_text(CLEAN + "\n")
    assert not planted(check_json(".", cwd=project))
    # The entry of the old content is gone: one entry per file and rule set.
    entries = json.loads(the_store(project / ".tflsp_cache").read_text())["entries"]
    assert sorted(Path(e["path"]).name for e in entries.values()) == ["bad.py", "clean.py"]


@pytest.mark.parametrize(
    "flags",
    [
        ("--ignore", "TFL102"),
        ("--target-keras", "2"),
        ("--severity", "TFL101=error"),
        ("--extend-select", "TFL701"),
    ],
)
def test_a_settings_change_invalidates(project: Path, flags: tuple[str, str]) -> None:
    check_json(".", cwd=project)
    plant(project / ".tflsp_cache", "clean.py")
    assert not planted(check_json(*flags, ".", cwd=project))
    # The first rule set's entry is still there for the next run without the flag.
    assert planted(check_json(".", cwd=project))


def test_the_legacy_keras_environment_invalidates(project: Path) -> None:
    check_json(".", cwd=project)
    plant(project / ".tflsp_cache", "clean.py")
    assert not planted(check_json(".", cwd=project, env={"TF_USE_LEGACY_KERAS": "1"}))


def test_files_with_the_same_content_share_an_entry(project: Path) -> None:
    (project / "twin.py").write_text(CLEAN)
    check_json(".", cwd=project)
    entries = json.loads(the_store(project / ".tflsp_cache").read_text())["entries"]
    assert len(entries) == 2
    plant(project / ".tflsp_cache", Path(next(iter(entries.values()))["path"]).name)
    findings = check_json(".", cwd=project)
    assert {f[0] for f in findings if "planted" in f[3]} in ({"bad.py"}, {"clean.py", "twin.py"})


def test_per_file_ignores_are_part_of_the_key(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.tflsp]\nper-file-ignores = { "bad.py" = ["TFL102"] }\n'
    )
    first = check_json(".", cwd=project)
    assert [f[2] for f in first] == ["TFL101"]
    (project / "other.py").write_text(BAD)  # same content, other rules: its own entry
    assert [f[2] for f in check_json(".", cwd=project)] == ["TFL101", "TFL101", "TFL102"]


@pytest.mark.parametrize(
    "patch",
    [
        "tflsp.__version__ = '99.0.0'",
        "cache.analysis_fingerprint = lambda: 'another-catalog-or-analyzer'",
    ],
)
def test_a_new_version_or_catalog_invalidates(project: Path, patch: str) -> None:
    check_json(".", cwd=project)
    cache = project / ".tflsp_cache"
    plant(cache, "clean.py")
    program = WRAPPED.format(patch=patch)
    proc = tflsp_wrapped(program, "check", "--format", "json", ".", cwd=project)
    assert proc.returncode == 1, proc.stderr
    assert "planted" not in proc.stdout and "TFL102" in proc.stdout
    assert len(stores(cache)) == 2  # the other store is kept (another release may come back)


def tflsp_wrapped(program: str, *args: str, cwd: Path):  # type: ignore[no-untyped-def]
    import subprocess

    env = {**os.environ, "LANG": "C.UTF-8"}
    env.pop("LC_ALL", None)
    return subprocess.run(
        [sys.executable, "-c", program, *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_the_analysis_fingerprint_follows_the_catalog(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import shutil

    from tflsp.cli import cache

    before = cache.analysis_fingerprint()
    assert cache.analysis_fingerprint() == before  # stable
    patterns = tmp_path / "patterns"
    shutil.copytree(cache.PATTERNS_DIR, patterns)
    monkeypatch.setattr(cache, "PATTERNS_DIR", patterns)
    assert cache.analysis_fingerprint() == before  # same content, same fingerprint
    toml = next(iter(sorted(patterns.glob("*/pattern.toml"))))
    original = toml.read_bytes()
    stat = toml.stat()
    toml.write_bytes(original.replace(b'severity = "', b'severity = "x', 1))
    assert cache.analysis_fingerprint() != before
    # The same bytes back with the original time: the same fingerprint; a new time: another.
    toml.write_bytes(original)
    os.utime(toml, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert cache.analysis_fingerprint() == before
    os.utime(toml, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))
    assert cache.analysis_fingerprint() != before


@pytest.mark.parametrize(
    "damage",
    [
        b"\x00\xff not json",
        b'{"format": 1, "entries": ',
        b'{"format": 99, "entries": {}}',
        b"[1, 2, 3]",
        b'{"format": 1, "entries": [1]}',
        "entries",
    ],
)
def test_a_corrupt_or_foreign_cache_is_ignored_and_rebuilt(project: Path, damage) -> None:  # type: ignore[no-untyped-def]
    expected = check_json("--no-cache", ".", cwd=project)
    check_json(".", cwd=project)
    store = the_store(project / ".tflsp_cache")
    if damage == "entries":  # every entry damaged in its own way, the file still valid JSON
        data = json.loads(store.read_text())
        for n, entry in enumerate(data["entries"].values()):
            entry["report"] = [{"diagnostics": 7}, {"diagnostics": [[1, 2]]}][n % 2]
        store.write_text(json.dumps(data))
    else:
        store.write_bytes(damage)
    assert check_json(".", cwd=project) == expected
    # Rebuilt: the next run reads good entries again.
    plant(project / ".tflsp_cache", "clean.py")
    assert planted(check_json(".", cwd=project))


def test_no_cache_neither_reads_nor_writes(project: Path) -> None:
    check_json("--no-cache", ".", cwd=project)
    assert not (project / ".tflsp_cache").exists()
    check_json(".", cwd=project)
    plant(project / ".tflsp_cache", "clean.py")
    store = the_store(project / ".tflsp_cache")
    before = store.read_bytes()
    assert not planted(check_json("--no-cache", ".", cwd=project))
    assert store.read_bytes() == before


def test_cache_dir_flag_setting_and_environment(project: Path, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    check_json("--cache-dir", str(elsewhere / "flag"), ".", cwd=project)
    assert stores(elsewhere / "flag")
    check_json(".", cwd=project, env={"TFLSP_CACHE_DIR": str(elsewhere / "env")})
    assert stores(elsewhere / "env")
    (project / "pyproject.toml").write_text('[tool.tflsp]\ncache-dir = "build/lint-cache"\n')
    sub = project / "sub"
    sub.mkdir()
    check_json("..", cwd=sub)  # relative to the project root, not to the current folder
    assert stores(project / "build" / "lint-cache")
    assert not (project / ".tflsp_cache").exists() and not (sub / "build").exists()


def test_parallel_jobs_fill_and_read_one_store(tmp_path: Path) -> None:
    for i in range(12):
        (tmp_path / f"m{i:02}.py").write_text((BAD if i % 2 else CLEAN) + f"# file {i}\n")
    expected = tflsp("check", "--no-cache", "--jobs", "1", ".", cwd=tmp_path).stdout
    cold = tflsp("check", "--jobs", "2", ".", cwd=tmp_path)
    warm = tflsp("check", "--jobs", "2", ".", cwd=tmp_path)
    assert cold.stdout == warm.stdout == expected
    entries = json.loads(the_store(tmp_path / ".tflsp_cache").read_text())["entries"]
    assert len(entries) == 12
    # One changed file among cached ones: only it is analysed (the others keep a plant).
    plant(tmp_path / ".tflsp_cache", "m00.py")
    (tmp_path / "m01.py").write_text(CLEAN + "# changed\n")
    findings = check_json("--jobs", "2", ".", cwd=tmp_path)
    assert planted(findings) and not any(f[0] == "m01.py" for f in findings)


def test_fix_analyses_again_and_the_result_is_right(project: Path) -> None:
    check_json(".", cwd=project)
    plant(project / ".tflsp_cache", "bad.py")  # a cached entry that says nothing fixable
    proc = tflsp("check", "--fix", ".", cwd=project)
    assert "Fixed 1." in proc.stdout
    assert 'tf.print("x", x)' in (project / "bad.py").read_text()
    after = check_json(".", cwd=project)
    assert [f[2] for f in after] == ["TFL102"]
    # --diff does not write the file and shows the fix, whatever the cache says.
    (project / "bad.py").write_text(BAD)
    check_json(".", cwd=project)
    plant(project / ".tflsp_cache", "bad.py")
    diff = tflsp("check", "--diff", "bad.py", cwd=project)
    assert '+    tf.print("x", x)' in diff.stdout


def test_notebook_findings_keep_their_cells(tmp_path: Path) -> None:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# title"]},
        {
            "cell_type": "code",
            "metadata": {},
            "execution_count": None,
            "outputs": [],
            "source": BAD.splitlines(keepends=True),
        },
    ]
    notebook = {
        "cells": cells,
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (tmp_path / "nb.ipynb").write_text(json.dumps(notebook))
    first = tflsp("check", "--format", "json", "nb.ipynb", cwd=tmp_path)
    warm = tflsp("check", "--format", "json", "nb.ipynb", cwd=tmp_path)
    assert warm.stdout == first.stdout
    assert [r["cell"] for r in json.loads(warm.stdout)] == [2, 2]


def test_an_unwritable_cache_warns_and_the_run_goes_on(project: Path) -> None:
    blocker = project / "not-a-folder"
    blocker.write_text("a file where the cache folder should be")
    proc = tflsp("check", "--cache-dir", str(blocker / "cache"), "bad.py", cwd=project)
    assert proc.returncode == 1
    assert "bad.py:6:5: TFL101" in proc.stdout
    assert "tflsp: warning: cannot write the cache" in proc.stderr


def test_old_stores_are_pruned(project: Path) -> None:
    cache = project / ".tflsp_cache"
    for n in range(6):
        program = WRAPPED.format(patch=f"cache.analysis_fingerprint = lambda: 'f{n}'")
        assert tflsp_wrapped(program, "check", ".", cwd=project).returncode == 1
        os.utime(the_newest(cache), (1_000_000 + n, 1_000_000 + n))
    assert len(stores(cache)) == 4
    assert {p.stem for p in stores(cache)} == {"f2", "f3", "f4", "f5"}


def the_newest(cache: Path) -> Path:
    return max(stores(cache), key=lambda p: p.stat().st_mtime_ns)


def test_the_analysis_fingerprint_follows_the_api_data() -> None:
    # Findings also depend on data files (the generated TF/Keras API data), not only on code.
    from tflsp.cli import cache

    names = {name for name, _, _ in cache._fingerprinted_files()}
    assert any(
        name.startswith("analysis/apidata/data/") and name.endswith(".json") for name in names
    )
