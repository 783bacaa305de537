"""TFL307: ``input_shape=``/``input_dim=`` handed to a subclassed Model or a custom Layer.

Whether the keyword reaches Keras depends on the class's own ``__init__`` (and those of its
local bases), which may live in another block; a module fact carries the signatures over.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.migration_args import drop_keyword
from tflsp.analysis.detectors.tracking_support import local_class_kind
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import super_call
from tflsp.analysis.registry import detector, module_fact
from tflsp.analysis.summary import ModuleSummary

SHAPE_KEYWORDS = ("input_shape", "input_dim")

# -- module fact: which local classes pass the keywords on to Keras ----------------------------
SHAPE_FACT = "tracking.shape_keywords"


def _extract_inits(index: NodeIndex) -> Hashable:
    """``(class id, explicit shape parameters, takes **kwargs)`` of every ``__init__``."""
    out: list[tuple[str, frozenset[str], bool]] = []
    for cls in index.nodes(ast.ClassDef):
        for stmt in cls.body:
            if isinstance(stmt, ast.FunctionDef) and stmt.name == "__init__":
                a = stmt.args
                names = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
                explicit = frozenset(names.intersection(SHAPE_KEYWORDS))
                out.append((index.scope_id(cls), explicit, a.kwarg is not None))
    return tuple(out)


def _combine_inits(values: Sequence[Hashable], summary: ModuleSummary) -> Hashable:
    """``(class id, keyword)`` pairs for which ``Class(keyword=...)`` reaches Keras.

    The first ``__init__`` along the local bases decides: an explicit parameter keeps the
    keyword, ``**kwargs`` is assumed to be forwarded to ``super().__init__``, and a signature
    without either raises TypeError before Keras sees anything (not this rule's business).
    """
    inits: dict[str, tuple[frozenset[str], bool]] = {}
    for value in values:
        if isinstance(value, tuple):
            for class_id, explicit, kwargs in value:
                inits.setdefault(class_id, (explicit, kwargs))
    by_name = {facts.name: class_id for class_id, facts in summary.classes.items()}
    out: set[tuple[str, str]] = set()
    for class_id, kind in summary.keras_classes.items():
        if kind not in ("layer", "model"):
            continue
        found = _first_init(class_id, inits, summary, by_name, set())
        for keyword in SHAPE_KEYWORDS:
            if found is None or (keyword not in found[0] and found[1]):
                out.add((class_id, keyword))
    return frozenset(out)


def _first_init(
    class_id: str,
    inits: dict[str, tuple[frozenset[str], bool]],
    summary: ModuleSummary,
    by_name: dict[str, str],
    seen: set[str],
) -> tuple[frozenset[str], bool] | None:
    if class_id in seen:
        return None
    seen.add(class_id)
    if class_id in inits:
        return inits[class_id]
    facts = summary.classes.get(class_id)
    for base in facts.bases if facts is not None else ():
        base_id = by_name.get(base)
        if base_id is not None:
            found = _first_init(base_id, inits, summary, by_name, seen)
            if found is not None:
                return found
    return None


module_fact(SHAPE_FACT, _extract_inits, _combine_inits)


def _reaches_keras(ctx: BlockContext, class_id: str, keyword: str) -> bool:
    fact = ctx.summary.extra.get(SHAPE_FACT)
    return isinstance(fact, frozenset) and (class_id, keyword) in fact


def _is_super_init(ctx: BlockContext, call: ast.Call) -> ast.ClassDef | None:
    """The Keras class whose ``__init__`` holds this ``super().__init__(...)`` call."""
    if super_call(call, "__init__") is None:
        return None
    fn = ctx.index.enclosing_function(call)
    if not isinstance(fn, ast.FunctionDef) or fn.name != "__init__":
        return None
    cls = ctx.index.parent(fn)
    return cls if isinstance(cls, ast.ClassDef) else None


def _local_bases(ctx: BlockContext, cls: ast.ClassDef) -> list[str]:
    """Ids of this module's layer and model classes that ``cls`` derives from directly."""
    facts = ctx.summary.classes.get(ctx.index.scope_id(cls))
    out = []
    for base in facts.bases if facts is not None else ():
        found = local_class_kind(ctx.summary, base)
        if found is not None and found[1] in ("layer", "model"):
            out.append(found[0])
    return out


@detector("TFL307")
def input_shape_on_subclassed_model(ctx: BlockContext) -> None:
    keras3 = ctx.keras_version == 3
    for call in calls_of(ctx, keywords=SHAPE_KEYWORDS):
        kws = [kw for kw in call.keywords if kw.arg in SHAPE_KEYWORDS]
        if not kws:
            continue
        cls = _is_super_init(ctx, call)
        if cls is not None:
            kind = ctx.keras_kind(cls)
            name = cls.name
            bases = _local_bases(ctx, cls)
            if bases:  # super() reaches their __init__ first, as a call of them would
                kws = [kw for kw in kws if any(_reaches_keras(ctx, b, kw.arg or "") for b in bases)]
        elif isinstance(call.func, ast.Name):
            found = local_class_kind(ctx.summary, call.func.id)
            if found is None:
                continue
            class_id, kind = found
            name = call.func.id
            kws = [kw for kw in kws if _reaches_keras(ctx, class_id, kw.arg or "")]
        else:
            continue
        if kind == "model":
            variant = "default" if keras3 else "keras2_model"
        elif kind == "layer" and keras3:
            variant = "layer"
        else:
            continue  # Keras 2 layers use the shape (Sequential's first layer) without a word
        for kw in kws:
            fix = None
            if kind == "model":
                fix = ctx.fix(drop_keyword(ctx, call, kw), safe=True, keyword=kw.arg or "")
            ctx.report(
                "TFL307", kw, message=variant, args={"keyword": kw.arg, "cls": name}, fix=fix
            )
