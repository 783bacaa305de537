"""Building and calling targets nobody described, and comparing like with like.

Every target here is verified with nothing given (no arguments, no shapes): the verifier must
infer them, and must not report a difference its own inputs caused.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.verify.conftest import PROGRAMS, source_of
from tflsp.verify import VerifierClient

pytestmark = pytest.mark.tf


def probe(client: VerifierClient, kind: str, target: str, **options: Any) -> dict[str, Any]:
    params = {
        "kind": kind,
        "path": str(PROGRAMS / "realistic.py"),
        "source": source_of("realistic.py"),
        "target": target,
        **options,
    }
    return client.probe(params)


def errors(result: dict[str, Any]) -> list[str]:
    return [f["message"] for f in result["findings"] if f["severity"] == "error"]


def plan(result: dict[str, Any]) -> dict[str, Any]:
    value: dict[str, Any] = result["details"]["plan"]
    return value


@pytest.mark.parametrize(
    ("target", "call"),
    [
        # a required size, guessed from its name; the sample fits it
        ("Accumulator", "(float32[2, 4])"),
        # two inputs, sequences by their names
        ("Attention", "(float32[2, 5, 4], float32[2, 5, 4])"),
        # integer ids for an Embedding
        ("TokenEncoder", "(int32[2, 5])"),
    ],
)
def test_classes_run_out_of_the_box(keras3: VerifierClient, target: str, call: str) -> None:
    result = probe(keras3, "tracking", target)
    assert result["outcome"] == "pass", result
    assert plan(result)["call"] == call


def test_a_layer_that_asserts_a_mask_gets_one(keras3: VerifierClient) -> None:
    result = probe(keras3, "tracking", "MaskedSoftmax")
    assert result["outcome"] == "pass", result
    assert "mask=bool" in plan(result)["call"]


def test_the_files_own_use_gives_arguments_and_shape(keras3: VerifierClient) -> None:
    result = probe(keras3, "tracking", "ArgsUser")
    assert result["outcome"] == "pass", result
    assert plan(result)["construct"] == "ArgsUser([16, 8])"
    assert plan(result)["call"] == "(float32[3, 12])"
    assert [w["shape"] for w in result["details"]["weights"]] == [[12, 16], [16], [16, 8], [8]]


def test_functional_constructor_subclass(keras3: VerifierClient) -> None:
    result = probe(keras3, "modes", "TrainStepModel")
    assert result["outcome"] == "pass", result
    assert plan(result)["kind"] == "functional"
    # fit() ran its train_step in both modes
    assert "fit" in result["details"]["sets"]


def test_tf_module_is_tracked_and_compared(keras3: VerifierClient) -> None:
    tracking = probe(keras3, "tracking", "Linear")
    assert tracking["outcome"] == "pass", tracking
    assert tracking["observations"]["tracked"] == 2
    modes = probe(keras3, "modes", "Linear")
    assert modes["outcome"] == "pass", modes


def test_functions_taking_tensors(keras3: VerifierClient) -> None:
    counted = probe(keras3, "modes", "steps")
    assert counted["outcome"] == "pass", counted
    assert plan(counted)["call"] == "(int32[])"  # a count is a scalar, not a vector
    weighted = probe(keras3, "modes", "affine")
    assert weighted["outcome"] == "pass", weighted
    assert plan(weighted)["call"] == "(float32[2, 4], float32[4, 4], float32[4])"


def test_a_size_named_in_the_error_is_tried(keras3: VerifierClient, tmp_path: Any) -> None:
    source = (
        "import keras\n\n"
        "class Wants128(keras.layers.Layer):\n"
        "    def build(self, input_shape):\n"
        "        assert input_shape[-1] % 128 == 0, f'{input_shape[-1]} / 128 must be round'\n"
        "\n"
        "    def call(self, x):\n"
        "        return x\n"
    )
    result = keras3.probe(
        {"kind": "tracking", "path": str(tmp_path / "w.py"), "source": source, "target": "Wants128"}
    )
    assert result["outcome"] == "pass", result
    assert result["details"]["plan"]["call"] == "(float32[2, 128])"


def test_what_to_give_when_nothing_fits(keras3: VerifierClient, tmp_path: Any) -> None:
    source = (
        "import keras\n\n"
        "class Picky(keras.layers.Layer):\n"
        "    def call(self, x):\n"
        "        if x.shape[-1] != 7:\n"
        "            raise ValueError('wrong number of features')\n"
        "        return x\n"
    )
    result = keras3.probe(
        {
            "kind": "tracking",
            "path": str(tmp_path / "picky.py"),
            "source": source,
            "target": "Picky",
        }
    )
    assert result["outcome"] == "error"
    assert "wrong number of features" in result["error"]
    assert "--inputs" in result["error"] and "input_shape" in result["error"]
    given = keras3.probe(
        {
            "kind": "tracking",
            "path": str(tmp_path / "picky.py"),
            "source": source,
            "target": "Picky",
            "input_shape": [3, 7],
        }
    )
    assert given["outcome"] == "pass", given


# -- never cry wolf ----------------------------------------------------------------------------------
@pytest.mark.parametrize("target", ["Accumulator", "NoisyScale", "SeededDropout"])
def test_modes_compares_like_with_like(keras3: VerifierClient, target: str) -> None:
    """State that advances, unseeded initializers, seed generators: no false difference."""
    result = probe(keras3, "modes", target)
    assert result["outcome"] == "pass", result["findings"]
    assert errors(result) == []


def test_random_by_design_is_information(keras3: VerifierClient) -> None:
    result = probe(keras3, "modes", "jitter")
    assert result["outcome"] == "pass", result["findings"]
    notes = [f for f in result["findings"] if "random by design" in f["message"]]
    assert notes and notes[0]["severity"] == "info"


def test_keras_rng_state_is_not_the_users_variable(keras3: VerifierClient) -> None:
    result = probe(keras3, "tracking", "Sampling")
    assert result["observations"]["untracked"] == 0, result["findings"]


def test_untracked_variable_gets_the_one_code_of_its_cause(keras3: VerifierClient) -> None:
    result = probe(keras3, "tracking", "HelperHeld")
    (finding,) = [f for f in result["findings"] if "not tracked" in f["message"]]
    assert finding["patterns"] == ["TFL304"]
    assert "2 variables" in finding["message"]


def test_notes_that_fire_on_every_layer_are_gone(keras3: VerifierClient) -> None:
    result = probe(keras3, "modes", "Attention")
    assert result["findings"] == [], result["findings"]
