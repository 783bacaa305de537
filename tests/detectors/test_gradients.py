"""Hard cases for the gradients family (TFL501-TFL506): hits, aliases, and code left alone."""

from __future__ import annotations

import textwrap

from tests.helpers import analyze, lint
from tflsp.analysis.fixes import apply_edits


def hits(source: str, code: str, target: str = "3") -> list[int]:
    return [line for line, c in lint(source, code, target) if c == code]


def fixed(source: str, code: str, target: str = "3") -> str:
    """The source after the first diagnostic's fix."""
    first = analyze(source, code, target).diagnostics[0]
    assert first.fix is not None
    return apply_edits(textwrap.dedent(source), first.fix.edits)


# -- TFL501 apply-gradients-order -------------------------------------------------------------

TRAIN_LOOP = """
    import tensorflow as tf
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    opt = tf.keras.optimizers.Adam()
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients({pairs})
"""


def test_reversed_trainable_variables_is_flagged_and_swapped() -> None:
    src = TRAIN_LOOP.format(pairs="zip(model.trainable_variables, grads)")
    assert hits(src, "TFL501") == [9]
    assert "zip(grads, model.trainable_variables)" in fixed(src, "TFL501")


def test_correct_order_is_not_flagged() -> None:
    assert hits(TRAIN_LOOP.format(pairs="zip(grads, model.trainable_variables)"), "TFL501") == []


def test_keyword_argument_and_unpacked_gradient_names() -> None:
    src = """
    import tensorflow as tf
    def train(model, w, b, opt, x):
        with tf.GradientTape() as tape:
            loss = w * x + b
        dw, db = tape.gradient(loss, [w, b])
        opt.apply_gradients(grads_and_vars=zip([w, b], [dw, db]))
    """
    assert hits(src, "TFL501") == [7]


def test_variables_held_in_a_name() -> None:
    src = """
    def train(model, tape, loss, opt):
        params = model.trainable_weights
        g = tape.gradient(loss, params)
        opt.apply_gradients(zip(params, g))
    """
    assert hits(src, "TFL501") == [5]


def test_unknown_names_are_left_alone() -> None:
    # Nothing says which side holds the variables: no guess.
    src = """
    def train(opt, a, b):
        opt.apply_gradients(zip(a, b))
    """
    assert hits(src, "TFL501") == []


def test_two_variable_lists_are_left_alone() -> None:
    src = """
    def sync(opt, model, other):
        opt.apply_gradients(zip(model.trainable_variables, other.trainable_variables))
    """
    assert hits(src, "TFL501") == []


# -- TFL502 tape-gradient-twice ---------------------------------------------------------------


def test_second_gradient_on_a_plain_tape() -> None:
    src = """
    import tensorflow as tf
    def f(x, w, b):
        with tf.GradientTape() as tape:
            y = w * x + b
        dw = tape.gradient(y, w)
        db = tape.gradient(y, b)
        return dw, db
    """
    assert hits(src, "TFL502") == [7]
    assert "tf.GradientTape(persistent=True)" in fixed(src, "TFL502")


def test_persistent_tape_and_separate_tapes_are_fine() -> None:
    src = """
    import tensorflow as tf
    def gan_step(gen, disc, x):
        with tf.GradientTape() as g_tape, tf.GradientTape() as d_tape:
            g_loss = gen(x)
            d_loss = disc(x)
        g_grads = g_tape.gradient(g_loss, gen.trainable_variables)
        d_grads = d_tape.gradient(d_loss, disc.trainable_variables)
        with tf.GradientTape(persistent=True) as tape:
            y = x * x
        a = tape.gradient(y, x)
        b = tape.gradient(y, x)
        return g_grads, d_grads, a, b
    """
    assert hits(src, "TFL502") == []


def test_branches_of_one_if_are_exclusive() -> None:
    src = """
    import tensorflow as tf
    def f(x, w, first):
        with tf.GradientTape() as tape:
            y = w * x
        if first:
            g = tape.gradient(y, w)
        else:
            g = tape.gradient(y * 2, w)
        return g
    """
    assert hits(src, "TFL502") == []


def test_early_return_then_second_call_is_fine() -> None:
    src = """
    import tensorflow as tf
    def f(x, w, fast):
        with tf.GradientTape() as tape:
            y = w * x
        if fast:
            return tape.gradient(y, w)
        return tape.gradient(2 * y, w)
    """
    assert hits(src, "TFL502") == []


