"""``tflsp verify`` on real code nobody on the team wrote: out of the box, no false alarms,
seeded bugs found with the right code.

Targets are real classes and functions from ``../shared/corpus`` and pinned PyPI wheels
(``tests/verify/realcode/targets.py``), cut out with what they need at test time, verified with
the plain command (``tflsp verify FILE::NAME``, nothing given), and scored against the truth
checked with TensorFlow.  Seeded bugs are textual mutations of real targets, made at test time.

The whole set takes about ten minutes on two cores, so by default a fixed sample runs: every
kind of target and one seeded copy per kind of bug.  ``TFLSP_REAL_TARGETS=all`` runs everything
(``benchmarks/verify_real_targets.py`` prints the same figures with a line per target).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.helpers import shared_dir
from tests.verify.realcode.plan import build_cases
from tests.verify.realcode.run import CACHE, run_cli, summarise
from tests.verify.realcode.targets import AUDIT, OWN, SEEDED

pytestmark = [pytest.mark.tf, pytest.mark.slow]

OUT_OF_THE_BOX = 0.85
# A sample that covers every kind of target (keras-hub, tf-models, tensorflow-recommenders,
# docs layers, models, tf.Modules, functions, the audit's) and every kind of seeded bug.
SAMPLE = {
    "kh.TransformerEncoder",
    "kh.RotaryEmbedding",
    "tfm.MaskedSoftmax",
    "tfm.SelfAttentionMask",
    "tfrs.DotInteraction",
    "nb.ResidualWrapper",
    "nb.RandomInvert",
    "nb.MySequentialModel",
    "nb.DenseModule",
    "nb.dcgan.generator_loss",
    "nb.function.dense_layer",
    "a25.Baseline",
    "a29.train",
    "a35.DeepResNet",
    "a37.BahdanauAttention",
    "a38.InstanceNormalization",
    "kh.FNetEncoder",
    "tfm.ClassificationHead",
    "nb.Augment",
    "nb.PandasModel",
    "tfe.ConvBlock",
    "nb.LoopsModule",
    "nb.pix2pix.generator_loss",
    "a31.side_effect",
    "a36.Conv2Plus1D",
}
SAMPLE_SEEDS = {
    ("nb.MyDense", "raw_variable"),
    ("tfm.LayerScale", "layer_in_call"),
    ("nb.ResidualMain", "plain_holder"),
    ("tfm.RMSNorm", "python_counter"),
    ("a23.AnomalyDetector", "print"),
    ("nb.function.dense_layer", "numpy"),
    ("nb.function.add", "global_counter"),
    ("kh.TransformerEncoder", "unregistered"),
    ("kh.PositionEmbedding", "config_drops_arg"),
    ("kh.RMSNormalization", "layer_in_call"),
    ("nb.basics.my_func", "global_counter"),
}


def _wheels_present() -> None:
    origins = {t.origin for t in OWN + AUDIT if t.origin != "corpus"}
    missing = sorted(o for o in origins if not (CACHE / o).is_dir())
    if missing:
        pytest.skip(
            f"the pinned wheels are not unzipped in {CACHE} ({', '.join(missing)}): run "
            "'pip download --no-deps NAME==VERSION -d ~/.cache/tflsp-ecosystem/wheels' for "
            "each (../shared/corpus/README.md) and unzip it into "
            "~/.cache/tflsp-ecosystem/NAME-VERSION/"
        )


@pytest.mark.timeout(3600)
def test_real_targets_out_of_the_box_without_false_alarms(tmp_path: Path) -> None:
    corpus = shared_dir("corpus")
    _wheels_present()
    everything = os.environ.get("TFLSP_REAL_TARGETS") == "all"
    keys = None if everything else SAMPLE | {key for key, _ in SAMPLE_SEEDS}
    cases, skipped = build_cases(corpus, tmp_path, which="all", seeds=True, only=keys)
    if not everything:
        cases = [
            c
            for c in cases
            if (c.seed is None and c.key in SAMPLE)
            or (c.seed is not None and (c.target.key, c.seed.kind) in SAMPLE_SEEDS)
        ]
    assert not skipped, f"targets that could not be cut out of their code: {skipped}"
    seconds = run_cli(cases)
    summary = summarise(cases, seconds)
    report = "\n".join(s.line() for s in summary.scores) + "\n" + summary.text("real targets")
    print(report)

    clean = summary.clean()
    verified = sum(s.verified for s in clean)
    assert verified >= OUT_OF_THE_BOX * len(clean), report
    false = [f"{s.case.key}: {e}" for s in summary.scores for e in s.false_errors]
    assert not false, "false errors:\n" + "\n".join(false)
    missed = [s.case.key for s in summary.seeded() if not s.seed_found or not s.seed_code_first]
    assert not missed, f"seeded bugs not found with their code: {missed}\n{report}"
    if everything:
        assert len(clean) == len(OWN) + len(AUDIT)
        assert len(summary.seeded()) == len(SEEDED)
