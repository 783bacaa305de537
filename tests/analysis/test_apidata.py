"""The generated TF/Keras API data: fresh, queryable, and in agreement with the hand-written tables."""

from __future__ import annotations

import builtins
import importlib.metadata
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import tomllib

from tflsp.analysis import apidata
from tflsp.analysis.apidata.signatures import KEYWORD_ONLY, parse_signature
from tflsp.analysis.detectors import keras_backend_names as kb
from tflsp.analysis.detectors import migration_args
from tflsp.analysis.detectors.keras3_names import KERAS_MODULE_ALIASES
from tflsp.analysis.detectors.migration_keras import KERAS_OPS
from tflsp.analysis.detectors.tf1_names import TABLE
from tflsp.analysis.names import _KERAS_ALIASES

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tflsp" / "analysis" / "apidata" / "data"
PATTERNS = ROOT / "tflsp" / "catalog" / "patterns"


def require(condition: bool, reason: str) -> None:
    if not condition:
        pytest.skip(reason)


# -- the query API ------------------------------------------------------------------------------


def test_names_kinds_and_canonical_names() -> None:
    assert apidata.exists("tensorflow.data.Dataset.from_tensor_slices", "tensorflow") is True
    assert apidata.kind("tensorflow.data.Dataset", "tensorflow") == "class"
    assert apidata.kind("tensorflow.nn", "tensorflow") == "module"
    assert apidata.kind("tensorflow.float32", "tensorflow") == "other"
    assert apidata.canonical("keras.layers.Layer", "keras3") == apidata.canonical(
        "keras.Layer", "keras3"
    )
    assert apidata.canonical("tensorflow.add", "tensorflow") == "tensorflow.math.add"
    # tf.keras is Keras 3 on TF 2.21: the same objects, answered under their keras.* names.
    assert apidata.canonical("tensorflow.keras.layers.Dense", "tensorflow") == "keras.layers.Dense"
    assert apidata.exists("tensorflow.keras.activations.relu", "tensorflow") is True
    # Members resolve along the public bases, to the class that defines them.
    assert apidata.canonical("keras.Sequential.fit", "keras3") == "keras.Model.fit"
    assert apidata.kind("keras.Model.fit", "tf_keras") == "function"


def test_absent_and_uncovered_names() -> None:
    assert apidata.exists("tensorflow.Session", "tensorflow") is False
    assert apidata.exists("tensorflow.compat.v1.Session", "tensorflow") is True
    assert apidata.exists("tensorflow.compat.v1.estimator", "tensorflow") is False
    assert apidata.exists("keras.backend.mean", "keras3") is False
    assert apidata.exists("keras.backend.mean", "tf_keras") is True
    assert apidata.exists("keras.Model.no_such_method", "keras3") is False
    assert apidata.exists("numpy.zeros", "tensorflow") is None
    assert apidata.exists("tensorflow.constant", "keras3") is None
    assert apidata.kind("tensorflow.Session", "tensorflow") is None
    with pytest.raises(ValueError, match="flavour"):
        apidata.exists("keras.Model", "keras4")


def test_tf_keras_flavour_reads_legacy_spellings() -> None:
    assert apidata.canonical("tf_keras.layers.Dense", "tf_keras") == "keras.layers.Dense"
    assert apidata.canonical("tensorflow.keras.layers.Dense", "tf_keras") == "keras.layers.Dense"
    # TF_USE_LEGACY_KERAS=1 brings tf.compat.v1.layers back; Keras 3 makes it fail.
    assert apidata.exists("tensorflow.compat.v1.layers.dense", "tf_keras") is True
    assert apidata.exists("tensorflow.compat.v1.layers.dense", "tensorflow") is False
    assert apidata.exists("tensorflow.constant", "tf_keras") is True


