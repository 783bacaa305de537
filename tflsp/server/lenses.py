"""Code lenses above Keras Layer/Model subclasses and tf.functions: "verify with TensorFlow"."""

from __future__ import annotations

from typing import Any

from tflsp.server.commands import VERIFY_CLASS, VERIFY_FUNCTION
from tflsp.server.texts import text
from tflsp.server.workspace import Target


def code_lenses(target: Target, uri: str) -> list[dict[str, Any]]:
    result = target.result
    if result is None or result.summary is None:
        return []
    if target.settings is not None and not target.settings.verifier_enabled:
        return []  # every lens runs the verifier, which is turned off
    summary = result.summary
    lenses: list[dict[str, Any]] = []
    for view in result.blocks:
        facts = view.analysis.facts
        offset = view.start_line - 1
        for cls in facts.classes:
            if summary.keras_classes.get(cls.id) in ("layer", "model"):
                lens = _lens(target, uri, VERIFY_CLASS, cls.name, cls.line + offset)
                if lens is not None:
                    lenses.append(lens)
        for fn in facts.functions:
            info = summary.graph.get(fn.id)
            if info is not None and info.kind == "tf.function":
                lens = _lens(target, uri, VERIFY_FUNCTION, fn.id, fn.line + offset)
                if lens is not None:
                    lenses.append(lens)
    return lenses


def _lens(
    target: Target, uri: str, command: str, name: str, module_line: int
) -> dict[str, Any] | None:
    where = target.locate(module_line)
    if where is None or where[0] != uri:
        return None
    line = where[1]
    key = "verify_class" if command == VERIFY_CLASS else "verify_function"
    title = text(key, target.lang, name=name)
    position = {"line": line, "character": 0}
    return {
        "range": {"start": position, "end": position},
        "command": {"title": title, "command": command, "arguments": [uri, name, line]},
    }
