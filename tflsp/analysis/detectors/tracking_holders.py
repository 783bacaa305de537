"""TFL304: Keras state kept where Keras does not look (helpers, sets, globals, class bodies).

Keras collects weights by walking a layer's attributes and the lists, dicts and tuples stored
there.  The two module facts below carry what other blocks define (helper classes, global
layers) to the block of the model that uses them.
"""

from __future__ import annotations

import ast
from collections.abc import Hashable, Iterator, Sequence

from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.tracking_support import (
    WEIGHTED,
    Method,
    canonical_kind,
    first_param,
    has_keras_class,
    keras_method,
    last_name,
    local_class_kind,
    self_assignments,
    state_kind,
    stateless_local_layer,
    stored_where,
    within,
)
from tflsp.analysis.index import FunctionNode, NodeIndex
from tflsp.analysis.method_parts import MethodBody, Pieces
from tflsp.analysis.names import dotted
from tflsp.analysis.registry import ByMethod, detector, module_fact
from tflsp.analysis.semantic import values as v
from tflsp.analysis.summary import ModuleSummary

# -- module fact: plain classes whose instances hold Keras state ---------------------------
HOLDERS_FACT = "tracking.holders"


def _constructor_calls(value: ast.AST) -> Iterator[ast.Call]:
    if isinstance(value, ast.Call):
        yield value
    elif isinstance(value, (ast.List, ast.Tuple, ast.Set)):
        for item in value.elts:
            yield from _constructor_calls(item)
    elif isinstance(value, ast.Dict):
        for item in value.values:
            yield from _constructor_calls(item)
    elif isinstance(value, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        yield from _constructor_calls(value.elt)
    elif isinstance(value, ast.DictComp):
        yield from _constructor_calls(value.value)


def _extract_holders(index: NodeIndex) -> Hashable:
    """``(class id, attr, callee)`` for ``self.attr = callee(...)`` in methods of any class."""
    return _holders_in(index, index.nodes(ast.Assign))


_Stored = tuple[tuple[str, str, str], ...]


def _holders_part(body: MethodBody) -> _Stored:
    """A method's ``self.attr = callee(...)``: syntax, and the ids of its class and of the
    classes in it (their names: in the method's text and local ids)."""
    return _holders_in(body.index, body.nodes(ast.Assign))


def _whole_holders(index: NodeIndex, pieces: Pieces[_Stored]) -> _Stored:
    out: list[tuple[str, str, str]] = []
    for piece, run in pieces.cut(index.nodes(ast.Assign)):
        out.extend(piece.part if piece is not None else _holders_in(index, run))
    return tuple(out)


def _holders_in(index: NodeIndex, assigns: Sequence[ast.Assign]) -> _Stored:
    out: list[tuple[str, str, str]] = []
    for assign in assigns:
        fn = index.enclosing_function(assign)
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        owner = index.parent(fn)
        if not isinstance(owner, ast.ClassDef):
            continue
        self_name = first_param(fn)
        for target in assign.targets:
            if not (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == self_name
            ):
                continue
            for call in _constructor_calls(assign.value):
                callee = dotted(call.func)
                if callee is not None:
                    out.append((index.scope_id(owner), target.attr, callee))
    return tuple(out)


def _combine_holders(values: Sequence[Hashable], summary: ModuleSummary) -> Hashable:
    """Ids of local non-Keras classes (plain or tf.Module) that keep Keras state on ``self``."""
    stored: list[tuple[str, str]] = []
    for value in values:
        if isinstance(value, tuple):
            stored.extend((class_id, callee) for class_id, _, callee in value)
    holders: set[str] = set()
    changed = True
    # A plain class holding an instance of another holder class is a holder too.
    while changed:
        changed = False
        for class_id, callee in stored:
            if class_id in holders or summary.keras_classes.get(class_id) in ("layer", "model"):
                continue
            qualname = summary.resolve(callee)
            kind = canonical_kind(qualname) if qualname else None
            if kind is None and "." not in callee:
                local = local_class_kind(summary, callee)
                if local is not None:
                    kind = "holder" if local[0] in holders else local[1]
            if kind in WEIGHTED or kind == "holder":
                holders.add(class_id)
                changed = True
    return frozenset(holders)


# Assignments are statements: none lies in a header, so a part takes its whole method.
module_fact(
    HOLDERS_FACT,
    _extract_holders,
    _combine_holders,
    by_method=ByMethod(_holders_part, _whole_holders, header=True),
)


def holder_classes(summary: ModuleSummary) -> frozenset[str]:
    value = summary.extra.get(HOLDERS_FACT)
    return value if isinstance(value, frozenset) else frozenset()


# -- names outside any class that hold Keras state -----------------------------------------
def _outer_state(ctx: BlockContext, name: ast.Name) -> str | None:
    """``layer`` | ``model`` | ``variable`` when ``name`` is read from outside its function (a
    module global or a closure) and surely holds such an object."""
    reach = ctx.semantics.flow.uses.get(name)
    if reach is None or reach.defs or not reach.outer:
        return None
    values = ctx.value(name)

    def weighted_layer(x: v.Value) -> bool:
        if x.kind != v.INSTANCE or x.base != v.LAYER:
            return False
        if x.is_local:
            return not stateless_local_layer(ctx, x.local_id)
        return canonical_kind(x.ref) in WEIGHTED  # not ReLU, Flatten...

    if v.all_of(values, weighted_layer):
        return "layer"
    if v.all_of(values, lambda x: x.kind == v.INSTANCE and x.base == v.MODEL):
        return "model"
    if v.all_of(values, lambda x: x.kind in (v.VARIABLE, v.KERAS_VARIABLE)):
        return "variable"
    return None


# -- TFL304: Keras state kept where Keras does not look -------------------------------------
def _holder_kind(ctx: BlockContext, cls: ast.ClassDef, attr: str) -> str | None:
    """``plain`` or ``module`` when every ``self.attr = ...`` in ``cls`` makes such an object."""
    kinds: set[str] = set()
    for name, value in self_assignments(ctx, cls):
        if name != attr:
            continue
        built = state_kind(ctx, value) if isinstance(value, ast.Call) else None
        if built is None or built.kind not in ("plain", "module"):
            return None
        kinds.add(built.kind)
    if not kinds:
        return None
    return "module" if "module" in kinds else "plain"


def _report_stored(
    ctx: BlockContext, call: ast.Call, method: Method, holders: frozenset[str]
) -> None:
    store = stored_where(ctx, call, method)
    if store is None:
        return
    # A plain attribute of self only matters for instances of local helper classes; skip the
    # name resolution for the common ``self.dense = Dense(...)``.
    if (
        store.owner == "self"
        and not store.in_set
        and not (isinstance(call.func, ast.Name) and local_class_kind(ctx.summary, call.func.id))
    ):
        return
    built = state_kind(ctx, call)
    if built is None:
        return
    args = {"what": built.name, "cls": method.cls.name, "attr": f"self.{store.path}"}
    three = ctx.keras_version == 3
    if built.kind in WEIGHTED:
        if store.owner == "helper":
            holder = _holder_kind(ctx, method.cls, store.attr)
            if holder == "plain":
                ctx.report(
                    "TFL304", call, message="default", args={**args, "holder": f"self.{store.attr}"}
                )
            elif holder == "module" and three:
                ctx.report(
                    "TFL304", call, message="module", args={**args, "holder": f"self.{store.attr}"}
                )
        elif store.in_set and not three and built.kind in ("layer", "model"):
            ctx.report("TFL304", call, message="set", args=args)
    elif built.kind in ("plain", "module") and store.owner == "self":
        if built.class_id is None or built.class_id not in holders:
            return
        if built.kind == "plain":
            ctx.report("TFL304", call, message="helper_class", args=args)
        elif three:
            ctx.report("TFL304", call, message="module_class", args=args)


def _class_attribute(ctx: BlockContext, call: ast.Call) -> None:
    """``class Net(keras.Model): head = Dense(1)`` - one layer shared by the class, untracked."""
    parent = ctx.index.parent(call)
    while parent is not None and not isinstance(parent, ast.stmt):
        parent = ctx.index.parent(parent)
    if not isinstance(parent, (ast.Assign, ast.AnnAssign)):
        return
    cls = ctx.index.parent(parent)
    if not isinstance(cls, ast.ClassDef) or ctx.keras_kind(cls) not in ("layer", "model"):
        return
    built = state_kind(ctx, call)
    if built is None or built.kind not in WEIGHTED:
        return
    targets = parent.targets if isinstance(parent, ast.Assign) else [parent.target]
    names = [t.id for t in targets if isinstance(t, ast.Name)]
    if names:
        ctx.report(
            "TFL304",
            targets[0],
            message="class_attribute",
            args={"what": built.name, "cls": cls.name, "attr": names[0]},
        )


def _bound_names(fn: FunctionNode) -> frozenset[str]:
    a = fn.args
    names = {p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)}
    names.update(p.arg for p in (a.vararg, a.kwarg) if p is not None)
    declared: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            declared.update(node.names)
    return frozenset(names - declared)