def test_bases_and_subclasses() -> None:
    assert "keras.Layer" in apidata.bases("keras.layers.Dense", "keras3")
    assert apidata.is_subclass("keras.Sequential", "keras.layers.Layer", "keras3") is True
    assert apidata.is_subclass("keras.layers.Dense", "keras.Model", "keras3") is False
    # tf-keras layers are tf.Modules; Keras 3 layers are not.
    assert apidata.is_subclass("keras.layers.Dense", "tensorflow.Module", "tf_keras") is True
    assert "tensorflow.Module" not in apidata.bases("keras.layers.Dense", "keras3")
    assert apidata.is_subclass("keras.layers.Dense", "keras.NoSuchClass", "keras3") is None
    assert apidata.bases("keras.Model.fit", "keras3") == ()
    assert "fit" in apidata.members("keras.Sequential", "keras3")


def test_signatures() -> None:
    dense = apidata.signature("keras.layers.Dense", "keras3")
    assert dense is not None
    assert dense.positional()[0] == "units"
    assert dense.get("use_bias") is not None and dense.get("use_bias").default == "True"  # type: ignore[union-attr]
    assert dense.var_keyword
    fit = apidata.signature("keras.Model.fit", "keras3")
    assert fit is not None and fit.positional()[:2] == ("x", "y")  # bound: no self
    # A class whose metaclass hides its parameters is read through __init__.
    variable = apidata.signature("tensorflow.Variable", "tensorflow")
    assert variable is not None and variable.positional()[0] == "initial_value"
    assert apidata.signature("tensorflow.nn", "tensorflow") is None


def test_signature_text_round_trips() -> None:
    sig = parse_signature("(a, b=1, /, c='x', *args, d=..., e=(1, 2), **kw)")
    kinds = [p.kind for p in sig.parameters]
    assert kinds == [
        "positional_only",
        "positional_only",
        "positional_or_keyword",
        "var_positional",
        KEYWORD_ONLY,
        KEYWORD_ONLY,
        "var_keyword",
    ]
    assert [p.default for p in sig.parameters] == [None, "1", "'x'", None, "...", "(1, 2)", None]
    assert sig.names() == ("a", "b", "c", "d", "e")
    with pytest.raises(ValueError):
        parse_signature("(a, ")


@pytest.mark.parametrize(
    ("name", "flavor", "kind"),
    [
        ("tensorflow.function", "tensorflow", "function"),
        ("tensorflow.constant", "tensorflow", "tensor"),
        ("tensorflow.reduce_sum", "tensorflow", "tensor"),
        ("tensorflow.Variable", "tensorflow", "variable"),
        ("tensorflow.GradientTape", "tensorflow", "gradient_tape"),
        ("tensorflow.data.Dataset.from_tensor_slices", "tensorflow", "dataset"),
        ("tensorflow.data.Dataset.map", "tensorflow", "dataset"),
        ("tensorflow.data.TFRecordDataset", "tensorflow", "dataset"),
        ("keras.Input", "keras3", "keras_tensor"),
        ("keras.Input", "tf_keras", "keras_tensor"),
        ("keras.Variable", "keras3", "keras_variable"),
        ("keras.Layer.add_weight", "keras3", "keras_variable"),
        ("keras.layers.Layer.add_weight", "tf_keras", "variable"),
        ("keras.Model.fit", "keras3", "history"),
        ("keras.Model.fit", "tf_keras", "history"),
        ("keras.Model.save", "keras3", "none"),
        ("keras.layers.Dense", "keras3", "instance:keras.layers.Dense"),
        ("tensorflow.keras.layers.Dense", "tensorflow", "instance:keras.layers.Dense"),
    ],
)
def test_return_kinds(name: str, flavor: str, kind: str) -> None:
    assert apidata.returns(name, flavor) == kind


def test_uncertain_return_kinds_stay_absent() -> None:
    # keras.ops give a tf.Tensor or a KerasTensor depending on their input.
    assert apidata.returns("keras.ops.sum", "keras3") is None
    # predict returns a list for a multi-output model.
    assert apidata.method_returns("keras.Model", "predict", "keras3") is None
    assert apidata.method_returns("keras.Sequential", "fit", "keras3") == "history"
    assert apidata.returns("tensorflow.Session", "tensorflow") is None


