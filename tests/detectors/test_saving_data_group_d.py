"""Group D patterns (TFL206-TFL208, TFL407-TFL410): hard cases on the semantic model."""

from __future__ import annotations

import textwrap

from tests.helpers import analyze, lint
from tflsp.analysis.fixes import apply_edits

CODES = ("TFL206", "TFL207", "TFL208", "TFL407", "TFL408", "TFL409", "TFL410")


def found(source: str, code: str, target: str = "3") -> list[int]:
    return [line for line, c in lint(source, CODES, target) if c == code]


def fixed(source: str, code: str, target: str = "3") -> str:
    [diag] = [d for d in analyze(source, CODES, target).diagnostics if d.code == code]
    assert diag.fix is not None
    return apply_edits(textwrap.dedent(source), diag.fix.edits)


# -- TFL407 checkpoint-path-extension --------------------------------------------------------
CKPT = """
import tensorflow as tf
keras = tf.keras
NAME = "best"
"""


def test_checkpoint_alias_and_constant_path() -> None:
    source = CKPT + 'cb = keras.callbacks.ModelCheckpoint(NAME + ".hdf5")\n'
    assert found(source, "TFL407") == [5]
    assert 'NAME + ".keras"' in fixed(source, "TFL407")


def test_checkpoint_weights_only_needs_weights_h5() -> None:
    source = CKPT + (
        "from tensorflow.keras.callbacks import ModelCheckpoint as MC\n"
        'a = MC("cp.ckpt", save_weights_only=True)\n'
        'b = MC("w.h5", save_weights_only=True)\n'
        'c = MC("ok.weights.h5", save_weights_only=True)\n'
        'd = MC("ok.keras")\n'
        'e = MC("ok.h5")\n'
    )
    assert found(source, "TFL407") == [6, 7]
    assert '"cp.weights.h5"' in fixed(source.replace('b = MC("w.h5"', "b = MC(w"), "TFL407")


def test_checkpoint_silent_when_unknown_or_keras2() -> None:
    source = CKPT + (
        "import sys\n"
        "flag = len(sys.argv) > 1\n"
        'a = keras.callbacks.ModelCheckpoint("cp.ckpt", save_weights_only=flag)\n'
        "b = keras.callbacks.ModelCheckpoint(sys.argv[1])\n"
        "class ModelCheckpoint:\n"
        "    def __init__(self, path):\n"
        "        self.path = path\n"
        'c = ModelCheckpoint("x.hdf5")\n'
    )
    assert found(source, "TFL407") == []
    assert found(CKPT + 'keras.callbacks.ModelCheckpoint("b.hdf5")\n', "TFL407", "2") == []
    assert found(CKPT + 'keras.callbacks.ModelCheckpoint(f"{NAME}/e{{epoch}}.hdf5")\n', "TFL407")


# -- TFL206 cache-after-shuffle --------------------------------------------------------------
DATA = """
import tensorflow as tf
data = tf.data
"""


def test_cache_after_shuffle_through_reassignments_and_alias() -> None:
    source = DATA + (
        "ds = data.Dataset.range(8)\n"
        "ds = ds.shuffle(8)\n"
        "ds = ds.map(lambda x: x * 2).batch(2)\n"
        "ds = ds.cache()\n"
    )
    assert found(source, "TFL206") == [7]


def test_cache_after_shuffle_fix_swaps_the_calls() -> None:
    source = DATA + "ds = tf.data.Dataset.range(8).shuffle(8, seed=1).cache()\n"
    assert found(source, "TFL206") == [4]
    assert "range(8).cache().shuffle(8, seed=1)\n" in fixed(source, "TFL206")


def test_cache_after_shuffle_in_a_function() -> None:
    source = DATA + (
        "def pipeline(files):\n"
        "    ds = tf.data.TFRecordDataset(files)\n"
        "    ds = ds.shuffle(100)\n"
        "    return ds.cache().batch(4)\n"
    )
    assert found(source, "TFL206") == [7]


