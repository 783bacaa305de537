"""The false-positive corpus: idiomatic TensorFlow/Keras code must come out clean.

``tests/corpus/`` holds guide-style code (custom layers with ``add_weight``, registered models
with ``get_config``, ``shuffle().batch()`` pipelines, ``.keras`` saving, ``model.export``,
custom training loops).  It is checked through the real command line, with the default rules
and with ``--select ALL``, for Keras 3 and for automatic targeting.

What is fair: with ``--select ALL``, rules that are off by default may report (they exist for
style or legacy questions that idiomatic code can legitimately raise); every rule that is on
by default must stay silent.  Each file is also run through a few small mutations that
re-introduce a pitfall, so a clean result cannot come from the analyzer not looking.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import CATALOG

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "corpus"
FILES = sorted(CORPUS.glob("*.py"))
OFF_BY_DEFAULT = frozenset(p.code for p in CATALOG if not p.default_enabled)


def check(*args: str, cwd: Path = ROOT) -> tuple[int, list[dict[str, object]]]:
    """Run ``python -m tflsp check --format json`` and return (exit status, findings)."""
    env = {**os.environ, "LANG": "C.UTF-8"}
    env.pop("TF_USE_LEGACY_KERAS", None)
    proc = subprocess.run(
        [sys.executable, "-m", "tflsp", "check", "--format", "json", "--isolated", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def describe(findings: list[dict[str, object]]) -> str:
    return "\n".join(f"{f['path']}:{f['line']}: {f['code']} {f['message']}" for f in findings)


def test_corpus_is_substantial() -> None:
    lines = sum(len(f.read_text(encoding="utf-8").splitlines()) for f in FILES)
    assert len(FILES) >= 4 and lines >= 400


@pytest.mark.parametrize("target", ["3", "auto"])
def test_default_rules_report_nothing(target: str) -> None:
    status, findings = check("--target-keras", target, str(CORPUS))
    assert findings == [], describe(findings)
    assert status == 0


@pytest.mark.parametrize("target", ["3", "auto"])
def test_all_rules_report_only_off_by_default_ones(target: str) -> None:
    _, findings = check("--select", "ALL", "--target-keras", target, str(CORPUS))
    unexpected = [f for f in findings if f["code"] not in OFF_BY_DEFAULT]
    assert unexpected == [], describe(unexpected)


# (file, text in the file, replacement, the rule that must now report)
MUTATIONS = [
    ("data_pipelines.py", "reshuffle_each_iteration=False", "seed=7", "TFL203"),
    ("data_pipelines.py", "train.shuffle(buffer_size=1000)", "train.batch(4).shuffle(8)", "TFL202"),
    (
        "data_pipelines.py",
        "    return ds.shuffle(16).batch(4)",
        "    ds = ds.shuffle(16)\n    xs = ds.map(lambda x, y: x)\n    ys = ds.map(lambda x, y: y)\n"
        "    return tf.data.Dataset.zip((xs, ys))",
        "TFL204",
    ),
    ("data_pipelines.py", "text = tf.io.read_file(path)", "text = open(path).read()", "TFL201"),
    (
        "data_pipelines.py",
        "ds.batch(BATCH_SIZE, drop_remainder=True).take(3)",
        "tf.data.Dataset.range(3).batch(BATCH_SIZE, drop_remainder=True)",
        "TFL205",
    ),
    (
        "custom_layers.py",
        '@keras.saving.register_keras_serializable(package="corpus")\nclass Linear',
        "class Linear",
        "TFL401",
    ),
    (
        "custom_layers.py",
        'config.update({"hidden": self.hidden, "num_classes": self.num_classes})',
        'config.update({"hidden": self.hidden})',
        "TFL403",
    ),
    (
        "saving_export.py",
        'os.path.join(directory, "model.keras")',
        'os.path.join(directory, "model")',
        "TFL404",
    ),
    ("saving_export.py", '"model.weights.h5"', '"model.ckpt"', "TFL405"),
    ("saving_export.py", '"copy.keras"', '"copy.h5"', "TFL406"),
]


@pytest.mark.parametrize(("name", "old", "new", "code"), MUTATIONS, ids=[m[3] for m in MUTATIONS])
def test_reintroduced_pitfalls_are_found(
    tmp_path: Path, name: str, old: str, new: str, code: str
) -> None:
    source = (CORPUS / name).read_text(encoding="utf-8")
    assert source.count(old) == 1, f"mutation anchor not found once in {name}: {old!r}"
    (tmp_path / name).write_text(source.replace(old, new), encoding="utf-8")
    _, findings = check("--target-keras", "3", name, cwd=tmp_path)
    # Rules of other families may see the same mistake (open() in a map is also a Python
    # side effect in graph code); the one the mutation is about must be among them.
    assert code in [f["code"] for f in findings], describe(findings)
