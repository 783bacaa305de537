"""The ``tracking`` probe: does a Layer/Model/tf.Module track every variable it creates, and train it?

Construct the class and call it once, eagerly, inside ``tf.variable_creator_scope``; every
``tf.Variable`` TensorFlow creates passes through the scope (Keras 3's variables wrap one).
Variables created there but absent from what the object tracks are untracked: never trained by
``fit``, never saved.  Each gets the one catalog code its cause matches, read from how it was
created: a raw ``tf.Variable`` on a Keras 3 layer (TFL301), ``tf.compat.v1.get_variable``
(TFL302), a layer created inside ``call()`` (TFL303), a layer kept on a plain Python object
(TFL304).  Keras's own state (the global seed generator of unseeded ``keras.random`` calls)
is not the user's.  Then one gradient step shows trainable weights that do not change.
"""

from __future__ import annotations

import sys
import traceback
from typing import Any

from tflsp.verify.agent.capture import OutputCapture
from tflsp.verify.agent.common import user_line
from tflsp.verify.agent.inputs import call, instantiate, plan_for
from tflsp.verify.agent.probes import ProbeContext, ProbeError, ProbeSkipped
from tflsp.verify.agent.samples import float_tensors, underlying, value_of, variable_label
from tflsp.verify.agent.tfenv import keras_for_class, layer_bases


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


def _known_variables(obj: Any) -> list[Any]:
    """Everything the object tracks: weights, plus non-weight state such as seed generators."""
    found = list(getattr(obj, "weights", []) or [])
    found.extend(getattr(obj, "variables", []) or [])
    for candidate in [obj, *getattr(obj, "submodules", [])]:
        for name in _BOOKKEEPING:
            variable = getattr(candidate, name, None)
            if variable is not None:
                found.append(variable)
    return found


_LIBRARIES = ("/keras/", "/tf_keras/")


class Creation:
    """How one variable came to be: the user's line, and what created it."""

    def __init__(self, variable: Any, files: dict[str, str]) -> None:
        self.variable = variable
        stack = traceback.extract_stack()
        self.line = user_line(stack, files)
        self.keras_internal = False
        self.via_get_variable = False
        self.via_keras = False  # Keras made it (add_weight, a seed generator), not tf.Variable()
        self.owner: Any = None  # the Keras layer it was made for
        frame = sys._getframe(2)
        reached_user = False
        while frame is not None:
            code = frame.f_code
            filename = code.co_filename.replace("\\", "/")
            if code.co_name in ("global_seed_generator", "make_default_seed"):
                self.keras_internal = True
            if code.co_name == "get_variable" and "variable_scope" in filename:
                self.via_get_variable = True
            if filename in files:
                reached_user = True
            elif not reached_user and any(lib in filename for lib in _LIBRARIES):
                self.via_keras = True
            if (
                self.via_keras
                and self.owner is None
                and code.co_name
                in (
                    "add_weight",
                    "add_variable",
                    "__init__",
                    "build",
                )
            ):
                # The layer whose weight or seed generator it is (a Dropout built inside
                # call() owns its seed generator's state).
                candidate = frame.f_locals.get("self")
                if candidate is not None and isinstance(candidate, layer_bases()):
                    self.owner = candidate
            frame = frame.f_back  # type: ignore[assignment]


def _tracked_layers(obj: Any) -> set[int]:
    layers = {id(obj)}
    for attribute in ("_flatten_layers", "submodules"):
        try:
            value = getattr(obj, attribute)
            items = value() if callable(value) else value
            layers |= {id(layer) for layer in items}
        except Exception:
            continue
    return layers


def _plain_holder_path(root: Any, owner: Any, depth: int = 3) -> str | None:
    """``root.holder.dense`` when ``owner`` is reachable from ``root`` only through a plain
    Python object (which Keras does not look into)."""
    seen = {id(root)}
    frontier: list[tuple[Any, str, bool]] = [(root, "self", False)]
    keras_bases = layer_bases()
    for _ in range(depth):
        following: list[tuple[Any, str, bool]] = []
        for obj, path, through_plain in frontier:
            try:
                attributes = dict(vars(obj))
            except TypeError:
                continue
            for name, value in attributes.items():
                if name.startswith("__") or id(value) in seen:
                    continue
                seen.add(id(value))
                values = (
                    value.values()
                    if isinstance(value, dict)
                    else (value if isinstance(value, (list, tuple)) else [value])
                )
                for item in values:
                    if item is owner:
                        return f"{path}.{name}" if through_plain else None
                    if isinstance(item, (int, float, str, bytes, type(None))):
                        continue
                    plain = not isinstance(item, keras_bases)
                    if hasattr(item, "__dict__"):
                        following.append((item, f"{path}.{name}", through_plain or plain))
        frontier = following
    return None