def test_cache_after_shuffle_silent_cases() -> None:
    source = DATA + (
        "a = tf.data.Dataset.range(8).cache().shuffle(8)\n"
        "b = tf.data.Dataset.range(8).shuffle(8, reshuffle_each_iteration=False).cache()\n"
        "c = tf.data.Dataset.range(8).shuffle(8).cache().shuffle(8)\n"
        "def f(ds):\n"
        "    return ds.cache()\n"
        "class Store:\n"
        "    def shuffle(self, n):\n"
        "        return self\n"
        "    def cache(self):\n"
        "        return self\n"
        "d = Store().shuffle(3).cache()\n"
    )
    assert found(source, "TFL206") == []


# -- TFL207 split-seed-mismatch --------------------------------------------------------------
SPLIT = """
import tensorflow as tf
from tensorflow.keras.utils import image_dataset_from_directory as load
DIR = "data/flowers"
SEED = 123
"""


def test_split_seeds_differ_across_module_statements() -> None:
    source = SPLIT + (
        'train = load(DIR, validation_split=0.2, subset="training", seed=SEED)\n'
        "val = tf.keras.utils.image_dataset_from_directory(\n"
        '    DIR, validation_split=0.2, subset="validation", seed=7)\n'
    )
    assert found(source, "TFL207") == [8]
    assert 'subset="validation", seed=123)' in fixed(source, "TFL207")


def test_split_shuffle_and_fraction_differ() -> None:
    source = SPLIT + (
        'a = load(DIR, validation_split=0.2, subset="training", seed=1)\n'
        'b = load(DIR, validation_split=0.2, subset="validation", seed=1, shuffle=False)\n'
        'c = load("other", validation_split=0.2, subset="training", seed=1)\n'
        'd = load("other", validation_split=0.3, subset="validation", seed=1)\n'
    )
    assert found(source, "TFL207") == [7, 9]


def test_split_missing_seed_raises_on_both_versions() -> None:
    source = SPLIT + 'a = load(DIR, validation_split=0.2, subset="training")\n'
    assert found(source, "TFL207") == [6]
    assert found(source, "TFL207", "2") == [6]


def test_split_silent_cases() -> None:
    source = SPLIT + (
        "import sys\n"
        "def make(subset, seed):\n"
        "    return load(DIR, validation_split=0.2, subset=subset, seed=seed)\n"
        'a = load(DIR, validation_split=0.2, subset="training", seed=int(sys.argv[1]))\n'
        'b = load(DIR, validation_split=0.2, subset="validation", seed=5)\n'
        'c = load(sys.argv[2], validation_split=0.2, subset="training", seed=1)\n'
        'd = load(sys.argv[3], validation_split=0.2, subset="validation", seed=2)\n'
        'e = load("x", validation_split=0.2, subset="training", seed=1, shuffle=False)\n'
        'f = load("x", validation_split=0.2, subset="validation", seed=2, shuffle=False)\n'
        'g, h = load("y", validation_split=0.2, subset="both", seed=1)\n'
        'i = load("z", validation_split=0.2, subset="training", seed=1)\n'
        'j = load("z", validation_split=0.2, subset="validation", seed=1)\n'
        "def fake(d, **kw):\n"
        "    return d\n"
        'k = fake("z", validation_split=0.2, subset="validation", seed=9)\n'
    )
    assert found(source, "TFL207") == []


# -- TFL410 load-weights-into-unbuilt-model --------------------------------------------------
NET = """
import tensorflow as tf
K = tf.keras
class Net(K.Model):
    def __init__(self):
        super().__init__()
        self.dense = K.layers.Dense(1)
    def call(self, x):
        return self.dense(x)
class Child(Net):
    pass
class Built(K.Model):
    def __init__(self):
        super().__init__()
        self.dense = K.layers.Dense(1)
        self.build((None, 3))
    def call(self, x):
        return self.dense(x)
"""


def test_unbuilt_subclass_across_statements_and_subclasses() -> None:
    source = NET + (
        "net = Net()\n"
        "net.compile(optimizer='adam', loss='mse')\n"
        "print(len(net.weights))\n"
        'net.load_weights("w.weights.h5")\n'
        "child = Child()\n"
        'child.load_weights("w.ckpt")\n'
    )
    assert found(source, "TFL410") == [22, 24]
    # tf-keras restores a TensorFlow checkpoint when the variables appear: .h5 only.
    assert found(source, "TFL410", "2") == [22]


