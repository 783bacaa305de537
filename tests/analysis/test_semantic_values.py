"""The semantic model: what a name holds where it is used (bindings in order, values, aliases)."""

from __future__ import annotations

from tests.analysis.helpers import kinds, one_kind, revealed
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.model import qualname_of


def refs(source: str) -> list[str | None]:
    return [qualname_of(values) for values in revealed(source)]


# -- flow: which bindings reach a use ---------------------------------------------------------
def test_both_branches_of_an_if_reach_the_use() -> None:
    assert kinds("""
        import tensorflow as tf
        if flag:
            x = tf.constant(1)
        else:
            x = "text"
        reveal(x)
    """) == [{v.TENSOR, v.STR}]


def test_a_later_assignment_replaces_the_earlier_one() -> None:
    assert kinds("""
        import tensorflow as tf
        x = "text"
        x = tf.constant(1)
        reveal(x)
    """) == [{v.TENSOR}]


def test_loop_bodies_may_not_run() -> None:
    assert kinds("""
        import tensorflow as tf
        x = None
        for i in range(3):
            x = tf.constant(i)
        reveal(x)
    """) == [{v.NONE, v.TENSOR}]


def test_loop_carried_value_reaches_the_next_iteration() -> None:
    found = kinds("""
        import tensorflow as tf
        def f(n):
            x = "start"
            while n:
                reveal(x)
                x = tf.constant(1)
    """)
    assert found == [{v.STR, v.TENSOR}]


def test_break_leaves_with_the_state_at_the_break() -> None:
    assert kinds("""
        def f():
            while True:
                x = 1
                break
            reveal(x)
    """) == [{v.INT}]


def test_return_ends_a_path() -> None:
    assert kinds("""
        def f(flag):
            x = 1
            if flag:
                x = "s"
                return
            reveal(x)
    """) == [{v.INT}]


def test_handlers_see_every_state_of_the_try_body() -> None:
    assert kinds("""
        import tensorflow as tf
        def f():
            x = "s"
            try:
                x = tf.constant(1)
                risky()
            except ValueError:
                reveal(x)
    """) == [{v.STR, v.TENSOR}]


def test_try_except_joins_normal_and_handler_paths() -> None:
    assert kinds("""
        import tensorflow as tf
        try:
            x = tf.constant(1)
        except ImportError:
            x = None
        reveal(x)
    """) == [{v.TENSOR, v.NONE}]


def test_with_binds_what_the_context_manager_enters() -> None:
    assert kinds("""
        import tensorflow as tf
        with tf.GradientTape() as tape:
            pass
        reveal(tape)
    """) == [{v.TAPE}]


def test_match_cases_join() -> None:
    assert kinds("""
        def f(command):
            match command:
                case "a":
                    x = 1
                case _:
                    x = "s"
            reveal(x)
    """) == [{v.INT, v.STR}]


def test_global_writes_from_a_function_reach_other_functions() -> None:
    assert kinds("""
        x = 1
        def set_it():
            global x
            x = "s"
        def read():
            reveal(x)
    """) == [{v.INT, v.STR}]


def test_closures_read_every_binding_of_the_enclosing_function() -> None:
    assert kinds("""
        import tensorflow as tf
        def outer():
            x = 1
            def inner():
                reveal(x)
            x = tf.constant(2)
            return inner
    """) == [{v.INT, v.TENSOR}]


def test_comprehension_variables_do_not_leak() -> None:
    assert kinds("""
        x = "s"
        ys = [x for x in range(3)]
        reveal(x)
    """) == [{v.STR}]


def test_class_body_names_are_not_visible_in_methods() -> None:
    assert kinds("""
        import tensorflow as tf
        x = "module"
        class A:
            x = tf.constant(1)
            def f(self):
                reveal(x)
    """) == [{v.STR}]


def test_self_attributes_set_in_any_method() -> None:
    found = revealed("""
        import keras
        class M(keras.Model):
            def build(self, shape):
                self.head = keras.layers.Dense(2)
            def call(self, x):
                reveal(self.head)
    """)
    assert [one_kind(f) for f in found] == [v.INSTANCE]
    assert next(iter(found[0])).base == v.LAYER


def test_a_later_definition_is_a_different_function_from_that_point_on() -> None:
    found = revealed("""
        def step():
            return 1
        reveal(step)
        def step():
            return "s"
        reveal(step)
        reveal(step())
    """)
    assert [next(iter(f)).ref for f in found[:2]] == ["local:step", "local:step@2"]
    assert one_kind(found[2]) == v.STR


def test_names_read_before_a_later_cell_binds_them_use_that_binding() -> None:
    assert kinds("""
        import tensorflow as tf
        def f():
            return helper()
        reveal(f())
        def helper():
            return tf.constant(1)
    """) == [{v.TENSOR}]


def test_parameters_are_unknown() -> None:
    found = revealed("""
        def train(model):
            reveal(model)
    """)
    assert v.is_unknown(found[0])