def test_tf1_facts() -> None:
    session = apidata.tf1_removed("tensorflow.Session")
    assert session is not None and session.compat and "renames" in session.sources
    normal = apidata.tf1_removed("tensorflow.random_normal")
    assert normal is not None
    assert normal.replacement == "tensorflow.random.normal" and normal.same_object
    slim = apidata.tf1_removed("tensorflow.contrib.slim.arg_scope")
    assert slim is not None and slim.key == "tensorflow.contrib" and not slim.compat
    assert apidata.tf1_removed("tensorflow.constant") is None
    # tf-keras's loss function (TF 2): only Keras 3's tf.losses lacks it.
    assert apidata.tf1_removed("tensorflow.losses.mean_squared_error") is None
    assert apidata.tf1_removed("tensorflow.losses.softmax_cross_entropy") is not None
    assert apidata.tf1_reorders("tensorflow.argmax") is not None
    renames = apidata.tf1_keyword_renames("tensorflow.argmax")
    assert renames is not None and renames.get("dimension") == "axis"
    assert apidata.tf1_renames()["tensorflow.random_normal"] == "tensorflow.random.normal"


def test_keras3_facts() -> None:
    fit_generator = apidata.keras3_removed("keras.Model.fit_generator")
    assert fit_generator is not None and fit_generator.member
    mean = apidata.keras3_removed("keras.backend.mean")
    assert mean is not None and mean.replacement == "keras.ops.mean"
    norm = apidata.keras3_removed("keras.layers.experimental.preprocessing.Normalization")
    assert norm is not None and norm.replacement == "keras.layers.Normalization"
    assert apidata.keras3_removed("keras.layers.Dense") is None
    leaky = apidata.keras3_param_changes("keras.layers.LeakyReLU")
    assert leaky is not None and leaky.renamed == {"alpha": "negative_slope"}
    compile_ = apidata.keras3_param_changes("keras.Model.compile")
    # compile(optimizer, loss, metrics, ...) became compile(optimizer, loss, loss_weights, ...).
    assert compile_ is not None and compile_.moved["metrics"] == (2, 3)
    fit = apidata.keras3_param_changes("tf_keras.Model.fit")
    assert fit is not None and "workers" in fit.removed


def test_keras3_constructor_kwargs() -> None:
    # Read from **kwargs by name: accepted although no signature lists them.
    assert "input_shape" in apidata.keras3_constructor_kwargs("keras.layers.Dense")
    assert "implementation" in apidata.keras3_constructor_kwargs("keras.layers.LSTM")
    assert "alpha" in apidata.keras3_constructor_kwargs("tensorflow.keras.layers.LeakyReLU")
    assert "decay" in apidata.keras3_constructor_kwargs("keras.optimizers.Adam")
    # Keras 3 layers refuse what Keras 2's layer base swallowed.
    assert "batch_input_shape" not in apidata.keras3_constructor_kwargs("keras.layers.Dense")
    assert apidata.keras3_constructor_kwargs("keras.layers.no_such_layer") == ()
    assert apidata.keras3_constructor_kwargs("keras.ops.sum") == ()


def test_keras3_removed_members_and_homes() -> None:
    removed = apidata.keras3_removed_members()
    assert "keras.Model.fit_generator" in removed and "keras.layers.Layer.add_update" in removed
    assert list(removed) == sorted(removed)
    # The most specific public module first; () when the name is unknown or ambiguous.
    assert apidata.keras3_homes("InputSpec") == ("keras.layers", "keras")
    assert apidata.keras3_homes("to_categorical") == ("keras.utils",)
    assert apidata.keras3_homes("data_adapter") == ()


def test_versions_are_recorded() -> None:
    meta = apidata.versions()
    assert meta["tensorflow"].startswith("2.21")
    assert meta["keras"].startswith("3.")
    assert meta["tf_keras"].startswith("2.21")