def _outer_names_in_call(ctx: BlockContext) -> None:
    """A global or closure layer called from ``call`` is not an attribute, so it is untracked."""
    if not has_keras_class(ctx):
        return
    reported: set[tuple[int, str]] = set()
    bound: dict[ast.AST, frozenset[str]] = {}
    stored: dict[ast.AST, frozenset[str]] = {}
    uses = ctx.semantics.flow.uses
    imports = ctx.summary.imports
    for name in ctx.index.nodes(ast.Name):
        if not isinstance(name.ctx, ast.Load) or name.id in ("self", "cls"):
            continue
        reach = uses.get(name)
        if reach is None or reach.defs or not reach.outer or name.id in imports:
            continue  # bound in its own function, or a module import: not Keras state
        if keras_method(ctx, name) is None:
            continue
        kind = _outer_state(ctx, name)
        if kind is None:
            continue
        parent = ctx.index.parent(name)
        if kind in ("layer", "model") and not (
            isinstance(parent, ast.Call) and parent.func is name
        ):
            continue
        method = keras_method(ctx, name)
        if method is None or not _on_call_path(ctx, name, method):
            continue
        if (id(method.cls), name.id) in reported:
            continue
        names = bound.get(method.fn)
        if names is None:
            names = bound[method.fn] = _bound_names(method.fn)
        if name.id in names:
            continue
        kept = stored.get(method.cls)
        if kept is None:
            kept = stored[method.cls] = _names_kept(ctx, method.cls)
        if name.id in kept:
            continue
        reported.add((id(method.cls), name.id))
        ctx.report(
            "TFL304",
            name,
            message="global",
            args={"what": name.id, "cls": method.cls.name, "attr": name.id},
        )


