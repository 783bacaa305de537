"""The ``saveload`` probe: does a model survive ``.keras`` save and load in a fresh process?

Steps, each reported with its exception: build (construct + call), ``get_config`` (and whether
it records the constructor arguments), save to ``.keras`` (uncompiled, so no optimizer noise),
``export()`` a SavedModel, then in a fresh process: import the user's module, ``load_model``
without and with ``custom_objects``, and ``tf.saved_model.load`` of the export; predictions
and weights are compared with the originals.
"""

from __future__ import annotations

import inspect
import time
from typing import Any

from tflsp.verify.agent.common import describe_exception
from tflsp.verify.agent.probes import ProbeContext, ProbeError
from tflsp.verify.agent.samples import (
    CANDIDATE_SHAPES,
    ConstructionError,
    constructor_arguments,
    flat_arrays,
    sample,
)
from tflsp.verify.agent.tfenv import keras_for, layer_bases, model_bases

TOLERANCE = 1e-5
LOAD_TIMEOUT = 120.0


def _bound_arguments(cls: type, args: list[Any], kwargs: dict[str, Any]) -> dict[str, Any]:
    try:
        bound = inspect.signature(cls.__init__).bind_partial(None, *args, **kwargs)  # type: ignore[misc]
    except (TypeError, ValueError):
        return dict(kwargs)
    values = dict(bound.arguments)
    values.pop(next(iter(inspect.signature(cls.__init__).parameters)), None)  # type: ignore[misc]
    extra = values.pop("kwargs", None)
    if isinstance(extra, dict):
        values.update(extra)
    return values


def _build(context: ProbeContext, cls: type) -> tuple[Any, Any, dict[str, Any]]:
    try:
        args, kwargs = constructor_arguments(cls, context.options)
    except ConstructionError as exc:
        raise ProbeError(str(exc)) from exc
    shapes = (
        [tuple(context.options["input_shape"])]
        if "input_shape" in context.options
        else list(CANDIDATE_SHAPES)
    )
    dtype = context.options.get("dtype", "float32")
    last: Exception | None = None
    for shape in shapes:
        x = sample(shape, dtype)
        try:
            obj = cls(*args, **kwargs)
            if issubclass(cls, model_bases()):
                model = obj
                model(x)
            else:
                keras = keras_for(obj)
                model = keras.Sequential(
                    [keras.Input(shape=shape[1:], batch_size=None, dtype=dtype), obj]
                )
                model(x)
            return model, x, _bound_arguments(cls, args, kwargs)
        except Exception as exc:
            last = exc
    assert last is not None
    raise last


def _config_step(
    context: ProbeContext, model: Any, cls: type, arguments: dict[str, Any]
) -> dict[str, Any]:
    target: Any = (
        model
        if isinstance(model, cls)
        else next((layer for layer in model.layers if isinstance(layer, cls)), model)
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
        if name in config and _plain(value) and config.get(name) != value
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
            f"{name}={values['given']!r}: a loaded copy would be built differently; override get_config()",
            context.line_of(cls),
            "error",
        )
    for name in missing:
        context.find(
            f"get_config() does not record the constructor argument {name!r}; loading will use its default",
            context.line_of(cls),
            "warning",
        )
    return step


def _brief(text: str, limit: int = 400) -> str:
    """One line, without Keras's dump of the whole object config."""
    text = " ".join(text.split()).split(" Full object config:", 1)[0]
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _since(mark: float) -> float:
    return round(time.perf_counter() - mark, 4)


def _plain(value: Any) -> bool:
    return isinstance(value, (bool, int, float, str, type(None), list, tuple, dict))


def run(context: ProbeContext) -> dict[str, Any]:
    import numpy as np

    module = context.load_module()
    cls = context.target(module)
    if not (isinstance(cls, type) and issubclass(cls, layer_bases())):
        raise ProbeError(
            f"{context.target_name} is not a Keras Layer or Model class; saveload needs one"
        )
    context.progress(f"building {context.target_name}")
    steps: list[dict[str, Any]] = []
    try:
        model, x, arguments = _build(context, cls)
    except ProbeError:
        raise
    except Exception as exc:
        steps.append(
            {"step": "build", "ok": False, "exception": describe_exception(exc, context.files)}
        )
        return _result(context, steps, context.line_of(cls))
    steps.append({"step": "build", "ok": True})
    steps.append(_config_step(context, model, cls, arguments))

    mark = time.perf_counter()
    keras_file = context.scratch / "model.keras"
    context.progress("saving to .keras")
    try:
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
    if context.options.get("export", True) and hasattr(model, "export"):
        context.progress("exporting a SavedModel")
        mark = time.perf_counter()
        try:
            from tflsp.verify.agent.capture import OutputCapture

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
        arrays = context.scratch / "arrays.npz"
        outputs = flat_arrays(model(x))
        weights = [np.asarray(w) for w in model.get_weights()]
        named: dict[str, Any] = {"input": x.numpy()}
        named.update({f"out_{i}": o for i, o in enumerate(outputs)})
        named.update({f"w_{i}": w for i, w in enumerate(weights)})
        np.savez(arrays, **named)
        classes = [
            name
            for name, value in vars(module).items()
            if isinstance(value, type)
            and issubclass(value, layer_bases())
            and value.__module__ == module.__name__
        ]
        job = {
            "script": str(context.script),
            "home": str(context.home) if context.home is not None else None,
            "module": module.__name__,
            "keras_file": str(keras_file) if saved["ok"] else None,
            "export_dir": export_dir,
            "arrays": str(arrays),
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
                if (
                    diff is None
                    or diff > TOLERANCE
                    or (weights_diff is None or weights_diff > TOLERANCE)
                ):
                    step["ok"] = False
                    step["mismatch"] = True
            steps.append(step)
    return _result(context, steps, context.line_of(cls))


def _result(
    context: ProbeContext, steps: list[dict[str, Any]], class_line: int | None
) -> dict[str, Any]:
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
    for step in steps:
        if not step["ok"] and not step.get("wrong"):
            exception = step.get("exception")
            if exception:
                text = f"{exception['type']}: {exception['message'].strip()}"
            elif step.get("mismatch"):
                text = (
                    f"the loaded model computes different outputs (max |diff| = {step.get('max_diff')}) "
                    f"or weights (max |diff| = {step.get('weights_max_diff')})"
                )
            else:
                text = step.get("error", "failed")
            line = (exception or {}).get("line") or class_line
            severity = "warning" if step["step"] == "export" else "error"
            context.find(f"{step['step']} failed: {_brief(text)}", line, severity)
    diffs = [
        float(s["max_diff"])
        for s in steps
        if s.get("ok") and isinstance(s.get("max_diff"), (int, float))
    ]
    outcome = "pass" if failed == "none" else "fail"
    return {
        "outcome": outcome,
        "observations": {
            "outcome": outcome,
            "failed_step": failed,
            "load_fails": bool(load_fails),
            "custom_objects_fixes": bool(load_fails and custom is not None and custom["ok"]),
            "max_diff": max(diffs) if diffs else None,
        },
        "details": {"steps": steps},
    }