def test_gradient_in_a_loop_outside_the_tape() -> None:
    src = """
    import tensorflow as tf
    def f(xs, w):
        with tf.GradientTape() as tape:
            y = w * w
        out = []
        for x in xs:
            out.append(tape.gradient(y, w))
        return out
    """
    assert hits(src, "TFL502") == [8]


def test_tape_opened_inside_the_loop_is_fine() -> None:
    src = """
    import tensorflow as tf
    def fit(model, opt, data):
        for x, y in data:
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((model(x) - y) ** 2)
            grads = tape.gradient(loss, model.trainable_variables)
            opt.apply_gradients(zip(grads, model.trainable_variables))
    """
    assert lint(src) == []


def test_reopened_tape_name_is_a_new_tape() -> None:
    src = """
    import tensorflow as tf
    def f(w):
        with tf.GradientTape() as tape:
            y = w * w
        a = tape.gradient(y, w)
        with tf.GradientTape() as tape:
            z = w * 3
        b = tape.gradient(z, w)
        return a, b
    """
    assert hits(src, "TFL502") == []


def test_tape_assigned_then_entered_and_jacobian() -> None:
    src = """
    import tensorflow as tf
    def f(w):
        tape = tf.GradientTape(watch_accessed_variables=True)
        with tape:
            y = w * w
        j = tape.jacobian(y, w)
        g = tape.gradient(y, w)
        return j, g
    """
    assert hits(src, "TFL502") == [8]
    assert "GradientTape(watch_accessed_variables=True, persistent=True)" in fixed(src, "TFL502")


def test_computed_persistent_flag_is_not_guessed() -> None:
    src = """
    import tensorflow as tf
    def f(w, keep):
        with tf.GradientTape(persistent=keep) as tape:
            y = w * w
        return tape.gradient(y, w), tape.gradient(y, w)
    """
    assert hits(src, "TFL502") == []


def test_alias_of_gradient_tape() -> None:
    src = """
    from tensorflow import GradientTape as GT
    def f(w):
        with GT() as t:
            y = w * w
        return t.gradient(y, w), t.gradient(2 * y, w)
    """
    assert hits(src, "TFL502") == [6]


# -- TFL503 unwatched-tensor-source -----------------------------------------------------------


def test_unwatched_constant_and_its_fix() -> None:
    src = """
    import tensorflow as tf
    def f():
        x = tf.constant(3.0)
        with tf.GradientTape() as tape:
            y = x * x
        return tape.gradient(y, x)
    """
    assert hits(src, "TFL503") == [7]
    assert "    with tf.GradientTape() as tape:\n        tape.watch(x)\n        y = x * x" in fixed(
        src, "TFL503"
    )


def test_constant_created_inside_the_block_gets_watch_after_it() -> None:
    src = """
    import tensorflow as tf
    def f():
        with tf.GradientTape() as tape:
            x = tf.random.normal([3])
            y = tf.reduce_sum(x * x)
        return tape.gradient(y, [x])
    """
    assert hits(src, "TFL503") == [7]
    assert "x = tf.random.normal([3])\n        tape.watch(x)\n" in fixed(src, "TFL503")


def test_watched_tensor_and_variables_are_fine() -> None:
    src = """
    import tensorflow as tf
    w = tf.Variable(1.0)
    def f():
        x = tf.constant(3.0)
        with tf.GradientTape() as tape:
            tape.watch([x])
            y = x * x * w
        return tape.gradient(y, [x, w])
    """
    assert hits(src, "TFL503") == []


def test_intermediate_tensor_is_a_valid_source() -> None:
    src = """
    import tensorflow as tf
    def f(w):
        with tf.GradientTape() as tape:
            h = tf.cast(w, tf.float32) * 2.0
            y = h * h
        return tape.gradient(y, h)
    """
    assert hits(src, "TFL503") == []


def test_function_parameter_is_unknown_and_left_alone() -> None:
    src = """
    import tensorflow as tf
    def f(x):
        with tf.GradientTape() as tape:
            y = x * x
        return tape.gradient(y, x)
    """
    assert hits(src, "TFL503") == []


def test_inline_constant_source() -> None:
    src = """
    import tensorflow as tf
    def f(w):
        with tf.GradientTape() as tape:
            y = w * w
        return tape.gradient(y, tf.constant(1.0))
    """
    assert hits(src, "TFL503") == [6]