_WEIGHT_LISTS = frozenset({"trainable_variables", "trainable_weights", "variables", "weights"})


def _names_kept(ctx: BlockContext, cls: ast.ClassDef) -> frozenset[str]:
    """Names the class keeps on self, or whose variables it handles itself (GAN-style loops)."""
    kept: set[str] = set()
    for _, value in self_assignments(ctx, cls):
        kept.update(n.id for n in ast.walk(value) if isinstance(n, ast.Name))
    for attr in ctx.index.nodes(ast.Attribute):
        if attr.attr in _WEIGHT_LISTS and isinstance(attr.value, ast.Name) and within(cls, attr):
            kept.add(attr.value.id)
    return frozenset(kept)


def _on_call_path(ctx: BlockContext, node: ast.AST, method: Method) -> bool:
    if method.fn.name == "call":
        return True
    info = ctx.graph_info(node)
    if info is None:
        return False
    origin = ctx.summary.functions.get(info.origin)
    return (
        origin is not None
        and origin.name == "call"
        and origin.class_id == ctx.index.scope_id(method.cls)
    )


@detector("TFL304")
def layer_in_untracked_holder(ctx: BlockContext) -> None:
    if not has_keras_class(ctx):
        return
    holders = holder_classes(ctx.summary)
    for call in ctx.index.nodes(ast.Call):
        if not last_name(call.func)[:1].isupper() and last_name(call.func) != "SimpleNamespace":
            continue
        method = keras_method(ctx, call)
        if method is not None:
            _report_stored(ctx, call, method, holders)
        elif isinstance(ctx.index.enclosing_scope(call), ast.ClassDef):
            _class_attribute(ctx, call)
    _outer_names_in_call(ctx)
