"""The whole catalog, run on real TensorFlow: every bad.py misbehaves as its pattern.toml says,
every good.py behaves.  A bad example that stops misbehaving fails the check."""

from __future__ import annotations

import dataclasses
import shutil
import time
from pathlib import Path

import pytest

from tflsp.catalog import load_catalog, load_pattern
from tflsp.catalog.loader import PATTERNS_DIR
from tflsp.verify import WorkerConfig
from tflsp.verify.catalog_check import CatalogRun, fresh_process_reason, plan
from tflsp.verify.record import Result

pytestmark = [pytest.mark.tf, pytest.mark.slow]

BUDGET_SECONDS = 180  # per Keras version, on the 2-core CI machine


def _describe(result: Result) -> str:
    failed = [c for c in result.checks if not c["ok"]]
    lines = [
        f"{result.pattern} keras{result.keras} {result.example}.py: {result.status} {result.note}"
    ]
    lines += [f"    expected {c['expect']}; observed {c['observed']}" for c in failed]
    return "\n".join(lines)


@pytest.mark.timeout(900)
def test_whole_catalog_on_keras3_and_keras2() -> None:
    catalog = list(load_catalog())
    tasks = plan(catalog, ("3", "2"))
    started = time.monotonic()
    runner = CatalogRun(lambda keras: WorkerConfig(keras=keras, timeout=120))
    results = runner.run(tasks)
    elapsed = time.monotonic() - started
    assert len(results) == len(tasks)
    bad = [_describe(r) for r in results if r.status in ("fail", "error")]
    assert not bad, "\n".join(bad)
    # Both versions really ran, with the versions the docs will print.
    runs = {run["keras"]: run for run in runner.runs}
    assert set(runs) == {"3", "2"}
    assert runs["3"]["keras_version"].startswith("3.") and runs["2"]["keras_version"].startswith(
        "2."
    )
    for run in runs.values():
        assert run["seconds"] < BUDGET_SECONDS, f"Keras {run['keras']} took {run['seconds']} s"
    print(
        f"\ncatalog: {len(results)} example runs in {elapsed:.1f} s; per version: "
        + ", ".join(f"Keras {k} {r['seconds']} s" for k, r in runs.items())
    )


@pytest.mark.timeout(300)
def test_a_bad_example_that_no_longer_misbehaves_fails(tmp_path: Path) -> None:
    original = load_pattern(PATTERNS_DIR / "TFL102-numpy-in-graph")
    folder = tmp_path / "TFL102-numpy-in-graph"
    shutil.copytree(original.folder, folder)
    # The "bad" example is now the fixed program: it finishes without the promised error.
    shutil.copy(folder / "good.py", folder / "bad.py")
    pattern = dataclasses.replace(original, folder=folder, keras=("keras3",))
    results = CatalogRun(lambda keras: WorkerConfig(keras=keras)).run(plan([pattern], ("3",)))
    by_example = {r.example: r for r in results}
    assert by_example["good"].status == "pass"
    bad = by_example["bad"]
    assert bad.status == "fail"
    assert {
        "expect": "raises AttributeError",
        "observed": "finished without an exception",
        "ok": False,
    } in bad.checks


def test_programs_with_irreversible_switches_get_a_fresh_worker() -> None:
    assert (
        fresh_process_reason("tf.data.experimental.enable_debug_mode()\n")
        == "uses enable_debug_mode"
    )
    assert fresh_process_reason("import os\nos.environ['TF_USE_LEGACY_KERAS'] = '1'\n") is not None
    assert fresh_process_reason("tf.config.run_functions_eagerly(True)\n") is None
