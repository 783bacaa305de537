"""Save/load family: a model compiled with a custom loss or metric function, loaded without
it (TFL409).

``load_model()`` rebuilds the compiled loss and metrics from their names: a plain function of
the module that is not registered is not found (Keras 3: TypeError, Could not locate function;
Keras 2: ValueError, Unknown loss function).  A module fact lists the module's local,
unregistered functions given to ``compile(loss=..., metrics=...)`` of a Keras model (module
code is one block per statement).  A ``load_model()`` is reported when such a function exists,
the saving flow (:mod:`tflsp.analysis.semantic.saving`) has a whole-model save whose file the
load may read, and the load passes neither ``compile=False`` nor ``custom_objects`` naming the
function, outside any ``custom_object_scope``.  Values carry no identity, so the compiled and
the saved model are not matched one to one: a module compiles, saves and loads one model.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.saving_checkpoint import may_call
from tflsp.analysis.diagnostics import Fix
from tflsp.analysis.facts import semantics_of
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.method_parts import MethodBody, Pieces
from tflsp.analysis.registry import ByMethod, detector, module_fact
from tflsp.analysis.semantic import values as v
from tflsp.analysis.semantic.model import qualname_of
from tflsp.analysis.semantic.saving import REGISTER, SCOPES, path_format
from tflsp.analysis.semantic.terms import Term

FACT = "saving.custom_compiled_functions"
LOAD_MODEL = "keras.saving.load_model"
_ROLES = {"loss": "loss", "metrics": "metric", "weighted_metrics": "metric"}


@dataclass(frozen=True, slots=True)
class CompileCall:
    receiver: Term
    given: tuple[tuple[str, Term], ...]  # (role, term of one loss or metric)
    # Passes loss= with optimizer= or metrics=: Keras' compile() even on a parameter.
    keras_keywords: bool = False


@dataclass(frozen=True, slots=True)
class SaveCall:
    """``x.save(path)``: a whole-model save when ``x`` is what a Keras compile() compiled."""

    receiver: Term
    path: Term | None


@dataclass(frozen=True, slots=True)
class CustomFunction:
    name: str
    role: str  # loss | metric
    top_level: bool  # a module-level def: its name can be passed at the load


_Calls = tuple[CompileCall | SaveCall, ...]


def _extract(index: NodeIndex) -> Hashable:
    return _finish(_calls_in(index, index.nodes(ast.Call)))


def _part(body: MethodBody) -> _Calls:
    """A method body's compile() and save() calls: their terms read only the method's names."""
    return tuple(_calls_in(body.index, body.nodes(ast.Call)))


def _whole(index: NodeIndex, pieces: Pieces[_Calls]) -> Hashable:
    found: list[CompileCall | SaveCall] = []
    for piece, run in pieces.cut(index.nodes(ast.Call)):
        found.extend(piece.part if piece is not None else _calls_in(index, run))
    return _finish(found)


def _finish(found: list[CompileCall | SaveCall]) -> Hashable:
    if not any(isinstance(x, CompileCall) for x in found):
        found = [x for x in found if not isinstance(x, SaveCall)]
    return tuple(found) or None


def _calls_in(index: NodeIndex, calls: Sequence[ast.Call]) -> list[CompileCall | SaveCall]:
    terms = semantics_of(index).terms
    found: list[CompileCall | SaveCall] = []
    for call in calls:
        func = call.func
        if isinstance(func, ast.Attribute) and func.attr == "save":
            path = call.args[0] if call.args else None
            found.append(SaveCall(terms.expr(func.value), terms.expr(path) if path else None))
            continue
        if not (isinstance(func, ast.Attribute) and func.attr == "compile"):
            continue
        given: list[tuple[str, Term]] = []
        arguments = [("loss", call.args[1])] if len(call.args) > 1 else []
        if len(call.args) > 3:
            arguments.append(("metrics", call.args[3]))
        arguments.extend((k.arg, k.value) for k in call.keywords if k.arg in _ROLES)
        for key, node in arguments:
            items = _items(node)
            given.extend((_ROLES[key], terms.expr(item)) for item in items)
        keywords = {k.arg for k in call.keywords}
        evidence = "loss" in keywords and bool(keywords & {"optimizer", "metrics"})
        if given:
            found.append(CompileCall(terms.expr(func.value), tuple(given), evidence))
    return found


def _items(node: ast.expr) -> list[ast.expr]:
    """``[f, "acc"]``, ``{"out": f}``, ``f``: the single losses or metrics written."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return [item for element in node.elts for item in _items(element)]
    if isinstance(node, ast.Dict):
        return [item for value in node.values for item in _items(value)]
    return [node]


def _combine(values: Sequence[Hashable], summary: object) -> Hashable:
    """``(custom functions, (path, format) of saves of a compiled parameter)``."""
    model = getattr(summary, "model", None)
    if model is None:
        return None
    out: dict[str, CustomFunction] = {}
    saves: list[tuple[str | None, str | None, int]] = []
    for block, found in enumerate(values):
        if not isinstance(found, tuple):
            continue
        compiled: set[Term] = set()
        for call in found:
            if not isinstance(call, CompileCall):
                continue
            receiver = model.value(call.receiver, block)
            if not v.all_of(receiver, _is_model) and not (
                call.keras_keywords and v.is_unknown(receiver)
            ):
                continue
            for role, term in call.given:
                for fn in _custom_functions(model, model.value(term, block), role):
                    out.setdefault(fn.name, fn)
                    compiled.add(call.receiver)
        for call in found:
            # ``def train(model): model.compile(...); model.save(p)``: the saving flow does
            # not see the parameter as a model; the compile() says it is one.
            if isinstance(call, SaveCall) and call.receiver in compiled:
                path = _text(model, call.path, block)
                saves.append((path, path_format(path), block))
    if not out:
        return None
    return tuple(out.values()), tuple(saves)


