"""The ``saveload`` probe: does a model survive ``.keras`` save and load in a fresh process?

Steps, each reported with its exception: build (construct + call; a layer is wrapped in a
small Functional model with a static batch size), ``get_config`` (and whether it records the
constructor arguments), save to ``.keras`` (uncompiled, so no optimizer noise), ``export()`` a
SavedModel, then in a fresh process, with the same Keras that saved: import the user's module,
``load_model`` without and with ``custom_objects``, and ``tf.saved_model.load`` of the export;
predictions and weights are compared with the originals (predictions only when the model is
deterministic).  Each failure is reported once, by its cause, with the one catalog code that
cause matches and the whole exception text as the finding's detail.
"""

from __future__ import annotations

import inspect
import re
import time
from typing import Any

from tflsp.verify.agent.capture import OutputCapture
from tflsp.verify.agent.common import describe_exception
from tflsp.verify.agent.inputs import call, instantiate, plan_for
from tflsp.verify.agent.modes_compare import exception_summary
from tflsp.verify.agent.probes import ProbeContext, ProbeError, ProbeSkipped
from tflsp.verify.agent.samples import flat_arrays, max_difference, underlying
from tflsp.verify.agent.specs import Arguments, LayerSpec, TensorSpec
from tflsp.verify.agent.tfenv import keras_for_class, layer_bases, model_bases

TOLERANCE = 1e-5
LOAD_TIMEOUT = 120.0


def _bound_arguments(cls: type, construct: Arguments | None) -> dict[str, Any]:
    if construct is None:
        return {}
    args, kwargs = construct.make()
    try:
        bound = inspect.signature(cls.__init__).bind_partial(None, *args, **kwargs)  # type: ignore[misc]
    except (TypeError, ValueError):
        return dict(kwargs)
    values = dict(bound.arguments)
    values.pop(next(iter(inspect.signature(cls.__init__).parameters)), None)  # type: ignore[misc]
    extra = values.pop("kwargs", None)
    if isinstance(extra, dict):
        values.update(extra)
    given = {k for k, v in construct.kwargs if not isinstance(v, LayerSpec)}
    return {k: v for k, v in values.items() if k in given or not construct.kwargs}


def _build(context: ProbeContext, cls: type, plan: Any) -> tuple[Any, list[Any], str]:
    """(model, inputs as arrays, how to call the loaded model: "list" or "args")."""
    keras = keras_for_class(cls)
    obj = instantiate(plan, cls, seed=0)
    assert plan.call is not None
    args, kwargs = plan.call.make(seed=0)
    if issubclass(cls, model_bases()):
        with OutputCapture():
            call(obj, plan.call)
        return obj, args, "args"
    # A layer: a Functional model around it, every tensor argument an Input with a static
    # batch (some layers need it), Python values passed through as they are.
    import tensorflow as tf

    inputs: list[Any] = []
    arrays: list[Any] = []

    def symbolic(value: Any) -> Any:
        if isinstance(value, tf.Tensor):
            tensor = keras.Input(
                shape=tuple(value.shape[1:]),
                batch_size=value.shape[0] if value.shape.rank else None,
                dtype=value.dtype.name,
            )
            inputs.append(tensor)
            arrays.append(value)
            return tensor
        if isinstance(value, (list, tuple)):
            return type(value)(symbolic(v) for v in value)
        return value

    symbolic_args = [symbolic(a) for a in args]
    symbolic_kwargs = {k: symbolic(v) for k, v in kwargs.items()}
    with OutputCapture():
        outputs = obj(*symbolic_args, **symbolic_kwargs)
        model = keras.Model(inputs[0] if len(inputs) == 1 else inputs, outputs)
        _call_model(model, arrays, "list")
    return model, arrays, "list"


def _call_model(model: Any, arrays: list[Any], style: str) -> Any:
    """The same convention as the loader's: a Functional wrapper takes one input or a list."""
    if style == "list":
        return model(arrays[0] if len(arrays) == 1 else arrays)
    return model(*arrays)