# -- imports and aliases ---------------------------------------------------------------------
def test_every_import_form_and_alias() -> None:
    assert refs("""
        import tensorflow as tf
        import tensorflow.compat.v2 as tf2
        import tensorflow.compat.v1 as tf1
        import tensorflow.keras as keras2
        from tensorflow.keras import backend as K
        from tensorflow import keras as tk
        keras = tf.keras
        reveal(tf2.function)
        reveal(tf1.Session)
        reveal(keras2.layers.Dense)
        reveal(K.mean)
        reveal(tk.models.load_model)
        reveal(keras.models.load_model)
        reveal(print)
    """) == [
        "tensorflow.function",
        "tensorflow.compat.v1.Session",
        "keras.layers.Dense",
        "keras.backend.mean",
        "keras.saving.load_model",
        "keras.saving.load_model",
        "builtins.print",
    ]


def test_imports_inside_functions() -> None:
    assert refs("""
        def f():
            import numpy as np
            reveal(np.mean)
    """) == ["numpy.mean"]


def test_a_local_name_shadows_an_import() -> None:
    assert refs("""
        import tensorflow as tf
        def f(tf):
            reveal(tf.print)
    """) == [None]


# -- values ------------------------------------------------------------------------------------
def test_keras_objects_and_what_calls_return() -> None:
    found = revealed("""
        import keras
        import numpy as np
        import tensorflow as tf
        class Doubler(keras.layers.Layer):
            def call(self, x):
                return x * 2
        model = keras.Sequential([Doubler(), keras.layers.Dense(1)])
        inputs = keras.Input((2,))
        outputs = Doubler()(inputs)
        functional = keras.Model(inputs, outputs)
        reveal(model)
        reveal(functional)
        reveal(inputs)
        reveal(keras.utils.array_to_img(np.zeros((2, 2, 3))))
        reveal(keras.models.load_model("m.keras"))
        reveal(tf.saved_model.load("dir"))
        reveal(tf.data.Dataset.range(4).shuffle(4).batch(2))
        reveal(tf.Variable(1.0))
        reveal(np.zeros(3))
        reveal(model.fit(np.zeros(3)))
    """)
    assert [one_kind(f) for f in found] == [
        v.INSTANCE,
        v.INSTANCE,
        v.KERAS_TENSOR,
        v.FOREIGN,
        v.INSTANCE,
        v.FOREIGN,
        v.DATASET,
        v.VARIABLE,
        v.NDARRAY,
        v.HISTORY,
    ]
    sequential, functional = next(iter(found[0])), next(iter(found[1]))
    assert (sequential.base, sequential.contents) == (v.MODEL, frozenset({"Doubler"}))
    assert (functional.base, functional.contents) == (v.MODEL, frozenset({"Doubler"}))
    assert next(iter(found[3])).ref == "PIL.Image.Image"


def test_helpers_return_what_their_body_returns() -> None:
    assert kinds("""
        import tensorflow as tf
        def make_dataset(n):
            ds = tf.data.Dataset.range(n)
            return ds.batch(2)
        ds = make_dataset(4)
        reveal(ds)
    """) == [{v.DATASET}]


def test_tf_function_values_and_wrappers() -> None:
    found = revealed("""
        import tensorflow as tf
        def body(x):
            return x
        step = tf.function(body)
        fast = tf.function(jit_compile=True)(body)
        def compiled(fn):
            return tf.function(fn)
        @compiled
        def wrapped(x):
            return x
        reveal(step)
        reveal(fast)
        reveal(wrapped)
        reveal(body)
    """)
    assert [next(iter(f)).const for f in found] == [
        v.TF_FUNCTION,
        v.TF_FUNCTION,
        v.TF_FUNCTION,
        v.PLAIN,
    ]


# -- constants (strings and paths) -------------------------------------------------------------
def test_strings_and_paths_are_folded() -> None:
    found = revealed("""
        import os
        import pathlib
        BASE = "runs"
        NAME = "model"
        a = BASE + "/" + NAME + ".keras"
        b = f"{BASE}/{NAME}.keras"
        c = os.path.join(BASE, NAME + ".h5")
        d = pathlib.Path(BASE) / "weights.weights.h5"
        e = "{}/{}.keras".format(BASE, NAME)
        f = BASE
        f += "/ckpt"
        def g(run):
            return f"{run}/model.keras"
        reveal(a)
        reveal(b)
        reveal(c)
        reveal(str(d))
        reveal(e)
        reveal(f)
        reveal(g(1))
    """)
    texts = [next(iter(f)).const for f in found]
    assert texts == [
        "runs/model.keras",
        "runs/model.keras",
        "runs/model.h5",
        "runs/weights.weights.h5",
        "runs/model.keras",
        "runs/ckpt",
        None,
    ]
    assert next(iter(found[-1])).base == "/model.keras"  # the known end of the text


def test_a_string_rebound_in_a_loop_is_not_a_constant() -> None:
    found = revealed("""
        path = "a"
        for part in parts:
            path += part
        reveal(path)
    """)
    assert {x.const for x in found[0]} == {"a", None} or v.is_unknown(found[0])