def test_data_files_are_sorted_compact_json() -> None:
    files = sorted(DATA.glob("*.json"))
    assert files
    for path in files:
        text = path.read_text("utf-8")
        value = json.loads(text)
        expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert text == expected + "\n", path.name


def test_loading_never_imports_tensorflow() -> None:
    code = (
        "import sys\n"
        "from tflsp.analysis import apidata\n"
        "apidata.exists('tensorflow.constant', 'tensorflow')\n"
        "apidata.exists('keras.Model.fit', 'keras3')\n"
        "apidata.exists('keras.Model.fit', 'tf_keras')\n"
        "apidata.tf1_removed('tensorflow.Session')\n"
        "apidata.keras3_removed('keras.backend.mean')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('tensorflow', 'keras', 'tf_keras')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert done.stdout.strip() == "[]"


# -- freshness (with TensorFlow installed) -----------------------------------------------------


def _installed(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


@pytest.mark.tf
def test_data_matches_the_installed_versions() -> None:
    installed = {
        k: _installed(d)
        for k, d in (("tensorflow", "tensorflow"), ("keras", "keras"), ("tf_keras", "tf-keras"))
    }
    require(all(installed.values()), "TensorFlow, Keras and tf-keras are not all installed")
    meta = apidata.versions()
    assert {k: meta[k] for k in installed} == installed, (
        "the API data was generated from other versions: run scripts/generate_api_data.py"
    )


_SAMPLE = r"""
import json, os, sys, inspect, types
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
if sys.argv[1] == "tf_keras":
    os.environ["TF_USE_LEGACY_KERAS"] = "1"
    import tf_keras as keras
    modules = {"keras.layers": keras.layers, "keras.callbacks": keras.callbacks,
               "keras.backend": keras.backend}
else:
    import tensorflow as tf, keras
    modules = {"tensorflow.data": tf.data, "tensorflow.nn": tf.nn, "tensorflow.io": tf.io,
               "tensorflow.compat.v1.train": tf.compat.v1.train, "keras.layers": keras.layers,
               "keras.ops": keras.ops, "keras.callbacks": keras.callbacks}
out = {}
for prefix, module in modules.items():
    for attr in dir(module):
        if attr.startswith("_"):
            continue
        obj = getattr(module, attr)
        kind = ("module" if isinstance(obj, types.ModuleType) else "class" if inspect.isclass(obj)
                else "function" if callable(obj) else "other")
        out[f"{prefix}.{attr}"] = kind
print(json.dumps(out))
"""


@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.parametrize("flavor", ["tensorflow", "tf_keras"])
def test_regenerated_sample_agrees(flavor: str) -> None:
    """A few modules listed afresh from the installed libraries: same names, same kinds."""
    require(importlib.util.find_spec("tensorflow") is not None, "TensorFlow is not installed")
    if flavor == "tf_keras":
        require(importlib.util.find_spec("tf_keras") is not None, "tf-keras is not installed")
    env = {k: v for k, v in os.environ.items() if k != "TF_USE_LEGACY_KERAS"}
    done = subprocess.run(
        [sys.executable, "-c", _SAMPLE, flavor],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    sample: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])
    query = "tf_keras" if flavor == "tf_keras" else None
    assert len(sample) > 300
    wrong = {
        name: (kind, apidata.kind(name, query or _flavor_of(name)))
        for name, kind in sample.items()
        if apidata.kind(name, query or _flavor_of(name)) != kind
    }
    assert wrong == {}, "stale API data: run scripts/generate_api_data.py"


def _flavor_of(name: str) -> str:
    return "tensorflow" if name.startswith("tensorflow.") else "keras3"


# -- the hand-written tables, checked against the data ------------------------------------------


def _project_spellings(name: str) -> list[str]:
    """``name`` and the spellings the project's alias table maps to it (keras.layers.Layer...)."""
    out = [name]
    for alias, target in _KERAS_ALIASES.items():
        if name == target or name.startswith(target + "."):
            out.append(alias + name[len(target) :])
    return out


def _catalog_apis() -> list[tuple[str, str, str]]:
    out: list[tuple[str, str, str]] = []
    for path in sorted(PATTERNS.glob("*/pattern.toml")):
        meta = tomllib.loads(path.read_text("utf-8"))
        for name in meta.get("apis", []):
            out.append((meta["code"], name, ",".join(meta.get("keras", []))))
    return out


@pytest.mark.parametrize(("code", "name", "kerases"), _catalog_apis())
def test_catalog_apis_exist(code: str, name: str, kerases: str) -> None:
    head, _, rest = name.partition(".")
    if head == "builtins":
        assert hasattr(builtins, rest), f"{code}: {name}"
        return
    if head not in ("tensorflow", "keras"):
        return  # numpy, random, ...: not in the data
    # A pattern names the API it is about and the API of its fix; the fix may exist in one
    # Keras only (keras.ops.*), the pitfall in the other (tf.compat.v1.layers with tf-keras).
    flavors = {"keras3": "keras3", "keras2": "tf_keras"}
    found = [
        (keras, spelling)
        for keras in kerases.split(",")
        for spelling in _project_spellings(name)
        if apidata.exists(
            spelling,
            "tensorflow" if head == "tensorflow" and keras == "keras3" else flavors[keras],
        )
        # A Keras 3 removal pattern names what Keras 3 dropped: tf-keras has it.
        or (keras == "keras3" and apidata.exists(spelling, "tf_keras"))
    ]
    assert found, f"{code}: {name} exists with none of {kerases}"


def _tf_names(text: str) -> list[str]:
    """API names a replacement text spells (``tf.io.gfile.GFile``, ``keras.ops.sum``)."""
    out = []
    for match in re.finditer(r"`((?:tf|keras)\.[A-Za-z0-9_.]+)", text):
        name = match.group(1).rstrip(".")
        out.append("tensorflow" + name[2:] if name.startswith("tf.") else name)
    return out


def test_tf1_table_names_are_removed_and_replacements_exist() -> None:
    problems = []
    for key, entry in sorted(TABLE.items()):
        name = f"tensorflow.{key}"
        if 3 in entry.keras and apidata.exists(name, "tensorflow"):
            problems.append(f"{name} exists on TF 2.21 with Keras 3")
        if key.startswith(("losses.", "metrics.")) and apidata.exists("keras." + key, "tf_keras"):
            # tf.losses/tf.metrics are tf-keras's modules under TF_USE_LEGACY_KERAS=1: a name
            # tf-keras has is TensorFlow 2 (Keras 3 dropping it is TFL609's), not a TF1 name.
            problems.append(f"tf.{key} is tf-keras's keras.{key}, not TF1")
        compat = apidata.exists(f"tensorflow.compat.v1.{key}", "tensorflow")
        if entry.compat_fails_on_keras3:
            compat = apidata.exists(f"tensorflow.compat.v1.{key}", "tf_keras")
        if key != "examples" and compat != entry.compat:
            problems.append(
                f"tensorflow.compat.v1.{key}: exists={compat}, table compat={entry.compat}"
            )
        if entry.rename is not None:
            old = apidata.canonical(f"tensorflow.compat.v1.{key}", "tensorflow")
            new = apidata.canonical(f"tensorflow.{entry.rename}", "tensorflow")
            if old is None or old != new:
                problems.append(f"tf.compat.v1.{key} is not tf.{entry.rename} ({old} vs {new})")
        for replacement in _tf_names(entry.replacement):
            flavor = "tensorflow" if replacement.startswith("tensorflow.") else "keras3"
            if not apidata.exists(replacement, flavor):
                problems.append(f"{name}: replacement {replacement} does not exist")
    assert not problems, "\n".join(problems)


def test_tf1_table_agrees_with_the_upgrade_tables() -> None:
    """Where tf_upgrade_v2 names the TF2 object itself, the table's safe rename is that one."""
    problems = []
    for key, entry in sorted(TABLE.items()):
        info = apidata.tf1_removed(f"tensorflow.{key}")
        if info is None:
            continue  # not in the upgrade tables (and tf.compat.v1 lacks it too)
        renamed = apidata.canonical(f"tensorflow.{entry.rename}", "tensorflow")
        if entry.rename and info.same_object and info.replacement not in ("", renamed):
            problems.append(f"{key}: table {entry.rename}, data {info.replacement}")
    assert not problems, "\n".join(problems)


def test_keras_backend_tables() -> None:
    k2 = {
        n.rpartition(".")[2]
        for n in _module_names("keras.backend", "tf_keras")
        if apidata.kind(n, "tf_keras") != "module"
    }
    k3 = {n.rpartition(".")[2] for n in _module_names("keras.backend", "keras3")}
    shim = {n.rpartition(".")[2] for n in _module_names("tensorflow.keras.backend", "tensorflow")}
    assert k2 - k3 == kb.MISSING_IN_KERAS3
    assert k2 - shim == kb.MISSING_IN_TF_KERAS_SHIM
    for name in kb.IN_KERAS_OPS:
        assert apidata.exists(f"keras.ops.{name}", "keras3"), name
    for name, text in kb.OTHER_REPLACEMENTS.items():
        for api in _tf_names(text):
            flavor = "tensorflow" if api.startswith("tensorflow.") else "keras3"
            assert apidata.exists(api, flavor), f"keras.backend.{name}: {api}"
    # The data's own replacement, where it finds one, agrees with the table.
    for name in kb.MISSING_IN_KERAS3:
        found = apidata.keras3_removed(f"keras.backend.{name}")
        assert found is not None, name
        if found.replacement.startswith("keras.ops.") and name not in kb.OTHER_REPLACEMENTS:
            assert kb.replacement_for(name) == f"`{found.replacement}`", name


def _module_names(module: str, flavor: str) -> list[str]:
    """Every name directly below a module of the data (through module aliases)."""
    target = apidata.canonical(module, flavor)
    assert target is not None, module
    universe = apidata._UNIVERSE[flavor]
    names = apidata._names(universe, target + ".x")
    return [n for n in names if n.rpartition(".")[0] == target]


def test_tf_keras_module_aliases() -> None:
    """tf.losses, tf.metrics, ... are the very tf.keras modules (what TFL609 relies on)."""
    for module in KERAS_MODULE_ALIASES:
        plain = {n.rpartition(".")[2] for n in _module_names(f"tensorflow.{module}", "tensorflow")}
        keras = _module_names(f"tensorflow.keras.{module}", "tensorflow")
        assert plain and plain == {n.rpartition(".")[2] for n in keras}, module


def test_keras_ops_table() -> None:
    for tf_name, op in KERAS_OPS.items():
        assert apidata.exists(f"tensorflow.{tf_name}", "tensorflow"), tf_name
        assert apidata.exists(f"keras.ops.{op}", "keras3"), op


def test_deprecated_argument_table() -> None:
    for api, table in migration_args._BY_API.items():
        for keyword, entry in table.items():
            flavors = ["tf_keras"] if entry.keras3_only else ["tensorflow"]
            if api.startswith("keras.") and not entry.keras3_only:
                flavors = ["keras3", "tf_keras"]
            for flavor in flavors:
                sig = apidata.signature(api, flavor)
                assert sig is not None and keyword in sig.names(), f"{api}({keyword}=) {flavor}"
            if entry.new is not None:
                flavor = "keras3" if api.startswith("keras.") else "tensorflow"
                sig = apidata.signature(api, flavor)
                assert sig is not None and entry.new in sig.names(), f"{api}({entry.new}=)"
            if entry.keras3_only:
                sig = apidata.signature(api, "keras3")
                assert sig is not None and keyword not in sig.names(), f"{api}({keyword}=)"
    # include_optimizer= is not a parameter of Keras 3's save functions: **kwargs takes it.
    for api in migration_args._SAVE_FUNCTIONS:
        sig = apidata.signature(api, "keras3")
        assert sig is not None and "include_optimizer" not in sig.names() and sig.var_keyword