def _config_step(
    context: ProbeContext, model: Any, cls: type, arguments: dict[str, Any]
) -> dict[str, Any]:
    target: Any = (
        model
        if isinstance(model, cls)
        else next(
            (layer for layer in getattr(model, "layers", []) if isinstance(layer, cls)), model
        )
    )
    try:
        config = target.get_config()
    except Exception as exc:
        return {
            "step": "get_config",
            "ok": False,
            "exception": describe_exception(exc, context.files),
        }
    wrong = {
        name: {"given": value, "config": config.get(name)}
        for name, value in arguments.items()
        if name in config and _plain(value) and _differs(config.get(name), value)
    }
    missing = [name for name, value in arguments.items() if name not in config and _plain(value)]
    step: dict[str, Any] = {
        "step": "get_config",
        "ok": not wrong,
        "wrong": wrong,
        "missing": missing,
    }
    for name, values in wrong.items():
        context.find(
            f"get_config() records {name}={values['config']!r}, but the object was built with "
            f"{name}={values['given']!r}: a loaded copy would be built differently",
            context.line_of(cls),
            "error",
            patterns=("TFL403",),
        )
    for name in missing:
        context.find(
            f"get_config() does not record the constructor argument {name!r}; loading will use its default",
            context.line_of(cls),
            "warning",
            patterns=("TFL403",),
        )
    return step


def _differs(recorded: Any, given: Any) -> bool:
    if isinstance(recorded, (list, tuple)) and isinstance(given, (list, tuple)):
        return list(recorded) != list(given)
    return bool(recorded != given)


def _since(mark: float) -> float:
    return round(time.perf_counter() - mark, 4)


def _plain(value: Any) -> bool:
    return isinstance(value, (bool, int, float, str, type(None), list, tuple, dict))


def _deterministic(model: Any, arrays: list[Any], style: str, keras: Any) -> bool:
    """Does the model give the same output twice with different seeds?"""
    try:
        with OutputCapture():
            keras.utils.set_random_seed(11)
            first = flat_arrays(_call_model(model, arrays, style))
            keras.utils.set_random_seed(12)
            second = flat_arrays(_call_model(model, arrays, style))
    except Exception:
        return True
    diff = max_difference(first, second)
    return diff is not None and diff <= TOLERANCE