def test_unbuilt_in_a_function() -> None:
    source = NET + (
        "def restore(path):\n    model = Net()\n    model.load_weights(path)\n    return model\n"
    )
    assert found(source, "TFL410") == [21]


def test_built_models_are_silent() -> None:
    source = NET + (
        "import numpy as np\n"
        "a = Net()\n"
        "a(np.ones((1, 3)))\n"
        'a.load_weights("w.weights.h5")\n'
        "b = Net()\n"
        "b.build((None, 3))\n"
        'b.load_weights("w.weights.h5")\n'
        "c = Built()\n"
        'c.load_weights("w.weights.h5")\n'
        "d = K.Sequential([K.Input((3,)), K.layers.Dense(1)])\n"
        'd.load_weights("w.weights.h5")\n'
        "def make():\n"
        "    return Net()\n"
        "e = make()\n"
        "warm_up(e)\n"
        'e.load_weights("w.weights.h5")\n'
        "import sys\n"
        "f = sys.modules['x'].Net()\n"
        'f.load_weights("w.weights.h5")\n'
    )
    assert found(source, "TFL410") == []


# -- TFL409 custom-loss-not-loadable ---------------------------------------------------------
LOSS = """
import tensorflow as tf
from tensorflow import keras as K
def my_loss(t, p):
    return tf.reduce_mean(tf.abs(t - p))
def iou(t, p):
    return tf.reduce_mean(t * p)
def focal(gamma):
    def focal_fixed(t, p):
        return tf.reduce_mean((1 - p) ** gamma * t)
    return focal_fixed
model = K.Sequential([K.Input((3,)), K.layers.Dense(1)])
"""


def test_custom_loss_saved_and_loaded_across_statements() -> None:
    source = LOSS + (
        'model.compile("adam", loss=my_loss, metrics=["mae", iou])\n'
        'model.save("m.keras")\n'
        'restored = tf.keras.models.load_model("m.keras")\n'
    )
    assert found(source, "TFL409") == [15]
    assert found(source, "TFL409", "2") == [15]
    assert '"m.keras", custom_objects={"my_loss": my_loss, "iou": iou})' in fixed(source, "TFL409")


def test_custom_loss_from_a_factory_and_a_checkpoint() -> None:
    source = LOSS + (
        "model.compile('adam', loss=focal(2.0))\n"
        "cb = K.callbacks.ModelCheckpoint('best.keras')\n"
        "model.fit([[1.0, 2.0, 3.0]], [[1.0]], callbacks=[cb])\n"
        "best = K.models.load_model('best.keras', custom_objects={'iou': iou})\n"
    )
    assert found(source, "TFL409") == [16]


def test_custom_loss_silent_cases() -> None:
    source = LOSS + (
        "import sys\n"
        'model.compile("adam", loss=my_loss)\n'
        'model.save("m.keras")\n'
        'a = K.models.load_model("m.keras", compile=False)\n'
        'b = K.models.load_model("m.keras", custom_objects={"my_loss": my_loss})\n'
        "with K.utils.custom_object_scope({'my_loss': my_loss}):\n"
        '    c = K.models.load_model("m.keras")\n'
        'd = K.models.load_model("pretrained/other.keras")\n'
        "e = K.models.load_model(sys.argv[1], custom_objects=sys.modules)\n"
    )
    assert found(source, "TFL409") == []
    registered = LOSS.replace(
        "def my_loss", "@K.saving.register_keras_serializable()\ndef my_loss"
    ) + (
        'model.compile("adam", loss=my_loss)\nmodel.save("m.keras")\nK.models.load_model("m.keras")\n'
    )
    assert found(registered, "TFL409") == []
    unsaved = LOSS + 'model.compile("adam", loss=my_loss)\nK.models.load_model("m.keras")\n'
    assert found(unsaved, "TFL409") == []


# -- TFL408 lambda-layer-saved ---------------------------------------------------------------
LAMBDA = """
import tensorflow as tf
L = tf.keras.layers
def scale(t):
    return t / 255.0
@tf.keras.utils.register_keras_serializable()
def shift(t):
    return t + 1.0
"""