def _find_owner(root: Any, variable: Any, depth: int = 4) -> Any:
    """The Keras layer (reachable from ``root`` through any attributes) whose weights hold
    ``variable``: the owner of a variable Keras created late, outside its layer's frames."""
    seen = {id(root)}
    frontier = [root]
    keras_bases = layer_bases()
    target = id(variable)
    for _ in range(depth):
        following = []
        for obj in frontier:
            try:
                values = list(vars(obj).values())
            except TypeError:
                continue
            for value in values:
                items = (
                    value.values()
                    if isinstance(value, dict)
                    else (value if isinstance(value, (list, tuple)) else [value])
                )
                for item in items:
                    if id(item) in seen or isinstance(item, (int, float, str, bytes, type(None))):
                        continue
                    seen.add(id(item))
                    if isinstance(item, keras_bases):
                        try:
                            held = {id(underlying(w)) for w in item.weights}  # type: ignore[attr-defined]
                        except Exception:
                            held = set()
                        if target in held:
                            return item
                    if hasattr(item, "__dict__"):
                        following.append(item)
        frontier = following
    return None


def _cause(
    creation: Creation,
    target: Any,
    again: int,
    keras3: bool,
    is_module: bool,
    per_call_lines: set[int | None] = frozenset(),  # type: ignore[assignment]
) -> tuple[str, tuple[str, ...]]:
    """(explanation, the catalog code) for an untracked variable."""
    if creation.via_get_variable:
        return "it comes from tf.compat.v1.get_variable, which Keras does not track", ("TFL302",)
    owner = creation.owner
    if creation.via_keras and (owner is None or owner is target):
        owner = _find_owner(target, creation.variable) or owner
    if creation.via_keras and owner is not None and owner is not target:
        path = _plain_holder_path(target, owner)
        if path is not None:
            return (
                f"its layer {getattr(owner, 'name', type(owner).__name__)} is kept on {path}, "
                "an object Keras does not look into",
                ("TFL304",),
            )
        if again:
            return "its layer is created inside call(), anew on every call", ("TFL303",)
        return f"its layer {getattr(owner, 'name', type(owner).__name__)} is not tracked", (
            "TFL304",
        )
    if creation.via_keras and again:
        # Keras initialised it late (deferred), out of its layer's frames; new variables on
        # every call still say a layer is made inside call().
        return "a layer is created inside call(), anew on every call", ("TFL303",)
    if not creation.via_keras:
        if again and creation.line in per_call_lines:
            return "a tf.Variable is created on every call", ("TFL111",)
        if keras3 and not is_module:
            return "a raw tf.Variable, which Keras 3 layers do not track", ("TFL301",)
        return "it is kept where tracking does not look", ("TFL304",)
    return "", ()