def run(context: ProbeContext) -> dict[str, Any]:
    import numpy as np

    cls = context.target()
    if not (isinstance(cls, type) and issubclass(cls, layer_bases())):
        what = "a function" if not isinstance(cls, type) else "not a Keras Layer or Model"
        raise ProbeSkipped(
            f"{context.target_name} is {what}: saveload checks Keras Layer and Model classes "
            "(a .keras round trip)"
        )
    plan = plan_for(context, cls)
    if plan.kind == "no_call":
        raise ProbeSkipped(f"{context.target_name} has no call(): a .keras round trip needs one")
    class_line = context.line_of(cls)
    keras = keras_for_class(cls)
    context.progress(f"building {context.target_name}")
    steps: list[dict[str, Any]] = []
    import tensorflow as tf

    created: list[Any] = []

    def creator(next_creator: Any, **kwargs: Any) -> Any:
        variable = next_creator(**kwargs)
        created.append(variable)
        return variable

    try:
        with tf.variable_creator_scope(creator):
            model, arrays, style = _build(context, cls, plan)
    except Exception as exc:
        steps.append(
            {"step": "build", "ok": False, "exception": describe_exception(exc, context.files)}
        )
        return _result(context, steps, class_line, cls)
    steps.append({"step": "build", "ok": True})
    tracked = {id(underlying(v)) for v in [*model.weights, *getattr(model, "variables", [])]}
    untracked = sum(
        1
        for v in created
        if id(v) not in tracked and "seed_generator" not in str(getattr(v, "name", ""))
    )
    steps.append(_config_step(context, model, cls, _bound_arguments(cls, plan.construct)))

    mark = time.perf_counter()
    keras_file = context.scratch / "model.keras"
    context.progress("saving to .keras")
    try:
        with OutputCapture():
            model.save(str(keras_file))
        steps.append(
            {
                "step": "save",
                "ok": True,
                "bytes": keras_file.stat().st_size,
                "seconds": _since(mark),
            }
        )
    except Exception as exc:
        steps.append(
            {"step": "save", "ok": False, "exception": describe_exception(exc, context.files)}
        )

    export_dir = None
    # A SavedModel export is about models (serving); for a layer the verifier wrapped it in a
    # model of its own, and the graph behaviour is the modes probe's business.
    is_model = issubclass(cls, model_bases())
    if context.options.get("export", is_model) and hasattr(model, "export"):
        context.progress("exporting a SavedModel")
        mark = time.perf_counter()
        try:
            with OutputCapture():  # export() prints the endpoint signatures
                model.export(str(context.scratch / "exported"))
            export_dir = str(context.scratch / "exported")
            steps.append({"step": "export", "ok": True, "seconds": _since(mark)})
        except Exception as exc:
            steps.append(
                {"step": "export", "ok": False, "exception": describe_exception(exc, context.files)}
            )

    saved = next(s for s in steps if s["step"] == "save")
    if saved["ok"] or export_dir:
        deterministic = _deterministic(model, arrays, style, keras)
        arrays_file = context.scratch / "arrays.npz"
        with OutputCapture():
            keras.utils.set_random_seed(11)
            outputs = flat_arrays(_call_model(model, arrays, style))
        weights = [np.asarray(w) for w in model.get_weights()]
        named: dict[str, Any] = {}
        for i, value in enumerate(arrays):
            if isinstance(value, dict):  # a dict of features: one array per key
                named.update({f"in_{i}.{k}": np.asarray(v) for k, v in value.items()})
            else:
                named[f"in_{i}"] = np.asarray(value)
        named.update({f"out_{i}": o for i, o in enumerate(outputs)})
        named.update({f"w_{i}": w for i, w in enumerate(weights)})
        np.savez(arrays_file, **named)
        module = context.module
        classes = [
            name
            for name, value in vars(module).items()
            if isinstance(value, type)
            and issubclass(value, layer_bases())
            and value.__module__ == module.__name__
        ]
        loader_cwd = context.scratch / "loader"
        loader_cwd.mkdir()
        job = {
            "script": str(context.script),
            "home": str(context.home) if context.home is not None else None,
            "cwd": str(loader_cwd),
            "module": module.__name__,
            "keras": keras.__name__,
            "keras_file": str(keras_file) if saved["ok"] else None,
            "export_dir": export_dir,
            "arrays": str(arrays_file),
            "style": style,
            "compare_outputs": deterministic,
            "custom_objects": classes,
        }
        context.progress("loading in a fresh process")
        mark = time.perf_counter()
        answer = context.agent.loader_pool().run(job, LOAD_TIMEOUT)
        fresh: dict[str, Any] = {
            "step": "fresh_process",
            "ok": "error" not in answer,
            "seconds": _since(mark),
        }
        if "error" in answer:
            fresh.update(error=answer["error"], stderr=answer.get("stderr", ""))
        steps.append(fresh)
        for step in answer.get("steps", []):
            if step["step"] in ("load", "load_custom_objects") and not saved["ok"]:
                continue
            if step.get("ok") and "max_diff" in step:
                diff = step.get("max_diff")
                weights_diff = step.get("weights_max_diff") or 0.0
                if (deterministic and (diff is None or diff > TOLERANCE)) or (
                    weights_diff is None or weights_diff > TOLERANCE
                ):
                    step["ok"] = False
                    step["mismatch"] = True
            steps.append(step)
        if not deterministic:
            context.find(
                "the model's outputs change from call to call (it is random or keeps state): "
                "after loading, only the weights were compared",
                class_line,
                "info",
            )
    return _result(context, steps, class_line, cls, untracked)


# -- causes ----------------------------------------------------------------------------------------
def _registered(cls: type) -> bool:
    """Is ``cls`` registered with ``register_keras_serializable`` (in its own Keras)?"""
    try:
        keras = keras_for_class(cls)
        saving = getattr(keras, "saving", None) or keras.utils
        name = saving.get_registered_name(cls)
        return bool(saving.get_registered_object(name) is cls) and name != cls.__name__
    except Exception:
        return True


_WRAPPED_RE = re.compile(r"Exception encountered:\s*(?P<cause>.*)", re.DOTALL)


def root_cause(message: str) -> str:
    """The innermost error of a deserialization failure (Keras wraps each level: "X could not
    be deserialized properly ... Exception encountered: <cause>"), without config dumps."""
    text = message
    while True:
        match = _WRAPPED_RE.search(text)
        if match is None:
            break
        text = match.group("cause")
    text = text.split("Full object config:", 1)[0]
    text = re.split(r"\n\s*config=\{", text, maxsplit=1)[0]
    return exception_summary(text) or message.strip().splitlines()[0]


def _text(step: dict[str, Any]) -> tuple[str, str]:
    """(first line of the cause, the whole text)."""
    exception = step.get("exception")
    if exception:
        full = f"{exception['type']}: {exception['message'].strip()}"
        cause = root_cause(exception["message"])
        return (
            f"{exception['type']}: {cause}" if not cause.startswith(exception["type"]) else cause
        ), full
    if step.get("mismatch"):
        text = (
            f"the loaded model computes different outputs (max |diff| = {step.get('max_diff')}) "
            f"or weights (max |diff| = {step.get('weights_max_diff')})"
        )
        return text, text
    text = str(step.get("error", "failed"))
    if step.get("stderr"):
        return text, f"{text}\n{step['stderr']}"
    return text, text


