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
        'from tensorflow.keras.callbacks import ModelCheckpoint as MC\n'
        'a = MC("cp.ckpt", save_weights_only=True)\n'
        'b = MC("w.h5", save_weights_only=True)\n'
        'c = MC("ok.weights.h5", save_weights_only=True)\n'
        'd = MC("ok.keras")\n'
        'e = MC("ok.h5")\n'
    )
    assert found(source, "TFL407") == [6, 7]
    assert '"cp.weights.h5"' in fixed(source.replace('b = MC("w.h5"', 'b = MC(w'), "TFL407")


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
