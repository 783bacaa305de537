"""The ``tracking`` probe: does a Layer/Model track every variable it creates, and train it?

Construct the class and call it once, eagerly and standalone, inside
``tf.variable_creator_scope``; every ``tf.Variable`` TensorFlow creates passes through the
scope (Keras 3's TF-backend variables wrap one in ``._value``).  Variables created there but
absent from ``layer.weights`` are untracked: never trained by ``fit``, never saved.  Then one
SGD step on a simple loss shows trainable weights that do not change.
"""

from __future__ import annotations

import traceback
from typing import Any

from tflsp.verify.agent.common import user_line
from tflsp.verify.agent.probes import ProbeContext, ProbeError
from tflsp.verify.agent.samples import (
    CANDIDATE_SHAPES,
    ConstructionError,
    constructor_arguments,
    float_tensors,
    sample,
    underlying,
    value_of,
    variable_label,
)
from tflsp.verify.agent.tfenv import keras_for, keras_for_class, layer_bases


def _describe(variable: Any, line: int | None) -> dict[str, Any]:
    return {
        "name": variable_label(variable),
        "shape": [int(n) if n is not None else None for n in variable.shape],
        "dtype": str(getattr(variable.dtype, "name", variable.dtype)),
        "trainable": bool(getattr(variable, "trainable", True)),
        "line": line,
    }


# Keras 2 models keep step counters as plain tf.Variables outside `weights`; they are Keras's
# bookkeeping, not the user's state.
_BOOKKEEPING = ("_train_counter", "_test_counter", "_predict_counter")


def _known_variables(layer: Any) -> list[Any]:
    """Everything Keras tracks: weights, plus non-weight state such as seed generators."""
    found = list(layer.weights)
    found.extend(getattr(layer, "variables", []) or [])
    for candidate in [layer, *getattr(layer, "submodules", [])]:
        for name in _BOOKKEEPING:
            variable = getattr(candidate, name, None)
            if variable is not None:
                found.append(variable)
    return found


def _build(
    context: ProbeContext, cls: type, shape: tuple[int, ...]
) -> tuple[Any, Any, list[tuple[Any, int | None]]]:
    import tensorflow as tf

    args, kwargs = constructor_arguments(cls, context.options)
    created: list[tuple[Any, int | None]] = []

    def creator(next_creator: Any, **kw: Any) -> Any:
        variable = next_creator(**kw)
        created.append((variable, user_line(traceback.extract_stack(), context.files)))
        return variable

    x = sample(shape, context.options.get("dtype", "float32"))
    # Same initial weights on every run, so a report does not change between two clicks.
    keras_for_class(cls).utils.set_random_seed(0)
    with tf.variable_creator_scope(creator):
        layer = cls(*args, **kwargs)
        layer(x)
    return layer, x, created


def run(context: ProbeContext) -> dict[str, Any]:
    import tensorflow as tf

    module = context.load_module()
    cls = context.target(module)
    if not (isinstance(cls, type) and issubclass(cls, layer_bases())):
        raise ProbeError(
            f"{context.target_name} is not a Keras Layer or Model class; tracking needs one"
        )
    class_line = context.line_of(cls)

    shapes = (
        [tuple(context.options["input_shape"])]
        if "input_shape" in context.options
        else list(CANDIDATE_SHAPES)
    )
    failures: list[str] = []
    layer = x = None
    created: list[tuple[Any, int | None]] = []
    for shape in shapes:
        context.progress(f"calling {context.target_name} on an input of shape {shape}")
        try:
            layer, x, created = _build(context, cls, shape)
            break
        except ConstructionError as exc:
            raise ProbeError(str(exc)) from exc
        except Exception as exc:
            failures.append(
                f"{shape}: {type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
            )
            if len(shapes) == 1:
                raise
    if layer is None:
        raise ProbeError(
            f"could not call {context.target_name} on any sample input ({'; '.join(failures)}); "
            "give the shape with '# tflsp: verify(input_shape=(...))'"
        )

    tracked_ids = {id(underlying(w)) for w in _known_variables(layer)}
    untracked = [_describe(v, line) for v, line in created if id(v) not in tracked_ids]
    for item in untracked:
        context.find(
            f"variable {item['name']} {tuple(item['shape'])} is created but not tracked: it is not in "
            f"{context.target_name}.weights, so fit() never trains it and save() drops it",
            item["line"] or class_line,
            "error",
            patterns=("TFL301", "TFL304", "TFL302"),
        )

    # A second call must not create anything: layers built in call() create new ones each time.
    extra: list[Any] = []

    def count_creator(next_creator: Any, **kw: Any) -> Any:
        variable = next_creator(**kw)
        extra.append(variable)
        return variable

    with tf.variable_creator_scope(count_creator):
        layer(x)
    again = len(extra)
    if again:
        context.find(
            f"a second call created {again} more variable(s): something creates layers or "
            "variables inside call() instead of __init__/build()",
            class_line,
            "error",
            patterns=("TFL303",),
        )

    context.progress("one optimizer step")
    trainable = list(layer.trainable_weights)
    values = [value_of(w) for w in trainable]
    with tf.GradientTape() as tape:
        outputs = layer(x)
        leaves = float_tensors(outputs)
        loss = (
            tf.add_n([tf.reduce_sum(tf.square(t)) + tf.reduce_sum(t) for t in leaves])
            if leaves
            else None
        )
    untrained: list[dict[str, Any]] = []
    if loss is None:
        context.find(
            "the output has no floating-point tensor; the training step was skipped",
            class_line,
            "info",
        )
    elif trainable:
        gradients = tape.gradient(loss, trainable)
        pairs = [(g, w) for g, w in zip(gradients, trainable, strict=True) if g is not None]
        if pairs:
            keras_for(layer).optimizers.SGD(learning_rate=0.1).apply_gradients(pairs)
        for weight, gradient, old in zip(trainable, gradients, values, strict=True):
            if gradient is not None and (value_of(weight) != old).any():
                continue
            entry = _describe(weight, None)
            if gradient is not None and not tf.reduce_any(tf.not_equal(gradient, 0)).numpy():
                # A zero gradient depends on the sample (dead ReLUs, saturation), not on how
                # the weight is wired; say so, but it is not a tracking problem.
                context.find(
                    f"trainable weight {entry['name']} got a zero gradient for the sample input",
                    class_line,
                    "info",
                )
                continue
            entry["reason"] = "no gradient" if gradient is None else "value unchanged"
            untrained.append(entry)
            context.find(
                f"trainable weight {entry['name']} did not change in a training step "
                f"({entry['reason']}): the loss does not depend on it",
                class_line,
                "warning",
            )

    failed = bool(untracked or again or untrained)
    return {
        "outcome": "fail" if failed else "pass",
        "observations": {
            "outcome": "fail" if failed else "pass",
            "created": len(created),
            "tracked": len(layer.weights),
            "untracked": len(untracked),
            "untrained": len(untrained),
            "created_on_second_call": again,
        },
        "details": {
            "input_shape": list(x.shape) if x is not None else None,
            "class_line": class_line,
            "weights": [_describe(w, None) for w in layer.weights],
            "untracked": untracked,
            "untrained": untrained,
            "shape_attempts": failures,
        },
    }