def _code(
    step: dict[str, Any],
    summary: str,
    full: str,
    custom_fixes: bool,
    untracked: int,
    registered: bool,
) -> tuple[tuple[str, ...], str, bool]:
    """(catalog code, advice, cause known) for one failed step."""
    name = step["step"]
    if name == "load" and not registered and not custom_fixes:
        # Keras 2 says "'str' object is not callable" or "must be an instance of class Layer"
        # for a class it cannot find.
        said = "Could not locate" in summary or "Unknown layer" in summary
        return (
            ("TFL401",),
            "" if said else "; the class is not registered, so Keras cannot find it",
            True,
        )
    if name in ("get_config", "save") and (
        "get_config" in summary or "non-serializable" in summary or "NotImplementedError" in summary
    ):
        return ("TFL402",), "", True
    if name == "load" and custom_fixes:
        return (
            ("TFL401",),
            "; loading works with custom_objects, so the class is not registered",
            True,
        )
    if name in ("load", "load_custom_objects"):
        if (
            "Could not locate" in summary
            or "Unknown layer" in summary
            or "must be an instance of class Layer" in summary
        ):
            return ("TFL401",), "", True
        if "missing" in summary and "required positional argument" in summary:
            return ("TFL403",), "", True
        unexpected = re.search(r"unexpected keyword argument '(\w+)'", full)
        if unexpected or "Unable to revive model from config" in full:
            argument = f"{unexpected.group(1)!r}" if unexpected else "name, trainable or dtype"
            return (
                (),
                (
                    f": __init__ does not accept {argument}, which Keras passes back from the "
                    "config; accept **kwargs in __init__ and pass them to super().__init__(**kwargs)"
                ),
                True,
            )
    if step.get("mismatch"):
        if untracked:
            return (
                ("TFL301",),
                (f": {untracked} variable(s) are not tracked by the model, so they were not saved"),
                True,
            )
        return ("TFL403",), "", False
    return (), "", False


def _result(
    context: ProbeContext,
    steps: list[dict[str, Any]],
    class_line: int | None,
    cls: type,
    untracked: int = 0,
) -> dict[str, Any]:
    registered = _registered(cls)
    by_name = {s["step"]: s for s in steps}
    order = [
        "build",
        "get_config",
        "save",
        "export",
        "import",
        "load",
        "load_custom_objects",
        "load_savedmodel",
        "fresh_process",
    ]
    failed = next((name for name in order if name in by_name and not by_name[name]["ok"]), "none")
    load = by_name.get("load")
    custom = by_name.get("load_custom_objects")
    load_fails = load is None or not load["ok"]
    custom_fixes = bool(load is not None and not load["ok"] and custom is not None and custom["ok"])
    reported: set[str] = set()
    for step in steps:
        if step["ok"] or step.get("wrong"):
            continue
        summary, full = _text(step)
        codes, advice, known = _code(step, summary, full, custom_fixes, untracked, registered)
        if summary in reported:
            continue  # the same cause in load and load_custom_objects: one finding
        reported.add(summary)
        exception = step.get("exception") or {}
        line = exception.get("line") or class_line
        severity = "warning" if step["step"] in ("export", "load_savedmodel") else "error"
        if step["step"] == "build":
            severity = "error"
        context.find(
            f"{step['step']} failed: {summary}{advice}",
            line,
            severity,
            codes,
            detail=full,
            cause_known=known,
        )
    diffs = [
        float(s["max_diff"])
        for s in steps
        if s.get("ok") and isinstance(s.get("max_diff"), (int, float))
    ]
    outcome = (
        "pass"
        if failed == "none"
        or all(by_name[n]["ok"] or n in ("export", "load_savedmodel") for n in by_name)
        else "fail"
    )
    return {
        "outcome": outcome,
        "observations": {
            "outcome": outcome,
            "failed_step": failed,
            "load_fails": bool(load_fails),
            "custom_objects_fixes": custom_fixes,
            "max_diff": max(diffs) if diffs else None,
        },
        "details": {"steps": steps},
    }


__all__ = ["ProbeError", "TensorSpec", "run"]
