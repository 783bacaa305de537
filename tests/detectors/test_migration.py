"""Hard cases for the migration family (TFL601-TFL605), and the TF1 table checked against TF."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
import textwrap

import pytest

from tests.helpers import analyze, lint, require
from tflsp.analysis.detectors import keras_backend_names as kb
from tflsp.analysis.detectors.migration_keras import KERAS_OPS
from tflsp.analysis.detectors.tf1_names import TABLE
from tflsp.analysis.fixes import apply_edits


def hits(source: str, code: str, target: str = "3") -> list[int]:
    return [line for line, c in lint(source, code, target) if c == code]


def variants(source: str, code: str, target: str = "3") -> list[str]:
    return [d.message_id for d in analyze(source, code, target).diagnostics if d.code == code]


def fix_all(source: str, code: str, target: str = "3") -> str:
    text = textwrap.dedent(source)
    diagnostics = analyze(source, code, target).diagnostics
    edits = [e for d in diagnostics if d.fix is not None for e in d.fix.edits]
    return apply_edits(text, edits)


# -- TFL601 tf1-removed-api -------------------------------------------------------------------


def test_removed_names_through_any_alias() -> None:
    src = """
    import tensorflow as tensorf
    import tensorflow
    from tensorflow import train
    sess = tensorf.Session()
    x = tensorflow.placeholder(tensorflow.float32)
    opt = train.GradientDescentOptimizer(0.1)
    """
    assert hits(src, "TFL601") == [5, 6, 7]


def test_compat_v1_forms_are_not_flagged() -> None:
    src = """
    import tensorflow as tf
    import tensorflow.compat.v1 as v1
    sess = tf.compat.v1.Session()
    p = v1.placeholder(tf.float32)
    layer = tf.compat.v1.layers.dense
    """
    assert hits(src, "TFL601") == []


def test_current_apis_are_not_flagged() -> None:
    src = """
    import tensorflow as tf
    gpus = tf.config.experimental.list_physical_devices("GPU")
    tf.summary.scalar("loss", 1.0, step=0)
    ckpt = tf.train.Checkpoint()
    y = tf.nn.dropout(tf.ones([2]), rate=0.5)
    with tf.name_scope("block"):
        z = tf.random.normal([2])
    dense = tf.keras.layers.Dense(3)
    loss = tf.keras.losses.mean_squared_error
    ds = tf.data.Dataset.range(3)
    it = iter(ds)
    """
    assert hits(src, "TFL601") == []


def test_pure_renames_get_a_safe_fix() -> None:
    src = """
    import tensorflow as tf
    a = tf.random_normal([2])
    b = tf.log(a)
    with tf.gfile.GFile("x.txt") as f:
        pass
    c = tf.to_float(a)
    """
    assert hits(src, "TFL601") == [3, 4, 5, 7]
    out = fix_all(src, "TFL601")
    assert "tf.random.normal([2])" in out
    assert "tf.math.log(a)" in out
    assert "tf.io.gfile.GFile(" in out
    assert "tf.to_float(a)" in out  # a cast is not a rename: no fix
    assert hits(out, "TFL601") == [7]


def test_renames_through_a_from_import_are_not_fixed() -> None:
    src = """
    from tensorflow import gfile
    exists = gfile.Exists("x")
    handle = gfile.GFile("x")
    """
    result = analyze(src, "TFL601")
    assert [d.line for d in result.diagnostics] == [2]  # the import; its uses repeat it
    assert result.diagnostics[0].message_id == "import"


def test_contrib_imports_are_reported_once() -> None:
    src = """
    import tensorflow as tf
    import tensorflow.contrib.slim as slim
    from tensorflow.contrib import rnn
    net = slim.conv2d(None, 3, 3)
    cell = rnn.LSTMCell(4)
    value_and_grads = tf.contrib.eager.implicit_value_and_gradients(None)
    """
    assert hits(src, "TFL601") == [3, 4, 7]
    assert variants(src, "TFL601") == ["import_contrib", "import_contrib", "contrib"]


def test_from_tensorflow_import_a_removed_name() -> None:
    src = """
    from tensorflow import Session, constant
    from tensorflow.examples.tutorials.mnist import input_data
    """
    assert hits(src, "TFL601") == [2, 3]


def test_tf_layers_message_depends_on_keras_version() -> None:
    src = """
    import tensorflow as tf
    def model(x):
        return tf.layers.dense(x, 3)
    """
    assert variants(src, "TFL601", "3") == ["compat_fails_on_keras3"]
    assert variants(src, "TFL601", "2") == ["default"]


def test_tf_losses_is_keras_now() -> None:
    src = """
    import tensorflow as tf
    a = tf.losses.softmax_cross_entropy
    b = tf.losses.mean_squared_error
    c = tf.losses.Reduction.SUM
    """
    # tf.losses.mean_squared_error is tf-keras's loss (TF 2), not TF1: TFL609 under Keras 3.
    assert hits(src, "TFL601", "3") == [3]
    assert hits(src, "TFL601", "2") == [3]


def test_function_local_import_and_shadowing_parameter() -> None:
    src = """
    def build():
        import tensorflow as tf
        return tf.Session()

    def other(tf):
        return tf.Session()
    """
    assert hits(src, "TFL601") == [4]


def test_tf1_dataset_iterator_method() -> None:
    src = """
    import tensorflow as tf
    ds = tf.data.Dataset.range(4).batch(2)
    it = ds.make_one_shot_iterator()
    """
    assert hits(src, "TFL601") == [4]
    legacy = "import tensorflow.compat.v1 as tf\n" + textwrap.dedent(src).split("\n", 2)[2]
    assert hits(legacy, "TFL601") == []


def test_removed_module_reported_on_the_shortest_chain() -> None:
    src = """
    import tensorflow as tf
    tf.logging.set_verbosity(tf.logging.INFO)
    """
    result = analyze(src, "TFL601")
    assert [(d.line, d.column, d.end_column) for d in result.diagnostics] == [
        (3, 0, 10),
        (3, 25, 35),
    ]


# -- TFL602 deprecated-api --------------------------------------------------------------------


def test_device_methods_need_tensorflow_and_no_torch() -> None:
    tf_src = """
    import tensorflow as tf
    x = tf.ones([2]).gpu()
    y = x.cpu()
    """
    assert hits(tf_src, "TFL602") == [3, 4]
    torch_src = """
    import tensorflow as tf
    import torch
    y = torch.ones(2).cpu()
    """
    assert hits(torch_src, "TFL602") == []
    assert hits("x = thing.cpu()\n", "TFL602") == []


def test_optimizer_lr_on_keras3_only() -> None:
    src = """
    import tensorflow as tf
    opt = tf.keras.optimizers.Adam(learning_rate=0.1)
    print(opt.lr)
    class Schedule(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            self.model.optimizer.lr = 0.5
    settings_lr = args.lr
    """
    assert hits(src, "TFL602", "3") == [4, 7]
    assert variants(src, "TFL602", "3") == ["lr", "lr_store"]
    assert hits(src, "TFL602", "2") == []
    out = fix_all(src, "TFL602")
    assert "print(opt.learning_rate)" in out
    assert "self.model.optimizer.learning_rate = 0.5" in out
    assert "args.lr" in out


def test_lr_keyword_on_both_versions() -> None:
    src = """
    import keras
    a = keras.optimizers.SGD(lr=0.1, momentum=0.9)
    b = keras.optimizers.Adam(lr=0.1, learning_rate=0.2)
    c = keras.optimizers.Adam(learning_rate=0.1)
    """
    for target in ("3", "2"):
        assert hits(src, "TFL602", target) == [3, 4]
    out = fix_all(src, "TFL602")
    assert "SGD(learning_rate=0.1, momentum=0.9)" in out
    assert "Adam(lr=0.1, learning_rate=0.2)" in out  # both given: nothing to rename to


def test_relax_shapes_belongs_to_tfl606() -> None:
    # Deprecated arguments that still run moved to TFL606 (deprecated-argument), which
    # offers the same rename; TFL602 must not report the line a second time.
    src = """
    import tensorflow as tf
    def f(x):
        return x
    g = tf.function(f, experimental_relax_shapes=True)
    h = tf.function(f, reduce_retracing=True)
    """
    assert hits(src, "TFL602") == []
    assert hits(src, "TFL606") == [5]
    assert "tf.function(f, reduce_retracing=True)" in fix_all(src, "TFL606")


def test_keras_backend_depends_on_which_keras() -> None:
    standalone = """
    import keras
    from keras import backend as K
    a = keras.backend.mean
    b = K.int_shape
    c = K.clear_session
    """
    assert hits(standalone, "TFL602", "3") == [4, 5]
    assert hits(standalone, "TFL602", "2") == [4, 5]  # `import keras` is Keras 3 everywhere
    shim = """
    from tensorflow.keras import backend as K
    a = K.mean
    b = K.placeholder
    c = K.learning_phase()
    """
    assert hits(shim, "TFL602", "3") == [4, 5]
    assert hits(shim, "TFL602", "2") == []
    legacy = """
    import tf_keras
    a = tf_keras.backend.placeholder
    """
    assert hits(legacy, "TFL602", "3") == []


def test_assigning_a_missing_name_is_not_using_it() -> None:
    # Held-out keras-cv and tensorflow-model-optimization style shims: a package patches a
    # name that is missing back onto a module.  The store is not a read; a read (and `+=`,
    # which reads first) of a removed name is still one, and so is `del` (AttributeError).
    src = """
    import keras
    import tensorflow as tf
    keras.backend.mean = keras.ops.mean
    tf.Session = tf.compat.v1.Session
    x = keras.backend.mean
    y = tf.Session
    tf.to_float += 1
    keras.backend.placeholder += 1
    del tf.log
    """
    assert hits(src, "TFL602") == [6, 9]
    assert hits(src, "TFL601") == [7, 8, 10]


def test_list_physical_devices_is_not_deprecated() -> None:
    src = """
    import tensorflow as tf
    a = tf.config.experimental.list_physical_devices("GPU")
    b = tf.test.is_gpu_available()
    """
    assert hits(src, "TFL602") == [4]


# -- TFL603 keras-module-called ---------------------------------------------------------------


def test_module_calls_in_every_spelling() -> None:
    src = """
    import tensorflow as tf
    from tensorflow.keras import layers
    import keras
    a = layers(64)
    b = keras.optimizers("adam")
    c = tf.nn(a)
    d = layers.Dense(64)
    e = tf.function(len)
    """
    assert hits(src, "TFL603") == [5, 6, 7]
    out = fix_all(src, "TFL603")
    assert "a = layers.Dense(64)" in out
    assert 'keras.optimizers("adam")' in out  # no guess for other modules


def test_sequential_without_a_list() -> None:
    src = """
    import keras
    one = keras.Sequential(keras.layers.Dense(3))
    many = keras.Sequential(keras.layers.Dense(3), keras.layers.Dense(1))
    fine = keras.Sequential([keras.layers.Dense(3)])
    stack = [keras.layers.Dense(3)]
    also_fine = keras.Sequential(stack)
    named = keras.Sequential(name="empty")
    """
    assert hits(src, "TFL603", "3") == [3, 4]
    assert hits(src, "TFL603", "2") == [4]  # Keras 2 accepts one bare layer
    out = fix_all(src, "TFL603")
    assert "keras.Sequential([keras.layers.Dense(3)])" in out
    assert "keras.Sequential([keras.layers.Dense(3), keras.layers.Dense(1)])" in out


def test_sequential_with_a_local_layer_class() -> None:
    src = """
    import keras
    class Block(keras.layers.Layer):
        def call(self, x):
            return x
    model = keras.Sequential(Block())
    """
    assert hits(src, "TFL603") == [6]


# -- TFL604 mixed-keras -----------------------------------------------------------------------


def test_mixing_keras3_and_tf_keras_in_sequential_and_functional() -> None:
    src = """
    import keras
    import tf_keras
    a = keras.Sequential([tf_keras.layers.Dense(1)])
    inputs = tf_keras.Input((3,))
    outputs = keras.layers.Dense(1)(inputs)
    b = tf_keras.Model(inputs, outputs)
    b.compile(optimizer=keras.optimizers.Adam())
    """
    for target in ("3", "2"):
        assert hits(src, "TFL604", target) == [4, 6, 7, 8]


def test_subclass_of_one_keras_building_layers_of_the_other() -> None:
    src = """
    import keras
    import tf_keras
    class Net(tf_keras.Model):
        def __init__(self):
            super().__init__()
            self.head = keras.layers.Dense(1)
            self.body = tf_keras.layers.Dense(4)
    """
    assert hits(src, "TFL604", "2") == [7]


def test_tf_keras_follows_the_target() -> None:
    src = """
    import keras
    import tensorflow as tf
    model = tf.keras.Sequential([keras.layers.Dense(1)])
    """
    assert hits(src, "TFL604", "3") == []  # tf.keras is Keras 3: the same classes
    assert hits(src, "TFL604", "2") == [4]  # TF_USE_LEGACY_KERAS=1: two libraries


def test_top_level_functional_model_mixing_kerases() -> None:
    src = """
    import keras
    import tf_keras
    inp = tf_keras.Input((3,))
    dense = keras.layers.Dense(1)
    out = dense(inp)
    def build(inp):
        return keras.layers.Dense(1)(inp)
    """
    assert hits(src, "TFL604", "2") == [6]


def test_one_keras_only_is_never_flagged() -> None:
    k2 = """
    import tensorflow as tf
    import tf_keras
    model = tf.keras.Sequential([tf_keras.layers.Dense(1)])
    """
    assert hits(k2, "TFL604", "2") == []
    k3 = """
    import keras
    from tensorflow import keras as tfk
    model = keras.Sequential([tfk.layers.Dense(1), keras.layers.Dense(1)])
    model.compile(optimizer=tfk.optimizers.Adam())
    """
    assert hits(k3, "TFL604", "3") == []


# -- TFL605 tf-op-on-keras-input --------------------------------------------------------------


def test_tf_ops_on_symbolic_tensors_in_a_builder_function() -> None:
    src = """
    import keras
    import tensorflow as tf
    def build():
        inp = keras.Input((8,))
        x = keras.layers.Dense(4)(inp)
        y = tf.concat([x, inp], axis=-1)
        z = tf.nn.relu(x * 2.0)
        s = tf.shape(inp)
        return keras.Model(inp, [y, z])
    """
    assert hits(src, "TFL605") == [7, 8, 9]
    out = fix_all(src, "TFL605")
    assert "keras.ops.concatenate([x, inp], axis=-1)" in out
    assert "keras.ops.relu(x * 2.0)" in out
    assert "tf.shape(inp)" in out  # no keras.ops twin with the same arguments


def test_what_keras3_accepts_is_not_flagged() -> None:
    src = """
    import keras
    import tensorflow as tf
    class Norm(keras.layers.Layer):
        def call(self, inputs):
            return tf.math.l2_normalize(inputs, axis=-1)
    def build():
        inp = keras.Input((8,))
        x = inp * 2.0 + 1.0
        y = keras.ops.sum(x, axis=-1)
        z = keras.layers.Lambda(lambda t: tf.reduce_sum(t, axis=-1))(inp)
        flat = tf.nest.flatten([x, y])
        tf.print(inp)
        n = Norm()(inp)
        data = tf.reduce_sum(tf.ones([3]))
        return keras.Model(inp, [y, z, n])
    """
    assert hits(src, "TFL605") == []


def test_top_level_functional_model_over_several_statements() -> None:
    src = """
    import keras
    import tensorflow as tf
    inp = keras.Input((3,))
    x = keras.layers.Dense(4)(inp)
    model = keras.Model(inp, x)
    y = tf.nn.relu(x)
    ckpt = tf.train.Checkpoint(model=model)
    def later(x):
        return tf.nn.relu(x)
    """
    assert hits(src, "TFL605") == [7]


def test_symbolic_tensors_start_at_an_input_or_a_module_name_read_as_one() -> None:
    # A function that neither calls keras.Input (under any alias) nor reads the module's
    # symbolic ``inp`` (a parameter or a local of that name is another value) has none.
    src = """
    import keras
    import tensorflow as tf
    make_input = keras.Input
    inp = keras.Input((3,))
    def uses_parameter(inp):
        return tf.nn.relu(inp)
    def uses_global():
        return tf.nn.relu(inp)
    def shadows():
        inp = tf.ones((1, 3))
        return tf.nn.relu(inp)
    def through_alias():
        first = make_input((4,))
        return tf.nn.relu(first + 1.0)
    """
    assert hits(src, "TFL605") == [9, 15]


def test_names_rebound_by_a_training_loop_are_real_tensors() -> None:
    src = """
    import keras
    import tensorflow as tf
    inp = keras.Input((3,))
    x = keras.layers.Dense(4)(inp)
    model = keras.Model(inp, x)
    for x, y in [(tf.ones((1, 3)), tf.ones((1, 4)))]:
        loss = tf.reduce_mean(tf.square(model(x) - y)) + tf.reduce_sum(x)
    """
    assert hits(src, "TFL605") == []


def test_tf_op_on_input_only_matters_on_keras3() -> None:
    src = """
    import tensorflow as tf
    inp = tf.keras.Input((3,))
    out = tf.reduce_mean(inp, axis=-1, name="mean")
    """
    assert hits(src, "TFL605", "3") == [4]
    assert hits(src, "TFL605", "2") == []
    diag = analyze(src, "TFL605", "3").diagnostics[0]
    assert diag.fix is None  # name= has no keras.ops counterpart


# -- the data tables ----------------------------------------------------------------------------


def test_every_ops_replacement_names_a_tensorflow_function_once() -> None:
    assert all(not name.startswith("tensorflow.") for name in KERAS_OPS)
    assert set(kb.IN_KERAS_OPS) <= kb.MISSING_IN_KERAS3
    assert kb.MISSING_IN_TF_KERAS_SHIM <= kb.MISSING_IN_KERAS3


_TABLE_CHECK = r"""
import json, sys, os
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow as tf
version = int(sys.argv[1])
table = json.loads(sys.stdin.read())
problems = []

def get(root, path):
    obj = root
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj

for key, entry in table["tf1"].items():
    try:
        get(tf, key)
    except AttributeError:
        missing = True
    else:
        missing = False
    if missing != (version in entry["keras"]):
        problems.append(f"tf.{key}: missing={missing}, table says keras={entry['keras']}")
    if key in ("examples",):
        continue
    try:
        old = get(tf.compat.v1, key)
        has_compat = True
    except AttributeError:
        has_compat = False
    except Exception:
        has_compat = True  # exists but fails on access (tf.compat.v1.layers on Keras 3)
    if has_compat != entry["compat"]:
        problems.append(f"tf.compat.v1.{key}: exists={has_compat}, table says {entry['compat']}")
    if entry["rename"] and not (has_compat and old is get(tf, entry["rename"])):
        problems.append(f"tf.compat.v1.{key} is not tf.{entry['rename']}")
    if version == 3 and entry["compat_fails_on_keras3"]:
        try:
            get(tf.compat.v1, key + ".dense")
            problems.append(f"tf.compat.v1.{key} works on Keras 3")
        except AttributeError:
            pass

if version == 3:
    import keras
    names = lambda m: {n for n in dir(m) if not n.startswith("_")}
    k3, shim = names(keras.backend), names(tf.keras.backend)
    import tf_keras
    k2 = names(tf_keras.backend) - {"experimental"}
    if set(table["missing_k3"]) != k2 - k3:
        problems.append(f"keras.backend drift: {sorted(set(table['missing_k3']) ^ (k2 - k3))}")
    if set(table["missing_shim"]) != (k2 - shim) - {"experimental"}:
        problems.append(f"tf.keras.backend drift: {sorted(set(table['missing_shim']) ^ (k2 - shim))}")
    ops = names(keras.ops)
    for name in table["in_ops"]:
        if name not in ops:
            problems.append(f"keras.ops.{name} does not exist")
    for tf_name, op in table["keras_ops"].items():
        get(tf, tf_name)
        if op not in ops:
            problems.append(f"keras.ops.{op} does not exist")
print(json.dumps(problems))
"""


@pytest.mark.tf
@pytest.mark.slow
@pytest.mark.parametrize("keras_version", [3, 2])
def test_table_matches_tensorflow(keras_version: int) -> None:
    """Every fact in the TF1 and backend tables holds on the installed TensorFlow."""
    require(importlib.util.find_spec("tensorflow") is not None, "TensorFlow is not installed")
    if keras_version == 2:
        require(importlib.util.find_spec("tf_keras") is not None, "tf-keras is not installed")
    payload = {
        "tf1": {
            key: {
                "keras": sorted(entry.keras),
                "compat": entry.compat,
                "rename": entry.rename,
                "compat_fails_on_keras3": entry.compat_fails_on_keras3,
            }
            for key, entry in TABLE.items()
        },
        "missing_k3": sorted(kb.MISSING_IN_KERAS3),
        "missing_shim": sorted(kb.MISSING_IN_TF_KERAS_SHIM),
        "in_ops": sorted(kb.IN_KERAS_OPS),
        "keras_ops": KERAS_OPS,
    }
    env = dict(os.environ)
    env.pop("TF_USE_LEGACY_KERAS", None)
    if keras_version == 2:
        env["TF_USE_LEGACY_KERAS"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", _TABLE_CHECK, str(keras_version)],
        input=json.dumps(payload),
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_names_gone_even_from_compat_v1_under_every_spelling() -> None:
    # real-code-findings misses: TF1-mode code imports compat.v1 as ``tf``; the estimator is
    # gone from it on TF 2.21 all the same.
    src = """
    import tensorflow.compat.v1 as tf
    import tensorflow as tf2
    tf1 = tf2.compat.v1
    est = tf.estimator.DNNClassifier(hidden_units=[4])
    other = tf1.estimator.LinearClassifier()
    spelled = tf2.compat.v1.estimator.RunConfig()
    sess = tf.Session()
    """
    assert hits(src, "TFL601") == [5, 6, 7]


def test_keras_alias_from_tf_keras_reaches_optimizer_arguments() -> None:
    # real-code-findings M5: ``keras = tf.keras`` hid ``keras.optimizers.Adam(lr=...)``.
    src = """
    import tensorflow as tf
    keras = tf.keras
    optimizer = keras.optimizers.Adam(lr=1e-3)
    """
    assert hits(src, "TFL602") == [4]


def test_device_methods_on_values_that_are_not_known_tensorflow_tensors() -> None:
    # keras-hub calls .cpu() on what a torch-backend converter returns.
    src = """
    import keras
    import tensorflow as tf
    def preprocess(converter, images):
        images = converter(images)
        if keras.config.backend() == "torch":
            images = images.cpu()
        return tf.reshape(images, [-1])
    """
    assert hits(src, "TFL602") == []


def test_tf1_branches_that_cannot_run_on_tf2_are_silent() -> None:
    """Code that only runs on TF 1 (a class defined under ``hasattr(tf, "contrib")``, as in
    tf-agents' unroll test; a version test; the fallback side of ``try``) is a compatibility
    branch, not a use of a removed API; the TF 2 side of the same tests stays checked."""
    src = """
    import distutils.version
    import tensorflow as tf

    def make_cell():
        if hasattr(tf, "contrib"):
            class OldCell(tf.contrib.rnn.LayerRNNCell):
                pass
            return OldCell()
        return tf.keras.layers.LSTMCell(2)

    if tf.__version__.startswith("1."):
        session = tf.Session()
    elif int(tf.__version__.split(".")[0]) < 2:
        session = tf.InteractiveSession()
    else:
        session = None
    if distutils.version.LooseVersion(tf.__version__) < distutils.version.LooseVersion("2.0"):
        tf.enable_eager_execution()
    def layers():
        has_contrib = hasattr(tf, "contrib")
        return tf.contrib.layers if has_contrib else tf.keras.layers
    try:
        from tensorflow.contrib import slim
    except ImportError:
        slim = None

    def legacy_only():
        if tf.__version__ >= "2":
            return None
        return tf.placeholder(tf.float32)

    if not hasattr(tf, "contrib"):
        optimizer = tf.keras.optimizers.Adam()
    else:
        optimizer = tf.train.AdamOptimizer()
    if tf.__version__ >= "2" or tf.executing_eagerly():
        x = 1
    else:
        x = tf.placeholder(tf.float32)
    if tf.executing_eagerly():
        y = tf.placeholder(tf.float32)
    if hasattr(tf, "compat"):
        z = tf.random_normal([2])
    try:
        w = tf.Session()
    except Exception:
        w = None
    """
    assert hits(src, "TFL601") == [42, 44, 46]
