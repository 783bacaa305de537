"""The verifier runs code people did not write for it: files it writes, hangs, exits, argparse.

Each test reproduces a case from the verifier audit (``verify-audit.md``, section 5).
"""

from __future__ import annotations

import json
import os
import tempfile
import textwrap
import time
import uuid
from pathlib import Path
from typing import Any

import pytest

from tflsp.cli.main import main
from tflsp.verify import VerifierClient

pytestmark = pytest.mark.tf

LAYER = """
@keras.saving.register_keras_serializable(package="safety")
class Scale(keras.Model):
    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor
        self.dense = keras.layers.Dense(3)

    def call(self, x):
        return self.dense(x) * self.factor

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}
"""


def _module(path: Path, prelude: str, token: str = "") -> Path:
    text = "import keras\n" + textwrap.dedent(prelude) + LAYER + (f"# {token}\n" if token else "")
    path.write_text(text, encoding="utf-8")
    return path


def _workers() -> set[str]:
    """This process's worker folders (the session's shared workers have one too)."""
    return {str(p) for p in Path(tempfile.gettempdir()).glob(f"tflsp-worker-{os.getpid()}-*")}


def _leftovers(token: str, workers: set[str]) -> list[str]:
    """What this test's verifier left in the system temp folder: copies of a module carrying
    ``token``, the marker file, and new worker folders of this process (other programs on the
    machine may be using the temp folder at the same time)."""
    root = Path(tempfile.gettempdir())
    found = sorted(_workers() - workers)
    found += [str(p) for p in root.glob(f"tflsp_marker_{token}.txt")]
    for folder in root.glob("tflsp-probe-*"):
        for file in folder.glob("*.py"):
            try:
                if token in file.read_text(encoding="utf-8"):
                    found.append(str(file))
            except OSError:
                continue
    return found


