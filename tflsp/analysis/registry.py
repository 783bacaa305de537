"""Detectors register here; the engine discovers them by importing ``tflsp.analysis.detectors``.

A detector is a function ``(ctx: BlockContext) -> None`` that calls ``ctx.report(...)``.  It is
registered with every code it may emit, so the engine can skip detectors whose codes are all
disabled.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tflsp.analysis.context import BlockContext

DetectorFn = Callable[["BlockContext"], None]


@dataclass(frozen=True)
class Detector:
    codes: frozenset[str]
    run: DetectorFn
    name: str


_DETECTORS: list[Detector] = []
_WATCHED: set[str] = set()
_loaded = False


def detector(*codes: str) -> Callable[[DetectorFn], DetectorFn]:
    """Register ``fn`` as the detector for ``codes``."""

    def register(fn: DetectorFn) -> DetectorFn:
        _DETECTORS.append(Detector(frozenset(codes), fn, f"{fn.__module__}.{fn.__qualname__}"))
        return fn

    return register


def watch(*names: str) -> None:
    """Ask the summary to record whether the module calls these (canonical names, or ``.method``).

    Module-wide questions such as "does this file ever call fit()?" are answered from the
    summary, so a detector looking at one block can still see them.
    """
    _WATCHED.update(names)


def _load() -> None:
    global _loaded
    if _loaded:
        return
    import tflsp.analysis.detectors as package

    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        importlib.import_module(info.name)
    _loaded = True


def all_detectors() -> list[Detector]:
    _load()
    return list(_DETECTORS)


def watched_names() -> frozenset[str]:
    _load()
    return frozenset(_WATCHED)


def registered_codes() -> frozenset[str]:
    return frozenset(code for d in all_detectors() for code in d.codes)