def test_variable_not_watched_when_auto_watch_is_off() -> None:
    src = """
    import tensorflow as tf
    def f():
        v = tf.Variable(3.0)
        u = tf.Variable(1.0)
        with tf.GradientTape(watch_accessed_variables=False) as tape:
            tape.watch(u)
            y = v * v * u
        return tape.gradient(y, [v, u])
    """
    assert hits(src, "TFL503") == [9]
    diag = analyze(src, "TFL503").diagnostics[0]
    assert diag.message_id == "unwatched_variable"


def test_module_level_script_split_over_statements() -> None:
    src = """
    import tensorflow as tf
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = x * x
    dy_dx = tape.gradient(y, x)
    """
    assert hits(src, "TFL503") == [6]
    watched = src.replace("    y = x * x", "    tape.watch(x)\n        y = x * x")
    assert hits(watched, "TFL503") == []


# -- TFL504 tape-broken-by-numpy --------------------------------------------------------------


def test_numpy_on_the_loss_path() -> None:
    src = """
    import numpy as np
    import tensorflow as tf
    def f(model, x, y):
        with tf.GradientTape() as tape:
            pred = model(x)
            err = np.mean((pred - y) ** 2)
            loss = tf.convert_to_tensor(err)
        return tape.gradient(loss, model.trainable_variables)
    """
    assert hits(src, "TFL504") == [7]


def test_numpy_for_logging_is_not_on_the_path() -> None:
    src = """
    import numpy as np
    import tensorflow as tf
    def f(model, x, y, history):
        with tf.GradientTape() as tape:
            pred = model(x)
            loss = tf.reduce_mean((pred - y) ** 2)
            acc = np.mean(pred.numpy().argmax(-1) == y)
            history.append(loss.numpy())
            batch = int(x.shape[0])
            scale = np.float32(0.5)
            loss = loss * scale
        return tape.gradient(loss, model.trainable_variables), acc, batch
    """
    assert hits(src, "TFL504") == []


def test_float_and_numpy_function_break_the_path() -> None:
    src = """
    import numpy as np
    import tensorflow as tf
    def f(w):
        with tf.GradientTape() as tape:
            a = tf.numpy_function(np.square, [w], tf.float32)
            b = float(w * 2.0)
            loss = a + b
        return tape.gradient(loss, w)
    """
    assert hits(src, "TFL504") == [6, 7]


def test_numpy_in_a_tf_function_is_left_to_tfl102() -> None:
    src = """
    import tensorflow as tf
    @tf.function
    def f(w):
        with tf.GradientTape() as tape:
            loss = tf.constant(w.numpy()) * 2.0
        return tape.gradient(loss, w)
    """
    assert hits(src, "TFL504") == []
    assert (6, "TFL102") in lint(src)


# -- TFL505 loss-outside-tape -----------------------------------------------------------------


def test_loss_after_the_block() -> None:
    src = """
    import tensorflow as tf
    def step(model, loss_fn, x, y):
        with tf.GradientTape() as tape:
            pred = model(x)
        loss = loss_fn(y, pred)
        return tape.gradient(loss, model.trainable_variables)
    """
    assert hits(src, "TFL505") == [6]


def test_inline_expression_after_the_block() -> None:
    src = """
    import tensorflow as tf
    def step(w):
        with tf.GradientTape() as tape:
            y = w * w
        return tape.gradient(y + 1.0, w)
    """
    assert hits(src, "TFL505") == [6]


def test_loss_inside_and_renamed_after_is_fine() -> None:
    src = """
    import tensorflow as tf
    def step(model, loss_fn, x, y):
        with tf.GradientTape() as tape:
            pred = model(x)
            loss = loss_fn(y, pred)
        total = loss
        grads = tape.gradient(total, model.trainable_variables)
        inside = None
        with tf.GradientTape() as tape2:
            z = model(x)
            inside = tape2.gradient(tf.reduce_sum(z), model.trainable_variables)
        return grads, inside
    """
    assert hits(src, "TFL505") == []


def test_regularisation_added_after_the_block() -> None:
    src = """
    import tensorflow as tf
    def step(model, x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x))
        loss += sum(model.losses)
        return tape.gradient(loss, model.trainable_variables)
    """
    assert hits(src, "TFL505") == [6]