def run(context: ProbeContext) -> dict[str, Any]:
    import tensorflow as tf

    cls = context.target()
    if not isinstance(cls, type):
        raise ProbeSkipped(
            f"{context.target_name} is a function: tracking checks the variables of a Layer, "
            "Model or tf.Module class"
        )
    plan = plan_for(context, cls)
    is_keras = issubclass(cls, layer_bases())
    is_module = not is_keras
    keras3 = is_keras and keras_for_class(cls).__name__ == "keras"
    class_line = context.line_of(cls)

    creations: list[Creation] = []

    def creator(next_creator: Any, **kw: Any) -> Any:
        variable = next_creator(**kw)
        creations.append(Creation(variable, context.files))
        return variable

    context.progress(f"building {context.target_name}")
    with tf.variable_creator_scope(creator):
        instance = instantiate(plan, cls, seed=0)
        x_call = plan.call
        if plan.kind != "no_call" and x_call is not None:
            context.progress(f"calling {context.target_name} on {x_call.describe('')}")
            call(instance, x_call)
    internal = _keras_seed_state()
    tracked_ids = {id(underlying(w)) for w in _known_variables(instance)}
    untracked_creations = [
        c
        for c in creations
        if id(c.variable) not in tracked_ids
        and not c.keras_internal
        and id(c.variable) not in internal
    ]

    # A second call must not create anything: layers built in call() create new ones each time.
    again = 0
    extra_creations: list[Creation] = []
    if plan.kind != "no_call" and plan.call is not None:

        def count_creator(next_creator: Any, **kw: Any) -> Any:
            variable = next_creator(**kw)
            extra_creations.append(Creation(variable, context.files))
            return variable

        with tf.variable_creator_scope(count_creator):
            call(instance, plan.call)
        internal |= _keras_seed_state()
        again = len(
            [c for c in extra_creations if not c.keras_internal and id(c.variable) not in internal]
        )

    untracked: list[dict[str, Any]] = []
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for creation in untracked_creations:
        item = _describe(creation.variable, creation.line)
        why, codes = _cause(
            creation, instance, again, keras3, is_module, {c.line for c in extra_creations}
        )
        item["cause"] = codes[0] if codes else None
        untracked.append(item)
        groups.setdefault((item["line"], why, codes), []).append(item)
    where = f"{context.target_name}.{'weights' if is_keras else 'variables'}"
    for (line, why, codes), items in groups.items():
        named = ", ".join(f"{i['name']} {tuple(i['shape'])}" for i in items[:3])
        if len(items) > 3:
            named += f" and {len(items) - 3} more"
        subject = (
            f"variable {named} is" if len(items) == 1 else f"{len(items)} variables ({named}) are"
        )
        context.find(
            f"{subject} created but not tracked"
            + (f" ({why})" if why else "")
            + f": not in {where}, so training never updates {'it' if len(items) == 1 else 'them'} "
            f"and saving drops {'it' if len(items) == 1 else 'them'}",
            line or class_line,
            "error",
            patterns=codes,
        )
    if again:
        line = next((c.line for c in extra_creations if c.line), None) or class_line
        via_keras = any(c.via_keras for c in extra_creations)
        context.find(
            f"a second call created {again} more variable(s): "
            + (
                "a layer is created inside call() instead of __init__/build()"
                if via_keras
                else "a variable is created on every call instead of once"
            ),
            line,
            "error",
            patterns=("TFL303",) if via_keras or is_keras else ("TFL111",),
        )

    untrained: list[dict[str, Any]] = []
    trainable = list(
        getattr(instance, "trainable_weights", None)
        or getattr(instance, "trainable_variables", None)
        or []
    )
    if plan.kind != "no_call" and plan.call is not None and trainable:
        context.progress("one gradient step")
        untrained = _train_step(context, instance, plan, trainable, class_line)
    elif plan.kind == "no_call":
        context.find(
            f"{context.target_name} has no call(): only the variables created while it is "
            "built were checked",
            class_line,
            "info",
        )

    failed = bool(untracked or again or untrained)
    return {
        "outcome": "fail" if failed else "pass",
        "observations": {
            "outcome": "fail" if failed else "pass",
            "created": len(creations),
            "tracked": len(
                getattr(instance, "weights", None) or getattr(instance, "variables", [])
            ),
            "untracked": len(untracked),
            "untrained": len(untrained),
            "created_on_second_call": again,
        },
        "details": {
            "input_shape": _first_shape(plan),
            "class_line": class_line,
            "weights": [
                _describe(w, None)
                for w in (getattr(instance, "weights", None) or getattr(instance, "variables", []))
            ],
            "untracked": untracked,
            "untrained": untrained,
        },
    }


def _first_shape(plan: Any) -> list[int] | None:
    if plan.call is None:
        return None
    tensors = plan.call.tensors()
    return list(tensors[0].shape) if tensors else None


def _keras_seed_state() -> set[int]:
    """ids of Keras 3's global seed generator state (made by unseeded keras.random calls)."""
    module = sys.modules.get("keras.src.backend.common.global_state")
    if module is None:
        return set()
    try:
        generator = module.get_global_attribute("global_seed_generator")
    except Exception:
        return set()
    state = getattr(generator, "state", None)
    return {id(underlying(state))} if state is not None else set()


def _train_step(
    context: ProbeContext, instance: Any, plan: Any, trainable: list[Any], class_line: int | None
) -> list[dict[str, Any]]:
    import tensorflow as tf

    values = [value_of(w) for w in trainable]
    extra: dict[str, Any] = {"training": True} if plan.training else {}
    with OutputCapture(), tf.GradientTape() as tape:
        outputs = call(instance, plan.call, **extra)
        leaves = float_tensors(outputs)
        loss = (
            tf.add_n([tf.reduce_sum(tf.square(t)) + tf.reduce_sum(t) for t in leaves])
            if leaves
            else None
        )
    if loss is None:
        context.find(
            "the output has no floating-point tensor; the training step was skipped",
            class_line,
            "info",
        )
        return []
    variables = [underlying(w) for w in trainable]
    gradients = tape.gradient(loss, variables)
    for gradient, variable in zip(gradients, variables, strict=True):
        if gradient is not None:
            variable.assign_sub(0.1 * tf.convert_to_tensor(gradient))
    untrained = []
    for weight, gradient, old in zip(trainable, gradients, values, strict=True):
        if gradient is not None and (value_of(weight) != old).any():
            continue
        entry = _describe(weight, None)
        if gradient is not None:
            # A zero gradient depends on the sample (dead ReLUs, saturation), not on how the
            # weight is wired; say so, but it is not a tracking problem.
            context.find(
                f"trainable weight {entry['name']} got a zero gradient for the sample input",
                class_line,
                "info",
            )
            continue
        entry["reason"] = "no gradient"
        untrained.append(entry)
        context.find(
            f"trainable weight {entry['name']} did not change in a training step (no gradient): "
            "the loss does not depend on it for this input",
            class_line,
            "warning",
        )
    return untrained


__all__ = ["ProbeError", "run"]
