"""Detectors register here; the engine discovers them by importing ``tflsp.analysis.detectors``.

A detector is a function ``(ctx: BlockContext) -> None`` that calls ``ctx.report(...)``.  It is
registered with every code it may emit, so the engine can skip detectors whose codes are all
disabled.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

# The registry sits below everything else of the analyzer (the engine, facts and summary use
# it; detectors register with it), so it names the types it stores without importing them:
# a detector takes a BlockContext, a module fact's extract a NodeIndex and its combine the
# values and the ModuleSummary.
DetectorFn = Callable[[Any], None]


@dataclass(frozen=True)
class Detector:
    codes: frozenset[str]
    run: DetectorFn
    name: str


@dataclass(frozen=True)
class ByMethod:
    """A module fact whose value for a class block is put together from its methods' parts:
    while one method is typed in, the others' parts are taken from the block's last version
    (:mod:`tflsp.analysis.method_parts` says what a part may read).

    ``part(body)`` gives what one method's ``MethodBody`` contributes, values only (never a
    node: parts outlive their tree), or None to leave the method to ``whole`` (decided before
    asking for any term); ``whole(index, pieces)`` gives the block's value from the methods'
    ``Pieces`` and the nodes outside their stretches.  The fact's ``extract(index)`` must be
    ``whole(index, NO_METHODS)``, and ``whole`` with any pieces must give what it gives
    without them.  ``header``: a part reads its method's header too (its syntax only, never a
    term there); otherwise the header is left to ``whole``.
    """

    part: Callable[[Any], Hashable]
    whole: Callable[[Any, Any], Hashable]
    header: bool = False


@dataclass(frozen=True)
class ModuleFact:
    """A family's own module-wide fact, for questions the shared summary does not answer.

    ``extract`` sees one block alone (its result is cached with the block's other facts) and
    must return something hashable; ``combine`` gets every block's value in module order
    (None for blocks that did not parse) and the summary built so far.  Detectors read the
    combined value from ``ctx.summary.extra[name]``.

    A combine is run again whenever one block's value changes; one that would then redo the
    whole module keeps its pieces instead (``summary.block_values`` per block,
    ``summary.remember`` per answer, ``summary.declare`` for a table of its own), each
    remembered with what it read, so that the next summary recomputes only what changed.
    """

    name: str
    extract: Callable[[Any], Hashable]
    combine: Callable[[Sequence[Hashable], Any], Hashable]
    # The combine asks the semantic model for values (``summary.model``): it runs again
    # whenever the model changes; otherwise only when the blocks' extracted values, the
    # module's imports, functions and classes, or the names it resolved change.
    reads_values: bool = False
    # The value is made method by method for a class block being typed in (see ByMethod).
    by_method: ByMethod | None = None


_DETECTORS: list[Detector] = []
_WATCHED: set[str] = set()
_MODULE_FACTS: dict[str, ModuleFact] = {}
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


def module_fact(
    name: str,
    extract: Callable[[Any], Hashable],
    combine: Callable[[Sequence[Hashable], Any], Hashable],
    *,
    reads_values: bool = False,
    by_method: ByMethod | None = None,
) -> None:
    """Register a module-wide fact (see :class:`ModuleFact`)."""
    _MODULE_FACTS[name] = ModuleFact(name, extract, combine, reads_values, by_method)


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


def module_facts() -> list[ModuleFact]:
    _load()
    return list(_MODULE_FACTS.values())


def registered_codes() -> frozenset[str]:
    return frozenset(code for d in all_detectors() for code in d.codes)
