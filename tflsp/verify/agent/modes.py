"""The ``modes`` probe: does the code behave the same eagerly and as a graph?

Like is compared with like.  Every run starts from the same state: a fresh instance of a class
whose variables get the *same initial values* in every run (recorded on the first instance,
replayed through ``tf.variable_creator_scope``, so even unseeded initializers and seed
generators agree), the same seeds, and the module's globals - with any models, optimizers or
metrics they hold - put back as the import left them.  For every input set the probe records
outputs, lines printed by Python, changes to plain Python attributes (module globals for
functions, instance attributes for classes) and exceptions; as a graph it also counts traces.

A second eager run with another seed tells code that is random by design (dropout in
training, ``tf.random`` sampling) from a real eager/graph difference: random outputs are not
compared, and the report says so as information.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import inspect
import re
from collections.abc import Callable, Iterator
from typing import Any

from tflsp.verify.agent.capture import OutputCapture
from tflsp.verify.agent.common import describe_exception
from tflsp.verify.agent.inputs import call, instantiate, plan_for
from tflsp.verify.agent.modes_compare import CALLS, compare_modes
from tflsp.verify.agent.probes import ProbeContext, ProbeError, ProbeSkipped
from tflsp.verify.agent.samples import flat_arrays, max_difference
from tflsp.verify.agent.specs import BATCH, Arguments, TensorSpec, Value
from tflsp.verify.agent.tfenv import keras_for_class, layer_bases, model_bases

SEED = 1234


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
    try:
        state = _snapshot(dict(vars(obj)), public_only=True)
    except TypeError:
        return {}
    return {k: v for k, v in state.items() if k not in _KERAS_ATTRIBUTES}


# -- the same initial values in every run ----------------------------------------------------------
class InitialValues:
    """Record the initial value of each variable the first instance creates; give the same
    values, in the same order, to the variables of every later instance."""

    def __init__(self) -> None:
        self.values: list[Any] = []
        self.recording = True
        self.index = 0
        self.created: list[tuple[Any, Any]] = []  # (variable, initial value) for restores

    def start(self, recording: bool) -> None:
        self.recording = recording
        self.index = 0

    def creator(self, next_creator: Any, **kwargs: Any) -> Any:
        if not self.recording and self.index < len(self.values):
            value = self.values[self.index]
            shape = kwargs.get("shape")
            if value is not None and (shape is None or _same_shape(shape, value.shape)):
                kwargs["initial_value"] = value
        variable = next_creator(**kwargs)
        self.index += 1
        initial = None
        try:
            import numpy as np

            initial = np.array(variable.numpy(), copy=True)
        except Exception:
            initial = None
        if self.recording:
            self.values.append(initial)
        if initial is not None:
            self.created.append((variable, initial))
        return variable


def _same_shape(shape: Any, other: tuple[int, ...]) -> bool:
    try:
        return tuple(int(n) for n in shape) == tuple(other)
    except (TypeError, ValueError):
        return True


# -- running one mode ------------------------------------------------------------------------------
def _run_calls(
    fn: Callable[..., Any],
    calls: list[tuple[Arguments, int, int | None, dict[str, Any]]],
    state: Any,
    memo: dict[int, Any],
) -> dict[str, Any]:
    """Call ``fn`` on each input; count printed lines, keep outputs and exceptions.  ``memo``
    holds the layers passed as arguments, made once (their variables are put back between
    runs like every other variable)."""
    outputs: list[list[Any] | None] = []
    errors: list[dict[str, Any] | None] = []
    before = state()
    with _counting_prints() as printed, OutputCapture():
        for arguments, seed, batch, extra in calls:
            try:
                result = call(fn, arguments, seed=seed, batch=batch, memo=memo, **extra)
                outputs.append(flat_arrays(result))
                errors.append(None)
            except Exception as exc:
                outputs.append(None)
                errors.append(describe_exception(exc))
    prints = printed[0]
    return {
        "outputs": outputs,
        "errors": errors,
        "prints": prints,
        "changes": _changes(before, state()),
    }


@contextlib.contextmanager
def _counting_prints() -> Iterator[list[int]]:
    """Count calls of Python's print (a tensor prints on several lines eagerly, one as a graph:
    lines would not compare the same thing)."""
    count = [0]
    original = builtins.print

    def counting(*args: Any, **kwargs: Any) -> None:
        count[0] += 1
        original(*args, **kwargs)

    builtins.print = counting
    try:
        yield count
    finally:
        builtins.print = original


def _tracing_count(fn: Any) -> int | None:
    counter = getattr(fn, "experimental_get_tracing_count", None)
    return int(counter()) if counter is not None else None


def _input_sets(
    plan: Any, function: bool
) -> dict[str, list[tuple[Arguments, int, int | None, dict[str, Any]]]]:
    arguments: Arguments = plan.call
    sets: dict[str, list[tuple[Arguments, int, int | None, dict[str, Any]]]] = {
        "same_shape": [(arguments, i, None, {}) for i in range(CALLS)]
    }
    if arguments.batched and arguments.origin != "given":
        tensors = [t for t in arguments.tensors() if t.batched and t.shape]
        base = tensors[0].shape[0] if tensors else BATCH
        sets["shapes"] = [(arguments, 10 + n, base + n, {}) for n in (1, 2, 3)]
    if function:
        scalars = [
            i
            for i, spec in enumerate(arguments.args)
            if isinstance(spec, TensorSpec) and spec.shape == () and not spec.batched
        ]
        if scalars:
            python_calls: list[tuple[Arguments, int, int | None, dict[str, Any]]] = []
            for n in range(CALLS):
                args = tuple(
                    Value(int(n + 3) if "int" in spec.dtype else float(n + 3))
                    if i in scalars
                    else spec
                    for i, spec in enumerate(arguments.args)
                )
                python_calls.append(
                    (Arguments(args, arguments.kwargs, arguments.origin), n, None, {})
                )
            sets["python_scalars"] = python_calls
    if plan.training:
        sets["training"] = [(arguments, i, None, {"training": True}) for i in range(CALLS)]
    return sets


def _reset(context: ProbeContext, keras: Any, seed: int, initial: InitialValues) -> None:
    import tensorflow as tf

    context.restore_module(initial.created)
    if keras is not None:
        keras.utils.set_random_seed(seed)
    else:
        import random

        import numpy as np

        tf.random.set_seed(seed)
        random.seed(seed)
        np.random.seed(seed)


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


def _runner(
    context: ProbeContext, target: Any, plan: Any, initial: InitialValues, keras: Any
) -> Callable[..., Any]:
    """``run(mode, name, calls, seed) -> record``: one input set in one mode, from a clean start."""
    import tensorflow as tf

    is_class = isinstance(target, type)
    graph_fn = None
    memo: dict[int, Any] = {}  # a function's layer arguments, shared by all its runs
    if not is_class:
        python_fn = getattr(target, "python_function", target)
        graph_fn = target if hasattr(target, "python_function") else tf.function(target)

    def run(
        mode: str, calls: list[Any], seed: int, randoms: list[str] | None = None
    ) -> tuple[dict[str, Any], int | None]:
        _reset(context, keras, seed, initial)
        if is_class:
            initial.start(recording=not initial.values)
            with tf.variable_creator_scope(initial.creator):
                with OutputCapture():
                    instance = instantiate(plan, target, seed=seed)
                fn: Any = (
                    instance if mode == "eager" else tf.function(lambda *a, **k: instance(*a, **k))
                )
                before = _tracing_count(fn) if mode == "graph" else None
                record = _run_calls(fn, calls, lambda: _instance_state(instance), {})
            initial.recording = False
        else:
            module = context.load_module()
            fn = python_fn if mode == "eager" else graph_fn
            before = _tracing_count(fn) if mode == "graph" else None
            with tf.variable_creator_scope(initial.creator):
                record = _run_calls(
                    fn, calls, lambda: _snapshot(dict(vars(module)), public_only=False), memo
                )
        traces = None
        if mode == "graph":
            after = _tracing_count(fn)
            traces = None if before is None or after is None else after - before
            if randoms is not None and calls and not any(r is not None for r in record["errors"]):
                arguments, _seed, batch, extra = calls[0]
                randoms.extend(random_ops(fn, arguments, batch, extra))
            if traces and is_class and initial.index:
                # Variables created while tracing make tf.function trace once more; that extra
                # trace is how TF lifts them out, not a retrace caused by the inputs.
                traces = max(1, traces - 1)
        return record, traces

    return run


_RANDOM_OP_RE = re.compile(
    r"Random|Multinomial|^Rng|Stateful(Uniform|StandardNormal|TruncatedNormal)|TruncatedNormal"
)


def random_ops(
    fn: Any, arguments: Arguments, batch: int | None, extra: dict[str, Any]
) -> list[str]:
    """Random-number ops in the graph ``fn`` traced for these inputs (its nested functions too)."""
    try:
        args, kwargs = arguments.make(0, batch)
        kwargs.update(extra)
        graph_def = fn.get_concrete_function(*args, **kwargs).graph.as_graph_def()
    except Exception:
        return []
    ops = {node.op for node in graph_def.node}
    for function in graph_def.library.function:
        ops |= {node.op for node in function.node_def}
    return sorted(op for op in ops if _RANDOM_OP_RE.search(op))


def _random_by_design(
    run: Callable[..., Any], sets: dict[str, Any], eager: dict[str, Any], graph_random: set[str]
) -> list[str]:
    """Input sets whose outputs are random: their graph draws random numbers, or their eager
    outputs change with the seed."""
    random_sets = [name for name in sets if name in graph_random]
    for name in ("same_shape", "training"):
        if name not in sets or name not in eager or name in random_sets:
            continue
        again, _ = run("eager", sets[name], SEED + 1)
        for first, second in zip(eager[name]["outputs"], again["outputs"], strict=False):
            if first is None or second is None:
                continue
            diff = max_difference(first, second)
            if diff is None or diff > 1e-6:
                random_sets.append(name)
                break
    return random_sets


def run(context: ProbeContext) -> dict[str, Any]:
    target = context.target()
    plan = plan_for(context, target)
    if plan.kind == "no_call":
        raise ProbeSkipped(
            f"{context.target_name} has no call(): there is nothing to run eagerly or as a graph"
        )
    is_class = isinstance(target, type)
    keras = keras_for_class(target) if is_class and issubclass(target, layer_bases()) else None
    sets = _input_sets(plan, function=not is_class)
    initial = InitialValues()
    run_set = _runner(context, target, plan, initial, keras)
    results: dict[str, dict[str, Any]] = {"eager": {}, "graph": {}}
    traces: dict[str, int | None] = {}
    graph_random: set[str] = set()
    for mode in ("eager", "graph"):
        for name, calls in sets.items():
            context.progress(f"{mode}: {name}")
            randoms: list[str] = []
            results[mode][name], count = run_set(mode, calls, SEED, randoms)
            if mode == "graph":
                traces[name] = count
                if randoms:
                    graph_random.add(name)
    random_sets = _random_by_design(run_set, sets, results["eager"], graph_random)
    models = model_bases()
    if is_class and models and issubclass(target, models) and plan.call is not None:
        fit_input = _fit_input(plan)
        if fit_input is not None:
            for mode in ("eager", "graph"):
                context.progress(f"{mode}: fit")
                _reset(context, keras, SEED, initial)
                results[mode]["fit"] = _fit(target, plan, fit_input, eager=mode == "eager")
    function = getattr(target, "python_function", target)
    line = context.line_of(function if not is_class else target)
    outcome = compare_modes(
        context,
        results,
        traces,
        line,
        _print_lines(function),
        subject="attribute" if is_class else "global",
        random_sets=random_sets,
        is_class=is_class,
    )
    outcome["details"]["inputs"] = {
        name: [calls[0][0].describe("")] + ([f"batch {c[2]}" for c in calls] if calls[0][2] else [])
        for name, calls in sets.items()
    }
    return outcome


def _fit_input(plan: Any) -> TensorSpec | None:
    args = plan.call.args
    if (
        len(args) == 1
        and not plan.call.kwargs
        and isinstance(args[0], TensorSpec)
        and args[0].batched
    ):
        return args[0]
    return None


def _fit(klass: type, plan: Any, spec: TensorSpec, *, eager: bool) -> dict[str, Any]:
    """compile(run_eagerly=...) + fit for 5 batches; prints and attribute changes as in training."""
    x = TensorSpec((20, *spec.shape[1:]), spec.dtype, spec.maxval).make(seed=5)
    with OutputCapture():
        try:
            model = instantiate(plan, klass, seed=SEED)
            y_like = model(x[:1])
        except Exception as exc:
            return {"outputs": [], "errors": [describe_exception(exc)], "prints": 0, "changes": {}}
    outputs = flat_arrays(y_like)
    if len(outputs) != 1 or outputs[0].dtype.kind != "f":
        return {"outputs": [], "errors": [None], "prints": 0, "changes": {}}
    y = TensorSpec((20, *outputs[0].shape[1:])).make(seed=6)
    with OutputCapture():
        model = instantiate(plan, klass, seed=SEED)
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


__all__ = ["ProbeError", "run"]