def test_persistent_tape_reentered() -> None:
    src = """
    import tensorflow as tf
    def step(w):
        with tf.GradientTape(persistent=True) as tape:
            y = w * w
        with tape:
            z = y * 3
        return tape.gradient(z, w)
    """
    assert hits(src, "TFL505") == []


# -- TFL506 gradient-wrt-model ----------------------------------------------------------------


def test_gradient_wrt_module_level_model() -> None:
    src = """
    import keras
    import tensorflow as tf
    net = keras.Sequential([keras.layers.Dense(1)])
    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(net(x))
        return tape.gradient(loss, net)
    """
    assert hits(src, "TFL506") == [8]
    assert "tape.gradient(loss, net.trainable_variables)" in fixed(src, "TFL506")


def test_gradient_wrt_self_in_train_step_and_local_class() -> None:
    src = """
    import tensorflow as tf
    class Net(tf.keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean((self(x) - y) ** 2)
            grads = tape.gradient(loss, self)
            return {"loss": loss}
    def run(x):
        model = Net()
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x))
        return tape.gradient(loss, sources=model)
    """
    assert hits(src, "TFL506") == [8, 14]


def test_gradient_wrt_variables_or_plain_objects_is_fine() -> None:
    src = """
    import tensorflow as tf
    class Holder:
        def grad(self, tape, loss):
            return tape.gradient(loss, self)
    def step(model, x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x))
        return tape.gradient(loss, model.trainable_variables)
    """
    assert hits(src, "TFL506") == []


def test_gradients_family_on_keras2_target() -> None:
    src = """
    import tensorflow as tf
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    def step(x):
        with tf.GradientTape() as tape:
            y = model(x)
        loss = tf.reduce_sum(y)
        return tape.gradient(loss, model)
    """
    assert sorted(lint(src, "TFL5", "2")) == [(7, "TFL505"), (8, "TFL506")]


# -- tapes across top-level statements (script and notebook style) ----------------------------


def test_top_level_loss_after_the_tape() -> None:
    src = """
    import tensorflow as tf
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        prediction = w * 2.0
    loss = (prediction - 1.0) ** 2
    grads = tape.gradient(loss, [w])
    """
    assert hits(src, "TFL505") == [6]


def test_top_level_loss_inside_the_tape_is_fine() -> None:
    src = """
    import tensorflow as tf
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        prediction = w * 2.0
        loss = (prediction - 1.0) ** 2
    report = loss * 100.0
    grads = tape.gradient(loss, [w])
    """
    assert hits(src, "TFL505") == []


def test_top_level_second_gradient() -> None:
    src = """
    import tensorflow as tf
    w = tf.Variable(3.0)
    b = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        y = w * 2.0 + b
    dw = tape.gradient(y, w)
    db = tape.gradient(y, b)
    """
    assert hits(src, "TFL502") == [8]
    persistent = src.replace("tf.GradientTape()", "tf.GradientTape(persistent=True)")
    assert hits(persistent, "TFL502") == []


def test_top_level_new_tape_resets_the_count() -> None:
    src = """
    import tensorflow as tf
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = w * 2.0
    first = tape.gradient(y, w)
    with tf.GradientTape() as tape:
        y = w * 3.0
    second = tape.gradient(y, w)
    """
    assert hits(src, "TFL502") == []
    assert hits(src, "TFL505") == []


def test_top_level_gradient_inside_the_block_then_again_outside() -> None:
    src = """
    import tensorflow as tf
    w = tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = w * 2.0
        inside = tape.gradient(y, w)
    again = tape.gradient(y, w)
    """
    assert hits(src, "TFL502") == [7]


def test_tfl501_names_alone_do_not_make_variables_or_gradients() -> None:
    # Receivers and arguments used to be guessed from their names (``vars``, ``grads``).
    source = """
        def apply(optimizer, vars, grads):
            optimizer.apply_gradients(zip(vars, grads))
    """
    assert hits(source, "TFL501") == []
    known = """
        import keras
        import tensorflow as tf
        model = keras.Sequential([keras.layers.Dense(1)])
        optimizer = keras.optimizers.SGD()
        def step(x):
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(model(x))
            weights = model.trainable_variables
            grads = tape.gradient(loss, weights)
            optimizer.apply_gradients(zip(weights, grads))
    """
    assert hits(known, "TFL501") == [11]
