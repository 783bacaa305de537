"""Which code the analyzer believes runs as a graph, probed through TFL101 (print-in-graph)."""

from __future__ import annotations

import textwrap

from tests.helpers import analyze, lint


def printed(source: str, target: str = "3") -> list[int]:
    return [line for line, code in lint(source, "TFL101", target) if code == "TFL101"]


def test_plain_eager_function_is_not_graph() -> None:
    assert (
        printed("""
        import tensorflow as tf
        def f(x):
            print(x)
    """)
        == []
    )


def test_any_alias_of_tensorflow() -> None:
    assert printed("""
        import tensorflow as tensorf
        @tensorf.function
        def f(x):
            print(x)
    """) == [5]


def test_imported_function_alias() -> None:
    assert printed("""
        from tensorflow import function as tff
        @tff
        def f(x):
            print(x)
    """) == [5]


def test_decorator_with_arguments() -> None:
    assert printed("""
        import tensorflow as tf
        @tf.function(jit_compile=True, reduce_retracing=True)
        def f(x):
            print(x)
    """) == [5]


def test_assignment_wraps_function() -> None:
    assert printed("""
        import tensorflow as tf
        def g(x):
            print(x)
        f = tf.function(g)
    """) == [4]


def test_local_wrapper_decorator_returning_tf_function() -> None:
    assert printed("""
        import tensorflow as tf
        def compiled(fn):
            return tf.function(fn, jit_compile=True)

        @compiled
        def f(x):
            print(x)
    """) == [8]


def test_local_wrapper_decorator_returning_nested_tf_function() -> None:
    assert printed("""
        import tensorflow as tf
        def traced(fn):
            @tf.function
            def wrapper(*args):
                return fn(*args)
            return wrapper

        @traced
        def f(x):
            print(x)
    """) == [11]


def test_keras_methods_of_layer_and_model_subclasses() -> None:
    assert printed("""
        import keras
        class L(keras.layers.Layer):
            def call(self, x):
                print(x)
            def build(self, shape):
                print(shape)
        class M(keras.Model):
            def train_step(self, data):
                print(data)
    """) == [5, 10]


def test_inherited_call_through_local_subclass_in_any_order() -> None:
    assert printed("""
        from tensorflow.keras.layers import Dense
        class Child(Base):
            def call(self, x):
                print(x)
        class Base(Dense):
            pass
    """) == [5]


def test_non_keras_class_call_is_eager() -> None:
    assert (
        printed("""
        class Plain:
            def call(self, x):
                print(x)
    """)
        == []
    )


def test_callee_of_graph_function_transitively() -> None:
    assert printed("""
        import tensorflow as tf
        def leaf(x):
            print("leaf", x)
        def helper(x):
            return leaf(x)
        @tf.function
        def f(x):
            return helper(x)
    """) == [4]


def test_self_method_called_from_call() -> None:
    assert printed("""
        import keras
        class L(keras.Layer):
            def call(self, x):
                return self._project(x)
            def _project(self, x):
                print(x)
                return x
    """) == [7]


def test_lambda_and_named_function_in_dataset_map() -> None:
    assert printed("""
        import tensorflow as tf
        def parse(x):
            print(x)
            return x
        ds = tf.data.Dataset.range(3)
        ds = ds.map(parse).filter(lambda x: print(x) or True)
    """) == [4, 7]


def test_pandas_map_is_not_a_dataset() -> None:
    assert (
        printed("""
        import pandas as pd
        def clean(v):
            print(v)
            return v
        frame = pd.DataFrame({"a": [1]})
        frame["a"].map(clean)
    """)
        == []
    )


def test_py_function_body_stays_eager() -> None:
    assert (
        printed("""
        import tensorflow as tf
        ds = tf.data.Dataset.range(3).map(lambda x: tf.py_function(lambda v: print(v) or v, [x], tf.int64))
    """)
        == []
    )


def test_nested_function_given_to_py_function_stays_eager() -> None:
    assert printed("""
        import tensorflow as tf
        @tf.function
        def f(x):
            def body(v):
                print(v)
                return v.numpy()
            def traced(v):
                print(v)
                return v
            y = traced(x)
            return tf.py_function(body, [y], tf.float32)
    """) == [9]


def test_compile_loss_function() -> None:
    assert printed("""
        import keras
        def my_loss(y_true, y_pred):
            print(y_true)
            return y_pred
        model = keras.Sequential([keras.layers.Dense(1)])
        model.compile(loss=my_loss, metrics=[my_loss])
    """) == [4]


def test_function_local_import() -> None:
    assert printed("""
        def build():
            import tensorflow as tf
            @tf.function
            def f(x):
                print(x)
            return f
    """) == [6]


def test_tf_keras_import_targets_keras2() -> None:
    result = analyze(
        """
        import tf_keras as keras
        x = 1
    """,
        "TFL101",
        "auto",
    )
    assert result.summary is not None and result.summary.keras_version == 2
    result = analyze("import keras\n", "TFL101", "auto")
    assert result.summary is not None and result.summary.keras_version == 3


def test_syntax_error_in_one_block_keeps_the_others() -> None:
    source = """
        import tensorflow as tf

        @tf.function
        def f(x):
            print(x)

        def broken(:
            pass

        @tf.function
        def g(x):
            print(x)
    """
    assert lint(source, ("TFL101",)) == [(6, "TFL101"), (8, "TFL000"), (13, "TFL101")]


def test_half_typed_line_inside_function_keeps_rest_of_block() -> None:
    source = """
        import tensorflow as tf

        @tf.function
        def f(x):
            y = tf.
            print(x)
    """
    assert lint(source, ("TFL101",)) == [(6, "TFL000"), (7, "TFL101")]


