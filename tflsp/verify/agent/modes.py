"""The ``modes`` probe: does the code behave the same eagerly and as a graph?

Each mode gets a fresh import of the user's module, so Python state changed by one mode
cannot leak into the other.  For every input set the probe records outputs, lines printed by
Python, changes to plain Python attributes (module globals for functions, instance attributes
for layers) and exceptions; in graph mode it also counts traces.  Differences between the
modes are the findings.
"""

from __future__ import annotations

import ast
import inspect
from typing import Any

from tflsp.verify.agent.capture import OutputCapture
from tflsp.verify.agent.common import describe_exception
from tflsp.verify.agent.modes_compare import CALLS, compare_modes
from tflsp.verify.agent.probes import ProbeContext, ProbeError
from tflsp.verify.agent.samples import (
    CANDIDATE_SHAPES,
    ConstructionError,
    constructor_arguments,
    flat_arrays,
    sample,
)
from tflsp.verify.agent.tfenv import keras_for, keras_for_class, layer_bases, model_bases


# -- Python-side state ---------------------------------------------------------------------------
def _plain(value: Any) -> Any:
    """A comparable stand-in for plain Python state; None for anything else."""
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    if isinstance(value, (list, tuple, dict, set)):
        return f"<{type(value).__name__} of {len(value)}>"
    return None


def _snapshot(namespace: dict[str, Any], *, public_only: bool) -> dict[str, Any]:
    out = {}
    for name, value in list(namespace.items()):
        if name.startswith("__") or (public_only and name.startswith("_")):
            continue
        if inspect.ismodule(value) or inspect.isclass(value) or callable(value):
            continue
        plain = _plain(value)
        if plain is not None or value is None:
            out[name] = plain
    return out


def _changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, list[Any]]:
    return {
        name: [before.get(name), after.get(name)]
        for name in sorted(set(before) | set(after))
        if before.get(name) != after.get(name)
    }


# Public attributes Keras itself changes while building or calling a layer.
_KERAS_ATTRIBUTES = {"built", "input_spec", "stateful", "supports_masking", "trainable"}


def _instance_state(obj: Any) -> dict[str, Any]:
    state = _snapshot(dict(vars(obj)), public_only=True)
    return {k: v for k, v in state.items() if k not in _KERAS_ATTRIBUTES}


# -- running one mode ------------------------------------------------------------------------
def _call(fn: Any, call: Any) -> Any:
    if isinstance(call, tuple):
        return fn(*call)
    return fn(call)


def _run_calls(fn: Any, calls: list[Any], state: Any) -> dict[str, Any]:
    """Call ``fn`` on each input; count printed lines, keep outputs and exceptions."""
    outputs: list[list[Any] | None] = []
    errors: list[dict[str, Any] | None] = []
    prints = 0
    before = state()
    for call in calls:
        with OutputCapture() as capture:
            try:
                result = _call(fn, call)
                outputs.append(flat_arrays(result))
                errors.append(None)
            except Exception as exc:
                outputs.append(None)
                errors.append(describe_exception(exc))
        prints += len(capture.stdout.splitlines())
    return {
        "outputs": outputs,
        "errors": errors,
        "prints": prints,
        "changes": _changes(before, state()),
    }


def _tracing_count(fn: Any) -> int | None:
    counter = getattr(fn, "experimental_get_tracing_count", None)
    return int(counter()) if counter is not None else None