def test_lambda_in_a_saved_model_on_both_versions() -> None:
    source = LAMBDA + (
        "model = tf.keras.Sequential([L.Input((3,)), L.Lambda(lambda t: t * 2), L.Lambda(scale)])\n"
        'model.save("m.h5")\n'
    )
    assert found(source, "TFL408") == [9, 9]
    # tf-keras stores .h5 Lambda functions as bytecode and reads them back.
    assert found(source, "TFL408", "2") == []
    assert found(source.replace("m.h5", "m.keras"), "TFL408", "2") == [9, 9]


def test_lambda_functional_model_saved_by_a_checkpoint() -> None:
    source = LAMBDA + (
        "inputs = L.Input((3,))\n"
        "x = L.Lambda(function=lambda t: t * 2)(inputs)\n"
        "model = tf.keras.Model(inputs, L.Dense(1)(x))\n"
        "cb = tf.keras.callbacks.ModelCheckpoint('best.keras')\n"
        "model.fit([[1.0, 2.0, 3.0]], [[1.0]], callbacks=[cb])\n"
    )
    assert found(source, "TFL408") == [10]


def test_lambda_only_the_model_bound_when_the_save_runs() -> None:
    source = LAMBDA + (
        "model = tf.keras.Sequential([L.Input((3,)), L.Lambda(lambda t: t * 2)])\n"
        "model.fit([[1.0, 2.0, 3.0]], [[1.0]])\n"
        "model = tf.keras.Sequential([L.Input((3,)), L.Lambda(lambda t: t * 3)])\n"
        "cb = tf.keras.callbacks.ModelCheckpoint('best.h5')\n"
        "model.fit([[1.0, 2.0, 3.0]], [[1.0]], callbacks=[cb])\n"
    )
    assert found(source, "TFL408") == [11]


def test_lambda_silent_cases() -> None:
    body = (
        "model = tf.keras.Sequential([L.Input((3,)), L.Lambda(shift), L.Lambda(tf.nn.relu)])\n"
        'model.save("m.keras")\n'
    )
    assert found(LAMBDA + body, "TFL408") == []
    unsaved = (
        LAMBDA
        + "m = tf.keras.Sequential([L.Lambda(lambda t: t)])\nm.save_weights('w.weights.h5')\n"
    )
    assert found(unsaved, "TFL408") == []
    inside = LAMBDA + (
        "class Net(tf.keras.Model):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.half = L.Lambda(lambda t: t / 2)\n"
        "    def call(self, x):\n"
        "        return self.half(x)\n"
        'Net().save("m.keras")\n'
    )
    assert found(inside, "TFL408") == []
    unsafe = LAMBDA + (
        "model = tf.keras.Sequential([L.Input((3,)), L.Lambda(lambda t: t * 2)])\n"
        'model.save("m.keras")\n'
        'tf.keras.models.load_model("m.keras", safe_mode=False)\n'
    )
    assert found(unsafe, "TFL408") == []


# -- TFL208 py-function-unknown-shape --------------------------------------------------------
PYFN = """
import numpy as np
import tensorflow as tf
def load(i):
    return np.zeros((4, 4, 1), "float32")
"""
TRAINS = (
    "model = tf.keras.Sequential([tf.keras.layers.Flatten(), tf.keras.layers.Dense(1)])\n"
    "model.fit(ds)\n"
)


def test_py_function_returned_to_a_keras_model() -> None:
    source = (
        PYFN
        + (
            "def parse(i):\n"
            "    image, other = tf.numpy_function(load, [i], [tf.float32, tf.float32])\n"
            "    return image, 1.0\n"
            "ds = tf.data.Dataset.range(4).map(parse).batch(2)\n"
            "ds2 = tf.data.Dataset.range(4).map(lambda i: (tf.py_function(load, [i], tf.float32), 1))\n"
        )
        + TRAINS
    )
    assert found(source, "TFL208") == [7, 10]
    # Only iterated, never given to Keras: fine.
    assert found(source.replace("model.fit(ds)", "print(list(ds))"), "TFL208") == []


