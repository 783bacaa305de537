"""The command line, through the real entry points (``tflsp`` and ``python -m tflsp``)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.helpers import CATALOG

BAD = textwrap.dedent(
    """\
    import tensorflow as tf


    @tf.function
    def step(x):
        print("x", x)
        return x.numpy()
    """
)
CLEAN = "import tensorflow as tf\n\nprint(tf.constant(1))\n"


def tflsp(
    *args: str,
    cwd: Path | None = None,
    stdin: bytes | None = None,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    full_env = {**os.environ, "LANG": "C.UTF-8", **(env or {})}
    full_env.pop("LC_ALL", None)
    return subprocess.run(
        [sys.executable, "-m", "tflsp", *args],
        cwd=cwd,
        input=stdin.decode() if stdin is not None else None,
        capture_output=True,
        text=True,
        env=full_env,
        timeout=120,
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "bad.py").write_text(BAD)
    (tmp_path / "clean.py").write_text(CLEAN)
    return tmp_path


def test_console_script_and_version() -> None:
    exe = shutil.which("tflsp", path=str(Path(sys.executable).parent))
    assert exe is not None, "the tflsp console script is installed next to the interpreter"
    out = subprocess.run([exe, "--version"], capture_output=True, text=True, check=True).stdout
    assert re.fullmatch(rf"tflsp \d+\.\d+\.\d+ \(catalog: {len(CATALOG)} patterns\)\n", out)


def test_text_output_and_exit_code(project: Path) -> None:
    proc = tflsp("check", "bad.py", cwd=project)
    assert proc.returncode == 1
    lines = proc.stdout.splitlines()
    assert lines[0] == (
        "bad.py:6:5: TFL101 [*] [print-in-graph] print() in `step` runs only while it is traced "
        "into a graph, not on every call; use tf.print() to print on every call"
    )
    assert lines[1].startswith("bad.py:7:13: TFL102 [numpy-in-graph] ")
    assert lines[-1] == "Checked 1 file, found 2 problems. 1 fixable with --fix."


def test_clean_file_exits_zero(project: Path) -> None:
    proc = tflsp("check", "clean.py", cwd=project)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "found 0 problems" in proc.stdout


def test_json_output_is_stable(project: Path) -> None:
    proc = tflsp("check", "--format", "json", ".", cwd=project)
    assert proc.returncode == 1
    records = json.loads(proc.stdout)
    assert [(r["path"], r["line"], r["column"], r["code"]) for r in records] == [
        ("bad.py", 6, 5, "TFL101"),
        ("bad.py", 7, 13, "TFL102"),
    ]
    first = records[0]
    assert set(first) >= {
        "path",
        "line",
        "column",
        "end_line",
        "end_column",
        "code",
        "name",
        "severity",
        "message",
    }
    assert first["name"] == "print-in-graph" and first["severity"] == "warning"
    assert first["end_line"] == 6 and first["end_column"] == 18
    assert first["fix"]["applicability"] == "safe"
    assert first["fix"]["edits"] == [
        {"line": 6, "column": 5, "end_line": 6, "end_column": 10, "content": "tf.print"}
    ]
    # Stable: a second run prints the same bytes.
    assert tflsp("check", "--format", "json", ".", cwd=project).stdout == proc.stdout


def test_sarif_output(project: Path) -> None:
    proc = tflsp("check", "--format", "sarif", "bad.py", cwd=project)
    doc = json.loads(proc.stdout)
    assert doc["version"] == "2.1.0"
    run = doc["runs"][0]
    assert {r["id"] for r in run["tool"]["driver"]["rules"]} == {"TFL101", "TFL102"}
    assert [r["ruleId"] for r in run["results"]] == ["TFL101", "TFL102"]
    region = run["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 6, "startColumn": 5, "endLine": 6, "endColumn": 18}


def test_fix_applies_safe_fixes_in_place(project: Path) -> None:
    proc = tflsp("check", "--fix", "bad.py", cwd=project)
    assert proc.returncode == 1  # TFL102 has no fix and remains
    text = (project / "bad.py").read_text()
    assert 'tf.print("x", x)' in text and "print(" not in text.replace("tf.print(", "")
    assert "Fixed 1." in proc.stdout
    again = tflsp("check", "--format", "json", "bad.py", cwd=project)
    assert [r["code"] for r in json.loads(again.stdout)] == ["TFL102"]


def test_diff_does_not_write(project: Path) -> None:
    before = (project / "bad.py").read_text()
    proc = tflsp("check", "--diff", "bad.py", cwd=project)
    assert proc.returncode == 1
    assert '-    print("x", x)' in proc.stdout and '+    tf.print("x", x)' in proc.stdout
    assert (project / "bad.py").read_text() == before


def test_stdin(project: Path) -> None:
    proc = tflsp("check", "-", "--stdin-filename", "model.py", stdin=BAD.encode(), cwd=project)
    assert proc.returncode == 1
    assert proc.stdout.startswith("model.py:6:5: TFL101")
    fixed = tflsp("check", "-", "--fix", stdin=BAD.encode(), cwd=project)
    assert 'tf.print("x", x)' in fixed.stdout


def test_japanese_messages(project: Path) -> None:
    proc = tflsp("check", "--lang", "ja", "bad.py", cwd=project)
    assert "トレース時にしか実行されず" in proc.stdout
    assert "件の問題が見つかりました" in proc.stdout
    from_locale = tflsp("check", "bad.py", cwd=project, env={"LANG": "ja_JP.UTF-8"})
    assert "トレース時にしか実行されず" in from_locale.stdout


def test_bad_files_get_a_clear_error_and_the_run_continues(project: Path) -> None:
    (project / "binary.py").write_bytes(b"\x00\x01\x02ELF")
    (project / "latin.py").write_bytes("x = 'caf\xe9'\n".encode("latin-1"))
    (project / "cookie.py").write_bytes(
        "# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n".encode("latin-1")
    )
    proc = tflsp("check", "binary.py", "latin.py", "cookie.py", "missing.py", "bad.py", cwd=project)
    assert proc.returncode == 2
    assert "binary.py: error: binary file" in proc.stderr
    assert "latin.py: error: not valid UTF-8 text" in proc.stderr
    assert "missing.py: error: no such file or directory" in proc.stderr
    assert "cookie.py" not in proc.stderr  # PEP 263 cookie honoured
    assert "bad.py:6:5: TFL101" in proc.stdout  # the run went on


def test_syntax_error_is_a_diagnostic_not_a_crash(project: Path) -> None:
    (project / "broken.py").write_text("import tensorflow as tf\ndef f(:\n    pass\n")
    proc = tflsp("check", "broken.py", cwd=project)
    assert proc.returncode == 1
    assert "broken.py:2:7: TFL000 [syntax-error] SyntaxError:" in proc.stdout


def test_usage_error_exits_two() -> None:
    assert tflsp("check", "--format", "xml").returncode == 2
    assert tflsp("check", "--select", "NOPE123", ".").returncode == 2


def test_pyproject_configuration(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        textwrap.dedent(
            """\
            [tool.tflsp]
            ignore = ["TFL102"]
            severity = { TFL101 = "error" }
            per-file-ignores = { "legacy_*.py" = ["TFL101"] }
            """
        )
    )
    (project / "legacy_step.py").write_text(BAD)
    records = json.loads(tflsp("check", "--format", "json", ".", cwd=project).stdout)
    assert [(r["path"], r["code"], r["severity"]) for r in records] == [
        ("bad.py", "TFL101", "error")
    ]
    # Command-line flags win over the file; --isolated ignores it.
    records = json.loads(
        tflsp("check", "--format", "json", "--select", "TFL102", "bad.py", cwd=project).stdout
    )
    assert [r["code"] for r in records] == ["TFL102"]
    records = json.loads(
        tflsp("check", "--format", "json", "--isolated", "bad.py", cwd=project).stdout
    )
    assert [r["code"] for r in records] == ["TFL101", "TFL102"]


def test_parallel_jobs_match_sequential(tmp_path: Path) -> None:
    for i in range(12):
        (tmp_path / f"m{i:02}.py").write_text(BAD if i % 2 else CLEAN)
    seq = tflsp("check", "--format", "json", "--jobs", "1", ".", cwd=tmp_path)
    par = tflsp("check", "--format", "json", "--jobs", "2", ".", cwd=tmp_path)
    assert seq.stdout == par.stdout and json.loads(seq.stdout)


def test_each_file_is_checked_as_if_alone(tmp_path: Path) -> None:
    # a.py makes helper() graph code; b.py has the same helper and a half-typed tf.function.
    # Checking both at once must not carry a.py's facts into b.py.
    head = "import tensorflow as tf\n\ndef helper(x):\n    print(x)\n    return x\n\n@tf.function\n"
    (tmp_path / "a.py").write_text(head + "def f(x):\n    return helper(x)\n")
    (tmp_path / "b.py").write_text(head + "def g(x):\n    return x +\n")

    def findings(*names: str) -> list[tuple[str, int, str]]:
        out = tflsp("check", "--format", "json", "--jobs", "1", *names, cwd=tmp_path).stdout
        return [(d["path"], d["line"], d["code"]) for d in json.loads(out)]

    alone = findings("b.py")
    together = [f for f in findings("a.py", "b.py") if f[0] == "b.py"]
    assert together == alone == [("b.py", 9, "TFL000")]


def test_rule_and_rules_commands() -> None:
    proc = tflsp("rule", "TFL101")
    assert proc.returncode == 0
    assert proc.stdout.startswith(
        "# TFL101 print-in-graph: print() in graph code runs only while tracing"
    )
    assert "## Why is this bad?" in proc.stdout
    assert "## なぜ問題か" in tflsp("rule", "print-in-graph", "--lang", "ja").stdout
    assert tflsp("rule", "TFL999").returncode == 2
    listing = tflsp("rules").stdout
    for pattern in CATALOG:
        assert re.search(rf"^{pattern.code}\s+{pattern.name}\s", listing, re.M)
    records = json.loads(tflsp("rules", "--format", "json").stdout)
    assert [r["code"] for r in records] == CATALOG.codes()