# -- functions ---------------------------------------------------------------------------------
def _function_calls(fn: Any, options: dict[str, Any]) -> dict[str, list[Any]]:
    import tensorflow as tf

    if "inputs" in options:
        return {"given": [tuple(c) if isinstance(c, list) else c for c in options["inputs"]]}
    python_fn = getattr(fn, "python_function", fn)
    try:
        parameters = [
            p
            for p in inspect.signature(python_fn).parameters.values()
            if p.default is inspect.Parameter.empty
            and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
    except (TypeError, ValueError):
        parameters = []
    arity = len(parameters)

    def calls(values: list[Any]) -> list[Any]:
        return [tuple([v] * arity) for v in values]

    return {
        "same_shape": calls([tf.constant(float(i + 1)) for i in range(CALLS)]),
        "python_scalars": calls([float(i + 1) for i in range(CALLS)]),
        "shapes": calls([tf.range(1.0, float(i + 2)) for i in range(CALLS)]),
    }


def _print_lines(obj: Any) -> list[int]:
    """Lines of ``print(...)`` calls inside a function or class, for pointing at them."""
    try:
        lines, start = inspect.getsourcelines(obj)
        tree = ast.parse("".join(_dedent(lines)))
    except (OSError, TypeError, SyntaxError):
        return []
    return sorted(
        start + node.lineno - 1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "print"
    )


def _dedent(lines: list[str]) -> list[str]:
    indent = min((len(line) - len(line.lstrip()) for line in lines if line.strip()), default=0)
    return [line[indent:] if line.strip() else "\n" for line in lines]


def _function_modes(context: ProbeContext) -> dict[str, Any]:
    import tensorflow as tf

    results: dict[str, dict[str, Any]] = {}
    traces: dict[str, int | None] = {}
    line = None
    print_lines: list[int] = []
    for mode in ("eager", "graph"):
        module = context.load_module()
        target = context.target(module)
        if not callable(target) or isinstance(target, type):
            raise ProbeError(f"{context.target_name} is not a function")
        python_fn = getattr(target, "python_function", target)
        line = context.line_of(python_fn)
        print_lines = _print_lines(python_fn)
        fn = (
            python_fn
            if mode == "eager"
            else (target if hasattr(target, "python_function") else tf.function(target))
        )
        sets = _function_calls(target, context.options)
        results[mode] = {}
        for name, calls in sets.items():
            context.progress(f"{mode}: {name}")
            before = _tracing_count(fn) if mode == "graph" else None
            results[mode][name] = _run_calls(
                fn, calls, lambda m=module: _snapshot(dict(vars(m)), public_only=False)
            )
            if mode == "graph":
                after = _tracing_count(fn)
                traces[name] = None if before is None or after is None else after - before
    return compare_modes(context, results, traces, line, print_lines, subject="global")


# -- layers and models ---------------------------------------------------------------------------
def _layer_modes(context: ProbeContext, cls: type) -> dict[str, Any]:
    import tensorflow as tf

    shapes = (
        [tuple(context.options["input_shape"])]
        if "input_shape" in context.options
        else list(CANDIDATE_SHAPES)
    )
    dtype = context.options.get("dtype", "float32")
    results: dict[str, dict[str, Any]] = {"eager": {}, "graph": {}}
    traces: dict[str, int | None] = {}
    layers: dict[str, Any] = {}
    shape = None
    for mode in ("eager", "graph"):
        module = context.load_module()
        klass = context.target(module)
        try:
            args, kwargs = constructor_arguments(klass, context.options)
        except ConstructionError as exc:
            raise ProbeError(str(exc)) from exc
        keras_for_cls = keras_for_class(klass)
        if mode == "eager":
            # Find an input shape the layer accepts (eagerly, on a throwaway instance).
            for candidate in shapes:
                keras_for_cls.utils.set_random_seed(1234)
                probe_layer = klass(*args, **kwargs)
                try:
                    with OutputCapture():
                        probe_layer(sample(candidate, dtype))
                    shape = candidate
                    break
                except Exception:
                    continue
            if shape is None:
                shape = shapes[0]
        assert shape is not None
        calls = [sample(shape, dtype, seed=i) for i in range(CALLS)]
        shape_calls = [
            sample((n, *shape[1:]), dtype, seed=n)
            for n in (shape[0] + 1, shape[0] + 2, shape[0] + 3)
        ]
        keras_for_cls.utils.set_random_seed(1234)
        layer = klass(*args, **kwargs)
        layers[mode] = layer
        fn = layer if mode == "eager" else tf.function(lambda t, layer=layer: layer(t))
        for name, inputs in (("same_shape", calls), ("shapes", shape_calls)):
            context.progress(f"{mode}: {name}")
            before = _tracing_count(fn) if mode == "graph" else None
            created: list[Any] = []
            with tf.variable_creator_scope(_counting(created)):
                results[mode][name] = _run_calls(
                    fn, inputs, lambda layer=layer: _instance_state(layer)
                )
            if mode == "graph":
                after = _tracing_count(fn)
                count = None if before is None or after is None else after - before
                if created and count:
                    # Variables created while tracing make tf.function trace once more; that
                    # extra trace is how TF lifts them out, not a retrace caused by the inputs.
                    count = max(1, count - 1)
                traces[name] = count
        # Same weights in both modes, so outputs compare the computation, not the init.
        if mode == "graph" and len(layers["eager"].weights) == len(layer.weights):
            try:
                layer.set_weights(layers["eager"].get_weights())
                with OutputCapture():
                    results["graph"]["same_shape"]["outputs"] = [flat_arrays(fn(x)) for x in calls]
            except Exception:
                pass
        if issubclass(klass, model_bases()):
            context.progress(f"{mode}: fit")
            results[mode]["fit"] = _fit(klass, args, kwargs, shape, dtype, eager=mode == "eager")
    line = context.line_of(cls)
    return compare_modes(context, results, traces, line, _print_lines(cls), subject="attribute")


def _counting(created: list[Any]) -> Any:
    def creator(next_creator: Any, **kwargs: Any) -> Any:
        variable = next_creator(**kwargs)
        created.append(variable)
        return variable

    return creator


def _fit(
    klass: type,
    args: list[Any],
    kwargs: dict[str, Any],
    shape: tuple[int, ...],
    dtype: str,
    *,
    eager: bool,
) -> dict[str, Any]:
    """compile(run_eagerly=...) + fit for 5 batches; prints and attribute changes as in training."""
    x = sample((20, *shape[1:]), dtype, seed=5)
    model = klass(*args, **kwargs)
    with OutputCapture():
        try:
            y_like = model(x[:1])
        except Exception as exc:
            return {"outputs": [], "errors": [describe_exception(exc)], "prints": 0, "changes": {}}
    outputs = flat_arrays(y_like)
    y = sample((20, *outputs[0].shape[1:]), "float32", seed=6) if outputs else None
    model = klass(*args, **kwargs)
    keras_for(model).utils.set_random_seed(1234)
    before = _instance_state(model)
    error = None
    with OutputCapture() as capture:
        try:
            model.compile(optimizer="sgd", loss="mse", run_eagerly=eager)
            model.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
        except Exception as exc:
            error = describe_exception(exc)
    return {
        "outputs": [],
        "errors": [error],
        "prints": len(capture.stdout.splitlines()),
        "changes": _changes(before, _instance_state(model)),
    }


def run(context: ProbeContext) -> dict[str, Any]:
    module = context.load_module()
    target = context.target(module)
    if isinstance(target, type):
        if not issubclass(target, layer_bases()):
            raise ProbeError(f"{context.target_name} is a class but not a Keras Layer or Model")
        return _layer_modes(context, target)
    if callable(target):
        return _function_modes(context)
    raise ProbeError(f"{context.target_name} is neither a function nor a Layer/Model class")