def test_py_function_into_a_shape_op() -> None:
    source = PYFN + (
        "def parse(i):\n"
        "    image = tf.py_function(load, [i], tf.float32)\n"
        "    image = tf.image.resize(image, (8, 8))\n"
        "    return image\n"
        "ds = tf.data.Dataset.range(4).map(parse)\n"
    )
    assert found(source, "TFL208") == [8]


def test_py_function_shaped_or_not_mapped() -> None:
    source = (
        PYFN
        + (
            "def a(i):\n"
            "    image = tf.py_function(load, [i], tf.float32)\n"
            "    image.set_shape((4, 4, 1))\n"
            "    return image, 1\n"
            "def b(i):\n"
            "    image = tf.py_function(load, [i], tf.float32)\n"
            "    image = tf.ensure_shape(image, (4, 4, 1))\n"
            "    return tf.image.resize(image, (8, 8)), 1\n"
            "def c(i):\n"
            "    return tf.py_function(load, [i], tf.float32)\n"
            "ds = tf.data.Dataset.range(4).map(a).map(b)\n"
            "c(3)\n"
        )
        + TRAINS
    )
    assert found(source, "TFL208") == []


def test_custom_loss_bound_method_on_a_compiled_parameter() -> None:
    # keras-team/keras#5916: the model is a parameter; compile(optimizer=, loss=) says it is a
    # Keras model, and the save on the same name is a whole-model save.
    source = (
        "from keras.models import load_model\n"
        "class SSDLoss:\n"
        "    def compute_loss(self, t, p):\n"
        "        return (t - p) ** 2\n"
        "def train_and_save(model):\n"
        '    model.compile(optimizer="adam", loss=SSDLoss().compute_loss)\n'
        '    model.save("m.h5")\n'
        'model = load_model("m.h5")\n'
        'other = load_model("pretrained.h5")\n'
    )
    assert found(source, "TFL409") == [8]
    assert found(source, "TFL409", "2") == [8]


def test_py_function_reshaped_to_its_own_shape_in_a_mapped_tf_function() -> None:
    # tensorflow/tensorflow#35108: reshape(x, x.get_shape()) gives no shape; resize fails.
    source = PYFN + (
        "@tf.function\n"
        "def parse(i):\n"
        "    image = tf.py_function(load, [i], tf.float32)\n"
        "    image = tf.reshape(image, image.get_shape())\n"
        "    return tf.image.resize(image, (8, 8))\n"
        "ds = tf.data.Dataset.range(4).map(parse)\n"
    )
    assert found(source, "TFL208") == [10]


def test_py_function_dataset_given_to_fit_of_a_parameter() -> None:
    # tensorflow/tensorflow#49238: the model is a parameter; fit(dataset) is Keras' fit.
    source = PYFN + (
        "def make(files):\n"
        "    ds = tf.data.Dataset.from_tensor_slices(files)\n"
        "    return ds.map(lambda x: tf.py_function(load, [x], [tf.float32])).batch(2)\n"
        "def train(model, files):\n"
        "    return model.fit(make(files), epochs=1)\n"
    )
    assert found(source, "TFL208") == [8]


def test_unbuilt_sequential_without_an_input_shape() -> None:
    source = NET + (
        "a = K.Sequential([K.layers.Dense(4), K.layers.Dense(1)])\n"
        'a.load_weights("w.weights.h5")\n'
        "b = K.Sequential()\n"
        'b.load_weights("w.h5")\n'
        "c = K.Sequential([K.layers.Dense(4, input_shape=(3,))])\n"
        'c.load_weights("w.weights.h5")\n'
        "d = K.Sequential([K.Input((3,)), K.layers.Dense(1)])\n"
        'd.load_weights("w.weights.h5")\n'
        "e = K.Sequential()\n"
        "e.add(K.layers.Dense(1))\n"
        'e.load_weights("w.weights.h5")\n'
        "layers = [K.layers.Dense(1)]\n"
        "f = K.Sequential(layers)\n"
        'f.load_weights("w.weights.h5")\n'
        "def make():\n"
        "    return K.Sequential([K.layers.Dense(1, input_shape=(3,))])\n"
        "g = make()\n"
        'g.load_weights("w.weights.h5")\n'
    )
    assert found(source, "TFL410") == [20, 22]
    assert found(source, "TFL410", "2") == [20, 22]