def _is_model(x: v.Value) -> bool:
    return x.kind == v.INSTANCE and x.base == v.MODEL


def _text(model: object, term: Term | None, block: int) -> str | None:
    if term is None:
        return None
    found = v.constants(model.value(term, block))  # type: ignore[attr-defined]
    if found is None or len(found) != 1:
        return None
    text = next(iter(found))
    return text if isinstance(text, str) else None


def _custom_functions(model: object, values: v.Values, role: str) -> list[CustomFunction]:
    out: list[CustomFunction] = []
    if not v.all_of(values, lambda x: x.kind == v.FUNCTION and x.is_local):
        return out
    for value in values:
        entry = model.functions.get(value.local_id)  # type: ignore[attr-defined]
        if entry is None or entry.facts.name == "<lambda>":
            continue
        if any(_is_register(model, d, entry.block) for d in entry.facts.decorators):
            continue
        top = entry.facts.parent_id is None and entry.facts.class_id is None
        out.append(CustomFunction(entry.facts.name, role, top))
    return out


def _is_register(model: object, decorator: Term, block: int) -> bool:
    target = decorator.args[0] if decorator.tag == "call" else decorator
    return qualname_of(model.value(target, block)) == REGISTER  # type: ignore[attr-defined]


# A compile() in a header runs in the class body: left to ``whole``.
module_fact(FACT, _extract, _combine, reads_values=True, by_method=ByMethod(_part, _whole))


@detector("TFL409")
def custom_loss_not_loadable(ctx: BlockContext) -> None:
    fact = ctx.summary.extra.get(FACT)
    flow = ctx.summary.saving_flow
    if not isinstance(fact, tuple) or flow is None or flow.registers_by_hand:
        return
    functions, parameter_saves = fact
    sites = [(s.path, s.format, s.order[0], s.in_function) for s in flow.saves]
    sites.extend((path, fmt, block, True) for path, fmt, block in parameter_saves)
    keras3 = ctx.keras_version == 3
    formats = ("keras", "h5", None) if keras3 else ("keras", "h5")
    for call in ctx.index.nodes(ast.Call):
        if not may_call(ctx, call, ("load_model",)) or ctx.call_name(call) != LOAD_MODEL:
            continue
        if _in_scope(ctx, call):
            continue
        compile_flag = ctx.keyword(call, "compile")
        if compile_flag is not None or len(call.args) > 2:
            continue  # compile=False skips the loss; a computed flag: cannot tell
        covered = _covered(ctx, call)
        if covered is None:
            continue
        missing = [f for f in functions if isinstance(f, CustomFunction) and f.name not in covered]
        if not missing:
            continue
        path_node = call.args[0] if call.args else None
        if path_node is None:
            kw = ctx.keyword(call, "filepath")
            path_node = kw.value if kw is not None else None
        path = ctx.string(path_node) if path_node is not None else None
        in_function = ctx.index.enclosing_function(call) is not None
        if not any(
            fmt in formats
            and (saved is None or path is None or saved == path)
            and (in_function or saved_in_function or block <= ctx.ordinal)
            for saved, fmt, block, saved_in_function in sites
        ):
            continue
        first = missing[0]
        ctx.report(
            "TFL409",
            call,
            args={"function": first.name, "role": first.role},
            fix=_custom_objects_fix(ctx, call, [f for f in missing if f.top_level]),
        )


def _in_scope(ctx: BlockContext, call: ast.Call) -> bool:
    """Inside ``with custom_object_scope(...)`` (or a scope we cannot read): given."""
    for parent in ctx.index.ancestors(call):
        if isinstance(parent, (ast.With, ast.AsyncWith)):
            for item in parent.items:
                expr = item.context_expr
                if isinstance(expr, ast.Call) and ctx.call_name(expr) in SCOPES:
                    return True
    return False


def _covered(ctx: BlockContext, call: ast.Call) -> frozenset[str] | None:
    """Names ``custom_objects`` gives; None when it is given in a way we cannot read."""
    keyword = ctx.keyword(call, "custom_objects")
    node = keyword.value if keyword is not None else (call.args[1] if len(call.args) > 1 else None)
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return frozenset()
    if not isinstance(node, ast.Dict):
        return None
    names: set[str] = set()
    for key in node.keys:
        text = ctx.string(key) if key is not None else None
        if text is None:
            return None
        names.add(text.rpartition(">")[2])
    return frozenset(names)


def _custom_objects_fix(
    ctx: BlockContext, call: ast.Call, functions: list[CustomFunction]
) -> Fix | None:
    if not functions or call.keywords or len(call.args) != 1 or call.end_lineno is None:
        return None
    entries = ", ".join(f'"{f.name}": {f.name}' for f in functions)
    _, _, line, col = ctx.node_range(call.args[0])
    return ctx.fix(ctx.insert_at(line, col, f", custom_objects={{{entries}}}"), safe=False)