def test_unclosed_bracket_mid_edit_is_contained() -> None:
    source = """
        import tensorflow as tf

        @tf.function
        def f(x):
            y = tf.reduce_sum(x,
            print(x)

        @tf.function
        def g(x):
            print(x)
    """
    found = lint(source, ("TFL101",))
    assert (6, "TFL000") in found and (11, "TFL101") in found


def test_multiline_string_spanning_column_zero_lines() -> None:
    source = '''
import tensorflow as tf

DOC = """
def not_code():
    print(1)
"""

@tf.function
def f(x):
    print(x)
'''
    assert lint(source, ("TFL101",)) == [(11, "TFL101")]


def test_suppression_comments() -> None:
    source = """
        import tensorflow as tf
        @tf.function
        def f(x):
            print(x)  # tflsp: ignore[TFL101]
            print(x)  # tflsp: ignore
            print(x)  # tflsp: ignore[TFL102]
    """
    assert printed(source) == [7]


def test_column_zero_lines_inside_strings_and_brackets_are_not_syntax_errors() -> None:
    # Module docstrings with prose in column 0, code samples in strings, decorator arguments
    # and data tables whose lines start in column 0: all valid Python, none may give TFL000.
    source = '''"""Module docstring.

Prose at column zero
spanning many lines,
one, two, three, four.
"""

import tensorflow as tf

DATA = [
1, 2,
3, 4,
5, 6,
7, 8,
]

SAMPLE = """
def f():
    pass
class A:
    pass
x = 1
"""
HEADER = """!
! comment
"""; FOOTER = """
! more
"""


@tf.function(
    jit_compile=False,
    experimental_attributes={"doc": """first
second
third
fourth
fifth"""},
)
def g(x):
    print(x)
'''
    assert lint(source, ("TFL101",)) == [(40, "TFL101")]


def test_unclosed_bracket_while_typing_does_not_swallow_the_next_statement() -> None:
    source = """
        import tensorflow as tf

        x = tf.reduce_sum(

        @tf.function
        def g(x):
            print(x)
    """
    found = lint(source, ("TFL101",))
    assert (4, "TFL000") in found and (8, "TFL101") in found


def test_named_function_mapped_over_a_dataset_made_in_another_block() -> None:
    assert printed("""
        import tensorflow as tf
        def load(path):
            print(path)
            return path
        files = tf.data.Dataset.from_tensor_slices(["a", "b"])
        parsed = files.map(load)
        rows = [1, 2]
        rows_out = rows.map(load) if hasattr(rows, "map") else rows
    """) == [4]


# -- eager escapes and definitions (issue 13, real-code-findings M3/M5) ------------------------
def test_body_of_a_py_function_decorated_function_runs_eagerly() -> None:
    # The guide decorates a helper with tf.py_function and calls it from a tf.function: the
    # helper's print runs on every call, the wrapper's only while tracing.
    assert printed("""
        import tensorflow as tf
        @tf.py_function(Tout=tf.float32)
        def add_in_python(a, b):
            print("runs every call")
            return a + b

        @tf.function
        def wrapper(a, b):
            print("tracing")
            return add_in_python(a, b)
    """) == [10]


def test_init_scope_lifts_code_out_of_the_graph() -> None:
    assert printed("""
        import tensorflow as tf
        class Counter(tf.Module):
            @tf.function
            def __call__(self):
                with tf.init_scope():
                    print("eager, once per trace")
                print("traced")
    """) == [8]


def test_compat_v2_import_keeps_tf_function() -> None:
    assert printed("""
        import tensorflow.compat.v2 as tf
        @tf.function
        def f(x):
            print(x)
    """) == [5]


def test_redefined_function_is_judged_per_definition() -> None:
    # A notebook first tries the step eagerly, then wraps a new definition in tf.function.
    assert printed("""
        import tensorflow as tf
        def step(x):
            print("eager", x)

        step(1)

        @tf.function
        def step(x):
            print("traced", x)
    """) == [10]


def test_keras_alias_assigned_from_tf_keras() -> None:
    assert printed("""
        import tensorflow as tf
        keras = tf.keras
        class L(keras.layers.Layer):
            def call(self, x):
                print(x)
    """) == [6]


def test_a_lambda_mapped_over_something_that_is_not_known_to_be_a_dataset() -> None:
    # ``files`` comes from a parameter: nothing says it is a tf.data dataset.
    assert (
        printed("""
        def pipeline(files):
            return files.map(lambda f: print(f))
    """)
        == []
    )


def test_autograph_options_that_convert_print() -> None:
    # A TF1-era guide asks AutoGraph to convert builtins: print() becomes tf.print().
    assert printed("""
        import tensorflow as tf
        @tf.function(
            experimental_autograph_options=tf.autograph.experimental.Feature.BUILTIN_FUNCTIONS)
        def count(n):
            print(n)
        @tf.function
        def plain(n):
            print(n)
    """) == [9]


def test_a_model_only_stepped_by_hand_runs_eagerly() -> None:
    # A migration guide calls train_step() itself, from Python, to compare logs with TF1.
    source = """
        import keras
        class Net(keras.Model):
            def call(self, x):
                print("call")
                return x
            def train_step(self, data):
                print("step")
                return {}
        net = Net()
        for batch in range(3):
            net.train_step(batch)
    """
    assert printed(source) == []
    fitted = textwrap.dedent(source) + "net.fit(x, y)\n"
    assert printed(fitted) == [5, 8]
