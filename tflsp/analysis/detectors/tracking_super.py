"""TFL308: ``super().__init__()`` of a Keras layer or model called the wrong way.

In the ``__init__`` of a class of this module whose TF/Keras base kind is layer or model:

- ``super(Base, self).__init__(...)`` where ``Base`` is a Keras library class: the lookup starts
  after ``Base``, so ``Base.__init__`` never runs;
- ``super().__init__(self, ...)``: the instance passed again (a layer on either Keras; a model
  on Keras 3 only: tf-keras's ``Model.__init__`` drops extra positional arguments);
- ``self.<attribute> = ...`` before the ``super().__init__()`` statement, where the attribute is
  one the Keras base class owns in the API data of the targeted Keras (``supports_masking``,
  ``trainable``, ...): the Keras constructor then resets it.  ``dtype`` and ``name`` are left
  out: their assignment raises (read-only) rather than being reset, on one version or both.

A missing call is TFL305's.
"""

from __future__ import annotations

import ast

from tflsp.analysis import apidata
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors.keras3_support import data_class, local_class_bases, raw_name
from tflsp.analysis.diagnostics import Edit, Fix
from tflsp.analysis.names import super_call
from tflsp.analysis.registry import detector

_NOT_RESET = frozenset({"dtype", "name"})


@detector("TFL308")
def super_init_misused(ctx: BlockContext) -> None:
    for cls, kind in ctx.keras_classes():
        if kind not in ("layer", "model"):
            continue
        init = next(
            (s for s in cls.body if isinstance(s, ast.FunctionDef) and s.name == "__init__"), None
        )
        if init is None or not init.args.args:
            continue
        self_name = init.args.args[0].arg
        model_on_keras2 = kind == "model" and _keras2_class(ctx, cls)
        super_stmt = _check_super_calls(ctx, cls, init, self_name, model_on_keras2)
        if super_stmt is not None:
            _attributes_before(ctx, cls, init, super_stmt, self_name)


def _keras2_class(ctx: BlockContext, cls: ast.ClassDef) -> bool:
    """The class runs on Keras 2: the target is Keras 2, or a direct base is ``tf_keras``'s."""
    if ctx.keras_version != 3:
        return True
    return any((raw_name(ctx, base) or "").startswith("tf_keras") for base in cls.bases)


def _check_super_calls(
    ctx: BlockContext,
    cls: ast.ClassDef,
    init: ast.FunctionDef,
    self_name: str,
    model_on_keras2: bool,
) -> ast.stmt | None:
    """Report wrong super() calls in ``init``; the top-level statement holding the first one."""
    first: ast.stmt | None = None
    for stmt in init.body:
        for node in ast.walk(stmt):
            call = super_call(node, "__init__")
            if call is None:
                continue
            if first is None:
                first = stmt
            assert isinstance(call.func, ast.Attribute)
            sup = call.func.value
            assert isinstance(sup, ast.Call)
            if sup.args:
                _explicit_base(ctx, cls, sup, self_name)
            # tf-keras's Model.__init__ takes *args and drops them: the extra self is harmless
            # there (checked on tf-keras 2.21); its Layer.__init__ takes it as `trainable`.
            if (
                not model_on_keras2
                and call.args
                and isinstance(call.args[0], ast.Name)
                and call.args[0].id == self_name
            ):
                ctx.report(
                    "TFL308", call.args[0], message="self_argument", fix=_drop_self(ctx, call)
                )
    return first


def _explicit_base(ctx: BlockContext, cls: ast.ClassDef, sup: ast.Call, self_name: str) -> None:
    """``super(X, self)`` with ``X`` a Keras library class (not this class)."""
    if len(sup.args) != 2 or not (
        isinstance(sup.args[1], ast.Name) and sup.args[1].id == self_name
    ):
        return
    first = sup.args[0]
    if isinstance(first, ast.Name) and first.id == cls.name:
        return
    name = ctx.qualname(first)
    if name is None or not name.startswith("keras."):
        return
    if apidata.kind(name, "keras3") != "class" and apidata.kind(name, "tf_keras") != "class":
        return
    fix = ctx.fix(ctx.replace(sup, "super()"), safe=True, call="super().__init__(...)")
    ctx.report("TFL308", sup, args={"base": ctx.source(first)}, fix=fix)


def _drop_self(ctx: BlockContext, call: ast.Call) -> Fix:
    first = call.args[0]
    rest: list[ast.AST] = [*call.args[1:], *call.keywords]
    line, col, end_line, end_col = ctx.node_range(first)
    if rest:
        end_line, end_col = ctx.node_range(min(rest, key=lambda n: ctx.node_range(n)[:2]))[:2]
    return ctx.fix(Edit(line, col, end_line, end_col, ""), safe=True, call="super().__init__()")


def _attributes_before(
    ctx: BlockContext,
    cls: ast.ClassDef,
    init: ast.FunctionDef,
    super_stmt: ast.stmt,
    self_name: str,
) -> None:
    bases, _ = local_class_bases(ctx, ctx.class_id(cls), "__init__")
    flavor = "keras3" if ctx.keras_version == 3 else "tf_keras"
    owners = [c for c in (data_class(b, flavor) for b in bases) if c is not None]
    if not owners:
        return
    for stmt in init.body:
        if stmt is super_stmt:
            return
        targets = stmt.targets if isinstance(stmt, ast.Assign) else []
        if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
            targets = [stmt.target]
        for target in targets:
            if not (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == self_name
            ):
                continue
            attr = target.attr
            if attr in _NOT_RESET or attr.startswith("_"):
                continue
            if any(apidata.kind(f"{owner}.{attr}", flavor) == "other" for owner in owners):
                ctx.report("TFL308", target, message="overwritten", args={"attribute": attr})
