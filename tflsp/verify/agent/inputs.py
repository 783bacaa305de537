"""How to build a target and what to call it with, when nobody said.

:func:`plan_for` returns a :class:`~.specs.Plan` shared by every probe of one verification:

- constructor arguments: given (``--args``, the directive), else the file's own literal call
  (``Cls(64, rate=0.1)``), else a guess per required parameter (:mod:`.guesses`);
- call inputs: given (``--inputs``, ``--input-shape``, ``--dtype``, the directive), else the
  ``input_signature`` of a ``tf.function``, the inputs of a Functional model, shapes the file
  feeds to the target, then candidates built from the call signature: one tensor per
  required parameter, ranked by names (``images`` has 4 axes, ``token_ids`` are integers),
  annotations, docstrings (``of shape (batch, seq, dim)``), ``build()``'s reads of the input
  shape, and the layer's ``input_spec``.  Masks are added when the call needs one, and
  optional parameters an error names are filled in.

Each candidate is tried on a fresh instance; the first one that runs wins.  When none does,
:class:`PlanError` says what was tried and exactly how to give the inputs.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import sys
import time
from typing import Any

from tflsp.verify.agent.candidates import (
    call_candidates,
    call_parameters,
    construct_candidates,
    fill_named_parameter,
    init_parameters,
    numbers_in,
    spec_of_input,
    with_last_axis,
    with_optional,
)
from tflsp.verify.agent.capture import OutputCapture
from tflsp.verify.agent.facts import class_facts, function_facts
from tflsp.verify.agent.given import given_call, given_construct, signature_call
from tflsp.verify.agent.specs import (
    BATCH,
    SIZE,
    Arguments,
    LayerSpec,
    Plan,
    Sequence,
    TensorSpec,
)
from tflsp.verify.agent.tfenv import keras_for_class, layer_bases, model_bases

MAX_ATTEMPTS = 40
MAX_SECONDS = 20.0
GIVE = (
    "give them with --args/--inputs/--input-shape/--dtype, or a comment above the definition "
    "such as '# tflsp: verify(args={...}, input_shape=(2, 5, 4), dtype=\"int32\")'"
)


class PlanError(Exception):
    """The target cannot be built or called with anything the verifier could infer."""


# -- what kind of target -------------------------------------------------------------------------
def _module_base() -> type | None:
    import tensorflow as tf

    return tf.Module


def _own_method(cls: type, name: str) -> bool:
    """Does ``cls`` (not Keras/TensorFlow) define ``name``?"""
    for klass in cls.__mro__:
        if name in vars(klass):
            module = klass.__module__ or ""
            return not module.startswith(("keras", "tf_keras", "tensorflow"))
    return False


def target_kind(obj: Any) -> str:
    if isinstance(obj, type):
        if issubclass(obj, layer_bases()):
            models = model_bases()
            if models and issubclass(obj, models):
                if not _own_method(obj, "call"):
                    return "functional" if not _own_method(obj, "__init__") else "model_no_call"
                return "model"
            return "layer"
        base = _module_base()
        if base is not None and issubclass(obj, base):
            return "module" if _own_method(obj, "__call__") else "no_call"
        return "class"
    if callable(obj):
        return "function"
    return "other"


# -- given options -------------------------------------------------------------------------------
def fresh_names() -> None:
    """Layer names as in a fresh program (``dense``, not ``dense_7``): the verifier builds a
    target several times, and reports name its variables."""
    for name in ("keras.src.utils.naming", "tf_keras.backend"):
        module = sys.modules.get(name)
        reset = getattr(module, "reset_uids", None)
        if reset is not None:
            with contextlib.suppress(Exception):
                reset()


def instantiate(plan: Plan, cls: type, seed: int = 1234) -> Any:
    """A fresh instance as the plan says (seeded, so two instances start alike)."""
    keras = keras_for_class(cls) if issubclass(cls, layer_bases()) else None
    fresh_names()
    _seed(keras, seed)
    if plan.kind == "functional":
        assert keras is not None
        inputs = keras.Input(shape=plan.functional_inputs[0].shape[1:])
        outputs = keras.layers.Dense(2)(inputs)
        return cls(inputs, outputs)
    construct = plan.construct or Arguments()
    args, kwargs = construct.make(keras=keras)
    instance = cls(*args, **kwargs)
    if plan.adapt and plan.call is not None:
        # A preprocessing model learns its statistics first (Normalization.adapt()).
        inputs, _ = plan.call.make(seed=100)
        instance.adapt(*inputs)
    return instance


def _seed(keras: Any, seed: int) -> None:
    import tensorflow as tf

    if keras is not None:
        keras.utils.set_random_seed(seed)
    else:
        tf.random.set_seed(seed)
        import random

        import numpy as np

        random.seed(seed)
        np.random.seed(seed)


def call(
    target: Any,
    call_args: Arguments,
    *,
    seed: int = 0,
    batch: int | None = None,
    memo: dict[int, Any] | None = None,
    **extra: Any,
) -> Any:
    args, kwargs = call_args.make(seed, batch, memo=memo)
    kwargs.update(extra)
    return target(*args, **kwargs)


def _first_text(exc: BaseException) -> str:
    from tflsp.verify.agent.common import strip_ansi
    from tflsp.verify.agent.modes_compare import exception_summary

    return f"{type(exc).__name__}: {exception_summary(strip_ansi(str(exc)))}"


class TargetBroken(PlanError):
    """Building the target fails at a line that uses none of the guessed arguments: the
    failure is the code's own, not the verifier's guess."""

    def __init__(self, message: str, line: int | None, detail: str) -> None:
        super().__init__(message)
        self.line = line
        self.detail = detail


# Errors in how the code calls an API, whatever the values: a removed name, a missing or
# unexpected argument, an argument Keras 3 wants by keyword.
_API_MISUSE_RE = re.compile(
    r"missing \d+ required (positional|keyword-only) argument|got an unexpected keyword argument"
    r"|takes \d+ positional arguments? but \d+ (was|were) given|must be passed as a keyword argument"
    r"|module '[\w.]+' has no attribute"
)


def _broken(
    context: Any, cls: type, construct: Arguments, exc: BaseException, stage: str = "building"
) -> TargetBroken | None:
    """The failure is the code's own when it happens in the target's code, at a line that uses
    none of the arguments the verifier chose, or is a misuse of an API whatever the values."""
    from tflsp.verify.agent.common import describe_exception

    description = describe_exception(exc, context.files)
    line = description.get("line")
    if line is None:
        return None
    lines = context.source.splitlines()
    if not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    names = [k for k, _ in construct.kwargs] + [
        p.name for p in init_parameters(cls)[: len(construct.args)]
    ]
    misuse = _API_MISUSE_RE.search(str(exc)) is not None
    if stage != "building" and not misuse:
        return None
    if not misuse and any(re.search(rf"\b{re.escape(n)}\b", text) for n in names):
        return None
    from tflsp.verify.agent.modes_compare import exception_summary

    summary = exception_summary(str(exc))
    why = (
        "a misuse of the API whatever the values"
        if misuse
        else "a line that uses none of the arguments the verifier chose"
    )
    return TargetBroken(
        f"{stage} {cls.__name__} fails at line {line} ({why}): {type(exc).__name__}: {summary}",
        line,
        f"{description['type']}: {description['message']}",
    )


def _plan_class(context: Any, cls: type, kind: str) -> Plan:
    options = context.options
    facts = class_facts(context.source, context.target_name)
    namespace = vars(context.module)
    given = given_construct(options)
    constructs = (
        [given]
        if given is not None
        else construct_candidates(cls, facts, namespace, context.source)
    )
    if kind == "functional":
        functional = Plan("functional", functional_inputs=(TensorSpec((BATCH, SIZE)),))
        functional.call = Arguments(
            args=(TensorSpec((BATCH, SIZE)),), origin="a small Functional graph"
        )
        functional.notes.append(f"built as {cls.__name__}(inputs, outputs) on a Dense layer")
        instantiate(functional, cls)
        return functional
    method = (
        getattr(cls, "call", None)
        if kind in ("layer", "model", "model_no_call")
        else getattr(cls, "__call__", None)  # noqa: B004 - the method, to read its signature
    )
    python_method = getattr(method, "python_function", method)
    params = call_parameters(python_method, bound=False) if python_method is not None else []
    doc = "\n".join(filter(None, [facts.docstring, inspect.getdoc(python_method) or ""]))
    first_int = bool(facts.first_layer and "Embedding" in facts.first_layer)
    training = any(p.name == "training" for p in params)
    attempts: list[str] = []
    started = time.monotonic()
    tried = 0
    broken: TargetBroken | None = None
    broken_calls: list[TargetBroken] = []
    constructed = False
    for construct in constructs:
        current: Arguments | None = construct
        for _ in range(3):
            assert current is not None
            plan = Plan(kind, construct=current, training=training)
            try:
                with OutputCapture():
                    instance = instantiate(plan, cls)
            except Exception as exc:
                attempts.append(f"{current.describe(cls.__name__)}: {_first_text(exc)}")
                broken = broken or _broken(context, cls, current, exc)
                filled = fill_named_parameter(cls, current, str(exc), facts, namespace)
                if filled is None:
                    break
                current = filled
                continue
            constructed = True
            if kind in ("model_no_call", "no_call"):
                inputs = getattr(instance, "inputs", None)
                if inputs:
                    plan.kind = "model"
                    specs = tuple(spec_of_input(t) for t in inputs)
                    plan.call = Arguments(
                        args=specs if len(specs) == 1 else (Sequence(specs),),
                        origin="the model's own inputs",
                    )
                    return _finish(plan, current, cls)
                plan.kind = "no_call"
                plan.notes.append(f"{cls.__name__} has no call(): it is built but not called")
                return _finish(plan, current, cls)
            given_inputs = given_call(options, params) or signature_call(method)
            if given_inputs is not None:
                calls, optional = [given_inputs], [p for p in params if p.default is None]
            else:
                calls, optional = call_candidates(
                    params, facts, function=False, instance=instance, first_int=first_int, doc=doc
                )
            queue = list(calls)
            seen: set[str] = set()
            last_error = ""
            resized = 0
            while queue and tried < MAX_ATTEMPTS and time.monotonic() - started < MAX_SECONDS:
                candidate = queue.pop(0)
                key = candidate.describe()
                if key in seen:
                    continue
                seen.add(key)
                tried += 1
                try:
                    with OutputCapture():
                        target = instance if tried == 1 else instantiate(plan, cls)
                        call(target, candidate)
                except Exception as exc:
                    last_error = str(exc)
                    attempts.append(
                        f"{candidate.describe(cls.__name__ + '(...)')}: {_first_text(exc)}"
                    )
                    if _own_method(cls, "adapt") and _adapts(plan, cls, candidate):
                        return _finish(plan, current, cls)
                    call_broken = _broken(context, cls, current, exc, "calling")
                    if call_broken is not None:
                        broken_calls.append(call_broken)
                    retries = with_optional(candidate, optional, last_error)
                    tensors = candidate.tensors()
                    if (
                        resized < 4
                        and tensors
                        and len(tensors[0].shape) >= 2
                        and candidate.origin != "given"
                    ):
                        sizes = numbers_in(last_error, tensors[0].shape[-1])
                        retries += [with_last_axis(candidate, n) for n in sizes]
                        resized += len(sizes)
                    queue[0:0] = [r for r in retries if r.describe() not in seen]
                    continue
                plan.call = candidate
                return _finish(plan, current, cls)
            filled = fill_named_parameter(cls, current, last_error, facts, namespace)
            if filled is None:
                break
            current = filled
    if broken is not None and not constructed:
        raise broken
    if broken_calls and len(broken_calls) == tried:
        raise broken_calls[0]
    raise PlanError(_explain(cls.__name__, attempts))


def _adapts(plan: Plan, cls: type, candidate: Arguments) -> bool:
    """Does the call work once ``adapt()`` has seen the inputs?  (Sets the plan up if so.)"""
    adapted = Plan(plan.kind, construct=plan.construct, training=plan.training, adapt=True)
    adapted.call = candidate
    try:
        with OutputCapture():
            call(instantiate(adapted, cls), candidate)
    except Exception:
        return False
    plan.adapt, plan.call = True, candidate
    plan.notes.append("adapt() is called on the same inputs first")
    return True


def _finish(plan: Plan, construct: Arguments, cls: type) -> Plan:
    plan.construct = construct
    if construct.origin != "given" and construct.kwargs:
        plan.notes.append(f"built as {construct.describe(cls.__name__)} ({construct.origin})")
        plan.notes.extend(construct.reasons)
    if plan.call is not None and plan.call.origin != "given":
        plan.notes.append(f"called on {plan.call.describe('')} ({plan.call.origin})")
    return plan


def _explain(name: str, attempts: list[str]) -> str:
    shown = attempts[:4]
    more = f" (and {len(attempts) - 4} more)" if len(attempts) > 4 else ""
    return (
        f"could not build and call {name} with what the verifier inferred; tried "
        + "; ".join(shown)
        + more
        + f". Say how to build and call it: {GIVE}"
    )


def _plan_function(context: Any, fn: Any) -> Plan:
    options = context.options
    facts = function_facts(context.source, context.target_name)
    python_fn = getattr(fn, "python_function", fn)
    params = call_parameters(python_fn, bound=True)
    plan = Plan("function")
    given_inputs = given_call(options, params)
    signature = getattr(fn, "input_signature", None)
    if given_inputs is not None:
        calls = [given_inputs]
    elif signature:
        specs = []
        for spec in signature:
            shape = getattr(spec, "shape", None)
            dims = [] if shape is None or shape.rank is None else list(shape)
            concrete = tuple(SIZE if d is None else int(d) for d in dims)
            dtype = getattr(getattr(spec, "dtype", None), "name", "float32")
            specs.append(
                TensorSpec(
                    concrete,
                    dtype,
                    SIZE if "int" in dtype else None,
                    batched=bool(dims) and dims[0] is None,
                )
            )
        calls = [Arguments(args=tuple(specs), origin="its input_signature")]
    else:
        calls, _optional = call_candidates(params, facts, function=True, doc=facts.docstring)
    attempts: list[str] = []
    for candidate in calls[:MAX_ATTEMPTS]:
        try:
            with OutputCapture():
                call(python_fn, candidate)
        except Exception as exc:
            attempts.append(f"{candidate.describe(context.target_name)}: {_first_text(exc)}")
            continue
        finally:
            context.restore_module()
        plan.call = candidate
        if candidate.origin != "given":
            plan.notes.append(
                f"called as {candidate.describe(context.target_name)} ({candidate.origin})"
            )
        return plan
    raise PlanError(_explain(context.target_name, attempts))


def plan_for(context: Any, obj: Any) -> Plan:
    """The plan for ``obj`` (the target), computed once per verification."""
    cached = context.cached_plan()
    if cached is not None:
        return cached
    kind = target_kind(obj)
    if kind == "function":
        plan = _plan_function(context, obj)
    elif kind in ("layer", "model", "functional", "model_no_call", "module", "no_call"):
        plan = _plan_class(context, obj, kind)
    else:
        raise PlanError(
            f"{context.target_name} is not a Keras Layer or Model, a tf.Module or a function"
        )
    with contextlib.suppress(Exception):
        context.restore_module()
    context.remember_plan(plan)
    return plan


__all__ = ["LayerSpec", "Plan", "PlanError", "call", "instantiate", "plan_for", "target_kind"]