def _verify(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[dict[str, Any]]]:
    code = main(["verify", *argv, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_files_written_at_import_stay_in_the_scratch_folder_and_one_import_per_verify(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    counter = tmp_path / "imports.txt"
    token = uuid.uuid4().hex
    target = _module(
        tmp_path / "writes.py",
        f"""
        import os
        with open({str(counter)!r}, "a") as log:
            log.write(f"{{os.getpid()}} {{os.getcwd()}}\\n")
        with open("tflsp_marker_{token}.txt", "w") as marker:
            marker.write("written at import")
        """,
        token,
    )
    workers = _workers()
    code, results = _verify(capsys, f"{target}::Scale")
    assert code == 0, results
    assert [r["outcome"] for r in results] == ["pass", "pass", "pass"]
    imports = counter.read_text().splitlines()
    # Once in the worker for the three probes, once in the fresh process that loads the model.
    assert len(imports) == 2, imports
    assert len({line.split()[0] for line in imports}) == 2
    assert all(tempfile.gettempdir() != line.split(maxsplit=1)[1] for line in imports)
    assert _leftovers(token, workers) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["imports.txt", "writes.py"]


@pytest.mark.parametrize(
    ("prelude", "expected"),
    [
        ("import sys\nsys.exit('leaving at import')\n", "sys.exit('leaving at import')"),
        ("import os\nos._exit(3)\n", "os._exit(3)"),
        (
            "import argparse\n"
            "parser = argparse.ArgumentParser()\n"
            "parser.add_argument('--data', required=True)\n"
            "args = parser.parse_args()\n",
            "the following arguments are required: --data",
        ),
    ],
)
def test_exits_at_import_are_reported_and_the_worker_lives_on(
    keras3: VerifierClient, tmp_path: Path, prelude: str, expected: str
) -> None:
    target = _module(tmp_path / "leaves.py", prelude)
    keras3.start()
    starts = keras3.starts
    result = keras3.probe(
        {"kind": "tracking", "path": str(target), "source": target.read_text(), "target": "Scale"}
    )
    assert result["outcome"] == "error"
    assert expected in result["error"], result["error"]
    assert "line 3" in result["error"] or "line 5" in result["error"]
    if "argparse" in prelude:
        assert "argparse" in result["error"]
    # The worker did not die: the same one answers the next request.
    again = keras3.probe(
        {
            "kind": "tracking",
            "path": str(target),
            "source": "import keras\n" + LAYER,
            "target": "Scale",
        }
    )
    assert again["outcome"] == "pass"
    assert keras3.starts == starts


def test_a_hanging_import_costs_one_timeout_and_leaves_nothing_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    token = uuid.uuid4().hex
    target = _module(tmp_path / "hangs.py", "import time\ntime.sleep(600)\n", token)
    workers = _workers()
    started = time.monotonic()
    code, results = _verify(capsys, f"{target}::Scale", "--timeout", "8")
    elapsed = time.monotonic() - started
    assert code == 2
    tracking, modes, saveload = results
    assert tracking["outcome"] == "error"
    assert "while importing hangs.py" in tracking["error"]
    assert "top-level code" in tracking["error"]
    assert modes["outcome"] == saveload["outcome"] == "skip"
    assert elapsed < 8 * 2 + 60, elapsed  # one timeout (plus a worker start), not three
    # The killed worker's scratch folder (source copies, AutoGraph files) went with it.
    assert _leftovers(token, workers) == []


def test_keras_both_runs_keras3_code_on_keras3_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("tf_keras")
    keras3_code = _module(tmp_path / "k3.py", "")
    legacy = tmp_path / "k2.py"
    legacy.write_text(
        "import tensorflow as tf\nkeras = tf.keras\n"
        + LAYER.replace("keras.saving.", "keras.utils."),
        encoding="utf-8",
    )
    code, results = _verify(
        capsys,
        f"{keras3_code}::Scale",
        f"{legacy}::Scale",
        "--keras",
        "both",
        "--probe",
        "saveload",
    )
    assert code == 0, results
    outcomes = {(Path(r["path"]).name, r["keras_major"]): r["outcome"] for r in results}
    assert outcomes == {
        ("k3.py", "3"): "pass",
        ("k2.py", "3"): "pass",
        ("k3.py", "2"): "skip",
        # saved and loaded with tf_keras, the Keras that runs it
        ("k2.py", "2"): "pass",
    }
    skipped = next(r for r in results if r["outcome"] == "skip")
    assert "Keras 3 code" in skipped["reason"]


def test_save_load_messages_keep_the_cause(keras3: VerifierClient, tmp_path: Path) -> None:
    source = textwrap.dedent(
        """
        import keras

        class Plain(keras.layers.Layer):
            def __init__(self, units):
                super().__init__()
                self.dense = keras.layers.Dense(units)

            def call(self, x):
                return self.dense(x)
        """
    )
    result = keras3.probe(
        {
            "kind": "saveload",
            "path": str(tmp_path / "plain.py"),
            "source": source,
            "target": "Plain",
        }
    )
    text = json.dumps(result)
    assert "tflsp_user_" not in text
    by_step = {
        f["message"].split(" failed:")[0]: f
        for f in result["findings"]
        if " failed:" in f["message"]
    }
    load = by_step["load"]
    assert "Could not locate class 'Plain'" in load["message"]
    assert load["patterns"] == ["TFL401"]
    assert "\n" not in load["message"] and "\n" in load["detail"]
    custom = by_step["load_custom_objects"]
    assert "unexpected keyword argument" in custom["message"] and "**kwargs" in custom["message"]
    assert custom["patterns"] == []


def test_exit_status_follows_error_findings_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    module = tmp_path / "funcs.py"
    module.write_text(
        "import tensorflow as tf\n\n"
        "@tf.function\n"
        "def double(x):\n"
        "    print('tracing')\n"
        "    return x * 2\n",
        encoding="utf-8",
    )
    code, results = _verify(capsys, f"{module}::double")
    assert [r["outcome"] for r in results] == ["skip", "fail", "skip"]
    (printed,) = [f for f in results[1]["findings"] if "print()" in f["message"]]
    assert printed["severity"] == "warning" and printed["patterns"] == ["TFL101"]
    assert code == 0  # a warning is not a failure
    assert os.path.exists(module)
