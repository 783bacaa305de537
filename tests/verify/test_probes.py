"""Probes on real TensorFlow: good and bad classes and functions, Keras 3 and Keras 2."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.verify.conftest import PROGRAMS, source_of
from tflsp.catalog import load_pattern
from tflsp.catalog.loader import PATTERNS_DIR
from tflsp.verify import VerifierClient
from tflsp.verify.catalog_check import plan  # noqa: F401 - imported to prove it needs no TF
from tflsp.verify.report import annotate, render_text

pytestmark = pytest.mark.tf


def probe(
    client: VerifierClient, kind: str, program: str, target: str, **options: Any
) -> dict[str, Any]:
    params = {
        "kind": kind,
        "path": str(PROGRAMS / program),
        "source": source_of(program),
        "target": target,
    }
    params.update(options)
    return client.probe(params)


# -- tracking ----------------------------------------------------------------------------------
def test_tracking_passes_for_add_weight(keras3: VerifierClient) -> None:
    result = probe(keras3, "tracking", "layers.py", "Tracked")
    assert result["outcome"] == "pass"
    assert result["observations"] == {
        "outcome": "pass",
        "created": 1,
        "tracked": 1,
        "untracked": 0,
        "untrained": 0,
        "created_on_second_call": 0,
    }
    assert result["versions"]["keras"].startswith("3.")
    assert result["seconds"] > 0


def test_raw_tf_variable_is_untracked_on_keras3_only(
    keras3: VerifierClient, keras2: VerifierClient
) -> None:
    k3 = probe(keras3, "tracking", "layers.py", "RawVariable")
    assert k3["outcome"] == "fail"
    assert k3["observations"]["untracked"] == 1
    (untracked,) = k3["details"]["untracked"]
    assert "scale" in untracked["name"] and untracked["shape"] == []
    source = source_of("layers.py").splitlines()
    assert "tf.Variable(2.0" in source[untracked["line"] - 1]
    # The probe names the catalog patterns it is the runtime face of; the report keeps them.
    (finding,) = [f for f in k3["findings"] if "not tracked" in f["message"]]
    assert finding["patterns"][0] == "TFL301"
    catalog = [load_pattern(d) for d in sorted(PATTERNS_DIR.glob("TFL30[14]-*"))]
    # One code: the one of its cause (a raw tf.Variable), not every pattern that could apply.
    assert annotate(k3, catalog)["findings"][0]["patterns"] == ["TFL301"]
    k2 = probe(keras2, "tracking", "layers.py", "RawVariable")
    assert k2["outcome"] == "pass" and k2["observations"]["untracked"] == 0


@pytest.mark.parametrize("client_name", ["keras3", "keras2"])
def test_layer_created_in_call_is_untracked_and_recreated(
    client_name: str, request: pytest.FixtureRequest
) -> None:
    result = probe(request.getfixturevalue(client_name), "tracking", "layers.py", "LayerInCall")
    assert result["outcome"] == "fail"
    assert result["observations"]["untracked"] == 2
    assert result["observations"]["created_on_second_call"] == 2
    (recreated,) = [f for f in result["findings"] if "second call" in f["message"]]
    assert recreated["patterns"] == ["TFL303"]
    # The untracked variables carry the same cause, once for both.
    (untracked,) = [f for f in result["findings"] if "not tracked" in f["message"]]
    assert untracked["patterns"] == ["TFL303"] and "inside call()" in untracked["message"]


@pytest.mark.parametrize("client_name", ["keras3", "keras2"])
def test_layer_on_a_plain_helper_object_is_untracked(
    client_name: str, request: pytest.FixtureRequest
) -> None:
    result = probe(request.getfixturevalue(client_name), "tracking", "layers.py", "OnPlainHelper")
    assert result["observations"]["untracked"] == 2 and result["observations"]["tracked"] == 0


def test_sibling_modules_import_from_the_files_folder_and_are_reimported(
    keras3: VerifierClient, tmp_path: Path
) -> None:
    helper = tmp_path / "tflsp_sibling_units.py"
    main = tmp_path / "model.py"
    main.write_text(
        "import keras\n"
        "from tflsp_sibling_units import UNITS\n\n"
        "class Head(keras.layers.Layer):\n"
        "    def build(self, input_shape):\n"
        "        self.w = self.add_weight(shape=(input_shape[-1], UNITS))\n\n"
        "    def call(self, x):\n"
        "        return x @ self.w\n",
        encoding="utf-8",
    )

    def units() -> int:
        params = {
            "kind": "tracking",
            "path": str(main),
            "source": main.read_text(encoding="utf-8"),
            "target": "Head",
            "input_shape": [2, 3],
        }
        result = keras3.probe(params)
        assert result["outcome"] == "pass", result
        shape: list[int] = result["details"]["weights"][0]["shape"]
        return shape[1]

    helper.write_text("UNITS = 5\n", encoding="utf-8")
    assert units() == 5
    # An edited sibling is imported afresh, as a new `python model.py` would.
    helper.write_text("UNITS = 12\n", encoding="utf-8")
    assert units() == 12
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model.py", "tflsp_sibling_units.py"]


def test_untrained_weight_is_reported(keras3: VerifierClient) -> None:
    result = probe(keras3, "tracking", "layers.py", "UnusedWeight")
    assert result["observations"]["untrained"] == 1
    assert result["details"]["untrained"][0]["reason"] == "no gradient"


def test_constructor_arguments_from_the_directive_and_from_the_request(
    keras3: VerifierClient,
) -> None:
    from_comment = probe(keras3, "tracking", "layers.py", "NeedsUnits")
    assert from_comment["outcome"] == "pass"
    assert from_comment["details"]["input_shape"] == [2, 6]
    assert [w["shape"] for w in from_comment["details"]["weights"]] == [[6, 4], [4]]
    from_request = probe(keras3, "tracking", "layers.py", "NoDefaults", args={"units": 7})
    assert from_request["details"]["weights"][0]["shape"][1] == 7


def test_missing_arguments_are_guessed_and_the_guess_is_reported(keras3: VerifierClient) -> None:
    result = probe(keras3, "tracking", "layers.py", "NoDefaults")
    assert result["outcome"] == "pass", result
    chosen = result["details"]["plan"]
    assert chosen["construct"] == "NoDefaults(units=4)"
    assert "units=4 (passed on as Dense(units=...))" in chosen["notes"]
    assert "ran: built as NoDefaults(units=4) (guessed)" in render_text(result)


def test_input_shape_is_searched_when_not_given(keras3: VerifierClient) -> None:
    result = probe(keras3, "tracking", "layers.py", "ImageOnly")
    assert result["outcome"] == "pass"
    assert len(result["details"]["input_shape"]) == 4


def test_wrong_target_kind_is_skipped_and_a_missing_one_is_an_error(
    keras3: VerifierClient,
) -> None:
    function = probe(keras3, "tracking", "layers.py", "not_a_layer")
    assert function["outcome"] == "skip" and "is a function" in function["reason"]
    assert "defines no 'Missing'" in probe(keras3, "tracking", "layers.py", "Missing")["error"]


# -- modes ---------------------------------------------------------------------------------------
def test_print_in_tf_function_runs_only_while_tracing(keras3: VerifierClient) -> None:
    result = probe(keras3, "modes", "graph.py", "prints_in_graph")
    observed = result["observations"]
    assert result["outcome"] == "fail"
    # 2 input sets x 3 calls eagerly; as a graph: 1 trace for same-shaped tensors, 3 for
    # three batch sizes.
    assert observed["eager_prints"] == 6 and observed["graph_prints"] == 4
    assert observed["traces_same_shape"] == 1 and observed["traces_shapes"] == 3
    printed = next(f for f in result["findings"] if "print()" in f["message"])
    assert printed["patterns"] == ["TFL101"]
    line = printed["line"]
    assert "print(" in source_of("graph.py").splitlines()[line - 1]


def test_tf_print_behaves_the_same_in_both_modes(keras3: VerifierClient) -> None:
    result = probe(keras3, "modes", "graph.py", "tf_prints")
    assert result["outcome"] == "pass"
    assert result["observations"]["eager_prints"] == result["observations"]["graph_prints"] == 0


def test_python_counter_differs_between_modes(keras3: VerifierClient) -> None:
    result = probe(keras3, "modes", "graph.py", "counts_calls")
    assert result["outcome"] == "fail"
    same = result["details"]["sets"]["same_shape"]
    assert same["eager"]["changes"] == {"calls": [0, 3]}
    assert same["graph"]["changes"] == {"calls": [0, 1]}


def test_numpy_in_graph_fails_only_as_a_graph(keras3: VerifierClient) -> None:
    result = probe(keras3, "modes", "graph.py", "numpy_in_graph")
    assert result["observations"]["one_mode_errors"] >= 3
    assert any(
        "'SymbolicTensor' object has no attribute 'numpy'" in f["message"]
        for f in result["findings"]
    )


def test_pure_function_passes_without_noise(keras3: VerifierClient) -> None:
    result = probe(keras3, "modes", "graph.py", "pure")
    assert result["outcome"] == "pass"
    assert result["observations"]["mismatches"] == 0
    # Three traces for three batch sizes is how tf.function works, not a finding.
    assert result["findings"] == []


@pytest.mark.parametrize(("client_name", "eager", "graph"), [("keras3", 6, 3), ("keras2", 5, 2)])
def test_python_counter_in_model_call_during_fit(
    client_name: str, eager: int, graph: int, request: pytest.FixtureRequest
) -> None:
    result = probe(request.getfixturevalue(client_name), "modes", "graph.py", "CountingModel")
    fit = result["details"]["sets"]["fit"]
    assert fit["eager"]["changes"]["steps"] == [0, eager]
    assert fit["graph"]["changes"]["steps"] == [0, graph]
    assert result["outcome"] == "fail"


def test_counter_in_a_variable_agrees_between_modes(keras3: VerifierClient) -> None:
    result = probe(keras3, "modes", "graph.py", "VariableCountingModel")
    assert result["observations"]["attribute_differences"] == 0
    assert result["observations"]["mismatches"] == 0


# -- saveload ------------------------------------------------------------------------------------
def _steps(result: dict[str, Any]) -> dict[str, bool]:
    return {s["step"]: s["ok"] for s in result["details"]["steps"]}


def test_registered_model_survives_a_fresh_process(keras3: VerifierClient) -> None:
    result = probe(keras3, "saveload", "saving.py", "Registered")
    assert result["outcome"] == "pass", result["findings"]
    assert _steps(result) == {
        "build": True,
        "get_config": True,
        "save": True,
        "export": True,
        "fresh_process": True,
        "import": True,
        "load": True,
        "load_custom_objects": True,
        "load_savedmodel": True,
    }
    assert result["observations"]["max_diff"] == 0.0


def test_unregistered_model_loads_only_with_custom_objects(keras3: VerifierClient) -> None:
    result = probe(keras3, "saveload", "saving.py", "Unregistered")
    observed = result["observations"]
    assert observed["failed_step"] == "load" and observed["custom_objects_fixes"] is True
    load = next(s for s in result["details"]["steps"] if s["step"] == "load")
    assert load["exception"]["type"] == "TypeError"
    assert "Could not locate class 'Unregistered'" in load["exception"]["message"]
    # The failure points at the catalog entry whose symptom it is, with that entry's fix.
    annotate(result, [load_pattern(PATTERNS_DIR / "TFL401-unregistered-custom-object")])
    hints = {entry["code"]: entry for entry in result["catalog"]}
    assert "TFL401" in hints and "register_keras_serializable" in hints["TFL401"]["fix"]


def test_defaulted_argument_without_get_config_is_silently_wrong(keras3: VerifierClient) -> None:
    result = probe(keras3, "saveload", "saving.py", "DefaultedWithoutConfig")
    config = next(s for s in result["details"]["steps"] if s["step"] == "get_config")
    assert config["wrong"] == {"units": {"given": 5, "config": 3}}
    assert _steps(result)["save"] is True and _steps(result)["load"] is False
    assert (
        "expected 2 variables"
        in next(s for s in result["details"]["steps"] if s["step"] == "load")["exception"][
            "message"
        ]
    )


def test_required_argument_without_get_config_fails_at_save(
    keras3: VerifierClient, keras2: VerifierClient
) -> None:
    k3 = probe(keras3, "saveload", "saving.py", "RequiredWithoutConfig")
    assert k3["observations"]["failed_step"] == "get_config"
    assert _steps(k3)["save"] is False
    save = next(s for s in k3["details"]["steps"] if s["step"] == "save")
    assert save["exception"]["type"] == "NotImplementedError"
    # Keras 2 auto-configures the argument and the round trip works.
    k2 = probe(keras2, "saveload", "saving.py", "RequiredWithoutConfig")
    assert k2["outcome"] == "pass", k2["findings"]


def test_reports_render_and_point_into_the_catalog(keras3: VerifierClient) -> None:
    result = annotate(probe(keras3, "tracking", "layers.py", "RawVariable"), [])
    text = render_text(result)
    assert text.startswith("tracking ") and "FAIL" in text and "not tracked" in text
    assert "\x1b[" not in text
