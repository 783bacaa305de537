"""TFL819 validation-split-on-ordered-data: ``fit(x, y, validation_split=...)`` where ``y`` was
built class by class (``np.concatenate([np.zeros(n), np.ones(m)])``) and never shuffled.

validation_split takes the last samples before fit() shuffles anything, so the validation set
holds the last class(es) only.  The labels' origin must be a concatenation of constant-label
arrays, followed through the semantic model's terms (a reassignment such as
``x, y = x[order], y[order]`` changes the origin); an in-place shuffle anywhere in the module
(``np.random.shuffle``, ``rng.permutation``...) keeps the detector silent.
"""

from __future__ import annotations

import ast

from tflsp.analysis.context import BlockContext
from tflsp.analysis.fit_calls import (
    FITTING,
    call_parts,
    is_given,
    origins,
    term_int,
    term_qualname,
    training_calls,
)
from tflsp.analysis.registry import detector, watch
from tflsp.analysis.semantic.model import ModuleModel
from tflsp.analysis.semantic.terms import Term
from tflsp.analysis.summary import ModuleSummary

_JOINS = frozenset({"numpy.concatenate", "numpy.hstack", "numpy.vstack", "numpy.append"})
_CONSTANT_ARRAYS = frozenset(
    {
        "numpy.zeros",
        "numpy.ones",
        "numpy.full",
        "numpy.zeros_like",
        "numpy.ones_like",
        "numpy.full_like",
        "numpy.repeat",
        "numpy.tile",
    }
)
_SHUFFLES = (".shuffle", ".permutation", ".permuted", "sklearn.utils.shuffle")
watch(*_SHUFFLES)


def _shuffles(summary: ModuleSummary) -> bool:
    return any(summary.has(name) for name in _SHUFFLES)


@detector("TFL819")
def split_of_ordered_labels(ctx: BlockContext) -> None:
    if ctx.summary.derived("training_ordered.shuffles", _shuffles):
        return
    for fit in training_calls(ctx):
        if fit.method not in FITTING:
            continue
        split = fit.arg("validation_split")
        y = fit.arg("y")
        if split is None or y is None or not is_given(ctx, split):
            continue
        if isinstance(split, ast.Constant) and split.value in (0, 0.0):
            continue
        found = origins(ctx.model, ctx.semantics.terms.expr(y), ctx.ordinal)
        if found is None or len(found) != 1 or not _class_by_class(ctx.model, *found[0]):
            continue
        fraction = ctx.source(split)
        if isinstance(split, ast.Constant) and isinstance(split.value, float):
            fraction = f"{round(split.value * 100)}%"
        ctx.report(
            "TFL819",
            fit.node_of("validation_split") or split,
            args={"fraction": fraction, "labels": ctx.source(y)},
        )


def _class_by_class(model: ModuleModel, term: Term, block: int) -> bool:
    """``np.concatenate([np.zeros(n), np.ones(m)])``, ``[0] * n + [1] * m`` and the like."""
    if term.tag == "binop" and term.args[0] == "Add":
        return all(_constant_labels(model, t, block) for t in term.args[1:])
    parts = call_parts(term)
    if parts is None:
        return False
    func, args, kwargs = parts
    if func.tag == "attr" and func.args[1] == "astype":
        return _labels_of(model, func.args[0], block)
    name = term_qualname(model, func, block)
    if name in ("numpy.array", "numpy.asarray") and args:
        return _labels_of(model, args[0], block)
    if name not in _JOINS:
        return False
    axis = kwargs.get("axis", args[1] if name == "numpy.concatenate" and len(args) > 1 else None)
    if axis is not None and term_int(model, axis, block) != 0:
        return False
    if name == "numpy.append":
        members: tuple[Term, ...] = args[:2]
    elif args and args[0].tag in ("list", "tuple"):
        members = args[0].args[0]
    else:
        return False
    return len(members) >= 2 and all(_constant_labels(model, m, block) for m in members)


def _labels_of(model: ModuleModel, term: Term, block: int) -> bool:
    found = origins(model, term, block)
    return found is not None and len(found) == 1 and _class_by_class(model, *found[0])


def _constant_labels(model: ModuleModel, term: Term, block: int) -> bool:
    found = origins(model, term, block)
    if found is None or len(found) != 1:
        return False
    term, block = found[0]
    if term.tag == "binop" and term.args[0] == "Mult":
        left, right = term.args[1], term.args[2]
        return any(
            side.tag == "list" and len(side.args[0]) == 1 and side.args[0][0].tag == "const"
            for side in (left, right)
        )
    parts = call_parts(term)
    if parts is None:
        return False
    func, args, _ = parts
    if func.tag == "attr" and func.args[1] == "astype":
        return _constant_labels(model, func.args[0], block)
    name = term_qualname(model, func, block)
    if name in ("numpy.repeat", "numpy.tile"):
        return bool(args) and args[0].tag == "const"
    return name in _CONSTANT_ARRAYS
