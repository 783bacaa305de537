"""The hostile client (``benchmarks/hostile_client.py``) in the test suite: a short, seeded run.

Random realistic edits (incremental sync in UTF-16, UTF-8 and UTF-32; LF, CRLF, lone CR and
BOM documents; Unicode typed everywhere; notebooks whose cells are inserted, deleted, moved and
turned into Markdown; malformed frames in between) must leave the server saying exactly what
``tflsp check`` says about the same text at every checkpoint.  The generated part always runs;
the part on real code needs ``../shared/corpus``.  The long run is the benchmark itself.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.helpers import shared_dir

pytestmark = [pytest.mark.slow, pytest.mark.timeout(300)]

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "hostile_client.py"


@pytest.fixture(scope="module")
def hostile() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("hostile_client", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def check(totals: object, minimum_checkpoints: int) -> None:
    summary = totals.summary()  # type: ignore[attr-defined]
    print(summary)
    assert totals.errors == [], totals.errors  # type: ignore[attr-defined]
    assert totals.mismatches == [], totals.mismatches[:3]  # type: ignore[attr-defined]
    assert summary["checkpoints"] >= minimum_checkpoints
    assert summary["checkpoints on parsable text"] >= minimum_checkpoints // 5


def test_generated_documents_and_a_notebook(hostile: ModuleType) -> None:
    totals = hostile.run(
        seed=5,
        files=0,
        ops=30,
        notebooks=1,
        corpus=None,
        generated=4,
        notebook_ops=25,
    )
    assert totals.documents == 4 and totals.notebooks == 1
    assert totals.bad_frames > 0
    check(totals, 30)


def test_real_code(hostile: ModuleType) -> None:
    corpus = shared_dir("corpus")
    totals = hostile.run(
        seed=11,
        files=3,
        ops=30,
        notebooks=0,
        corpus=corpus,
        generated=0,
        notebook_ops=0,
        max_lines=600,
    )
    assert totals.documents == 3
    check(totals, 20)
