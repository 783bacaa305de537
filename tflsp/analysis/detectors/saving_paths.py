"""Save/load family, file names (TFL404-TFL406), and the path and receiver helpers.

Keras 3 chooses the format from the file name: ``.keras`` (native), ``.h5`` (legacy HDF5),
``*.weights.h5`` for weights.  Only paths whose end the semantic model knows are checked
(constants, concatenation, f-strings, ``os.path.join``, ``pathlib`` ``/``, names bound to
them), and only on objects that are Keras models (a PIL image's ``save`` is not).
"""

from __future__ import annotations

import ast

from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.diagnostics import Edit, Fix
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.names import dotted
from tflsp.analysis.registry import detector, watch
from tflsp.analysis.semantic import values as v
from tflsp.analysis.summary import ModuleSummary

SAVE_FUNCTIONS = frozenset({"keras.saving.save_model", "keras.models.save_model"})
LOAD_FUNCTION = "keras.saving.load_model"
ORBAX_CALLBACK = "keras.callbacks.OrbaxCheckpoint"
watch(ORBAX_CALLBACK)


# -- paths -----------------------------------------------------------------------------------
def path_literal(
    expr: ast.AST | None, index: NodeIndex | None = None
) -> tuple[str, ast.expr] | None:
    """The literal text that ends a path expression, and the node holding it (for fixes).

    ``"m.keras"``, ``f"{run}/m.keras"``, ``os.path.join(d, "m")``, ``Path(d) / "m"``, ``str(...)``
    of those, and (with ``index``) a local name assigned once from one of them.  None when the
    end of the path is not written in the code.
    """
    for _ in range(4):  # a few hops through local names at most
        if not isinstance(expr, ast.Name) or index is None:
            break
        expr = assigned_value(index, expr)
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value, expr
    if isinstance(expr, ast.JoinedStr) and expr.values:
        last = expr.values[-1]
        if isinstance(last, ast.Constant) and isinstance(last.value, str):
            return last.value, expr
        return None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, (ast.Div, ast.Add)):
        return path_literal(expr.right)
    if isinstance(expr, ast.Call) and expr.args and not expr.keywords:
        text = dotted(expr.func) or ""
        if text.endswith("path.join"):
            return path_literal(expr.args[-1])
        if text in ("str", "os.fspath", "Path", "pathlib.Path") and len(expr.args) == 1:
            return path_literal(expr.args[0])
    return None


def path_end(ctx: BlockContext, expr: ast.AST | None) -> tuple[str, ast.expr | None] | None:
    """The known end of a path (its whole text when known) and, when the code spells that end
    as a literal we can edit, the literal."""
    if expr is None:
        return None
    text = ctx.string_end(expr)
    if text is None:
        return None
    found = path_literal(expr, ctx.index)
    literal = found[1] if found is not None and text.endswith(found[0]) else None
    if literal is not None and found is not None and found[0] != text:
        # The literal is only the end of a longer known text: edit it only if it is the end.
        literal = literal if text.endswith(found[0]) else None
    return text, literal


def assigned_value(index: NodeIndex, name: ast.Name) -> ast.expr | None:
    """The value of ``name`` when its scope binds it exactly once, with ``name = value``."""
    scope = index.enclosing_function(name)
    if scope is not None and name.id in {
        a.arg for a in ast.walk(scope.args) if isinstance(a, ast.arg)
    }:
        return None
    value: ast.expr | None = None
    for node in index.nodes(ast.Name):
        if node.id != name.id or not isinstance(node.ctx, ast.Store):
            continue
        if index.enclosing_function(node) is not scope:
            continue
        parent = index.parent(node)
        if value is not None or not (isinstance(parent, ast.Assign) and parent.targets == [node]):
            return None
        value = parent.value
    return value


def path_kind(expr: ast.AST | None, index: NodeIndex | None = None) -> str | None:
    """``keras`` | ``h5`` | ``other`` for a path written in the code, None when unknown."""
    found = path_literal(expr, index)
    if found is None:
        return None
    text = found[0]
    if text.endswith(".keras"):
        return "keras"
    if text.endswith((".h5", ".hdf5")):
        return "h5"
    return "other"


def argument(call: ast.Call, position: int, name: str) -> ast.expr | None:
    if len(call.args) > position:
        return call.args[position]
    for kw in call.keywords:
        if kw.arg == name:
            return kw.value
    return None


def with_suffix_edit(ctx: BlockContext, node: ast.expr, old: str, new: str) -> Fix | None:
    """Replace the end ``old`` of a string literal's text with ``new`` (both may be empty)."""
    source = ctx.source(node)
    quote = source[-3:] if source.endswith(('"""', "'''")) else source[-1:]
    if quote not in ('"', "'", '"""', "'''"):
        return None
    body = source[: -len(quote)]
    if old and not body.endswith(old):
        return None
    fixed = body[: len(body) - len(old)] + new + quote
    return ctx.fix(ctx.replace(node, fixed), safe=False)


# -- receivers -------------------------------------------------------------------------------
def is_keras_model(ctx: BlockContext, expr: ast.AST) -> bool:
    """Every value ``expr`` may hold is a Keras model (unknown: no)."""
    return ctx.is_instance_of(expr, "model")


# Keywords only Keras' ``Model.save`` takes: a ``save(...)`` call that passes one is a model
# save even when the receiver comes from a parameter.
KERAS_SAVE_KEYWORDS = frozenset({"save_format", "include_optimizer", "save_traces"})


def saves_a_keras_model(ctx: BlockContext, call: ast.Call) -> bool:
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr != "save":
        return False
    if is_keras_model(ctx, func.value):
        return True
    values = ctx.value(func.value)
    known_other = not v.is_unknown(values) and not v.any_of(
        values, lambda x: x.kind == v.INSTANCE and x.base == v.MODEL
    )
    return not known_other and any(kw.arg in KERAS_SAVE_KEYWORDS for kw in call.keywords)


def module_holds_model(text: str | None, summary: ModuleSummary) -> bool:
    """Does the module-level name path ``text`` (``model``, ``trainer.model``) hold a Keras
    model once the module has run?  For module-wide facts that have no block context."""
    if not text or summary.model is None:
        return False
    head, *attrs = text.split(".")
    values = summary.model.final(head)
    evaluator = summary.model.evaluator
    for attr in attrs:
        values = evaluator._attribute(values, attr)
    return v.all_of(values, lambda x: x.kind == v.INSTANCE and x.base == v.MODEL)


# -- TFL404 / TFL405 / TFL406: file names ----------------------------------------------------
_SAVING_NAMES = ("save", "save_model", "save_weights", "load_weights", "load_model")


@detector("TFL404", "TFL405", "TFL406")
def save_paths(ctx: BlockContext) -> None:
    if not ctx.wants("TFL404", "TFL405", "TFL406"):
        return
    keras3 = ctx.keras_version == 3
    for call in calls_of(ctx, _SAVING_NAMES, _SAVING_NAMES):
        func = call.func
        last = _last(func)
        name = ctx.resolve(func)
        if name == LOAD_FUNCTION:
            if keras3:
                _check_model_load(ctx, argument(call, 0, "filepath"))
        elif name in SAVE_FUNCTIONS:
            model = argument(call, 0, "model")
            _check_model_save(ctx, call, model, argument(call, 1, "filepath"), keras3)
        elif name in ("keras.saving.save_weights", "keras.saving.load_weights"):
            if keras3:
                _check_weights(ctx, call, last, argument(call, 1, "filepath"))
        elif last == "save" and saves_a_keras_model(ctx, call):
            assert isinstance(func, ast.Attribute)
            _check_model_save(ctx, call, func.value, argument(call, 0, "filepath"), keras3)
        elif (
            isinstance(func, ast.Attribute)
            and last not in ("save", "save_model")
            and keras3
            and is_keras_model(ctx, func.value)
        ):
            _check_weights(ctx, call, last, argument(call, 0, "filepath"))


def _last(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _check_model_save(
    ctx: BlockContext, call: ast.Call, model: ast.expr | None, path: ast.expr | None, keras3: bool
) -> None:
    found = path_end(ctx, path)
    save_format = ctx.keyword(call, "save_format")
    zipped = ctx.keyword(call, "zipped")
    text = found[0] if found else None
    if keras3 and save_format is not None:
        ctx.report(
            "TFL404",
            save_format,
            message="save_format",
            fix=_drop_save_format(ctx, call, save_format, found),
        )
        return
    if text is None:
        return
    is_h5 = text.endswith((".h5", ".hdf5"))
    if keras3 and not is_h5 and not text.endswith(".keras"):
        unzipped = zipped is not None and not (
            isinstance(zipped.value, ast.Constant) and zipped.value.value is True
        )
        if unzipped or text.startswith("hf://") or not text:
            return
        fix = None
        if found is not None and found[1] is not None and not text.endswith(("/", "\\")):
            fix = with_suffix_edit(ctx, found[1], "", ".keras")
        ctx.report("TFL404", path or call, args={"path": text}, fix=fix)
    elif is_h5 and found is not None:
        variant = "default"
        if not keras3 and model is not None and _subclassed_model(ctx, model):
            variant = "keras2_subclassed"
        old = ".h5" if text.endswith(".h5") else ".hdf5"
        fix = with_suffix_edit(ctx, found[1], old, ".keras") if found[1] is not None else None
        ctx.report("TFL406", path or call, message=variant, args={"path": text}, fix=fix)


def _check_model_load(ctx: BlockContext, path: ast.expr | None) -> None:
    """Keras 3 load_model() reads .keras/.h5 files, not TensorFlow SavedModel directories."""
    found = path_end(ctx, path)
    if found is None or path is None:
        return
    text = found[0]
    if not text or text.endswith((".keras", ".h5", ".hdf5")) or text.startswith("hf://"):
        return
    ctx.report("TFL404", path, message="load", args={"path": text})


def _subclassed_model(ctx: BlockContext, model: ast.expr) -> bool:
    """An instance of a Model subclass of this module."""
    return v.all_of(
        ctx.value(model), lambda x: x.kind == v.INSTANCE and x.is_local and x.base == v.MODEL
    )


def _drop_save_format(
    ctx: BlockContext,
    call: ast.Call,
    keyword: ast.keyword,
    found: tuple[str, ast.expr | None] | None,
) -> Fix | None:
    """Remove ``save_format=...`` and, for a bare literal name, add the matching suffix."""
    if found is None or found[1] is None:
        return None
    text, literal = found
    assert literal is not None
    value = keyword.value
    wanted = "h5" if isinstance(value, ast.Constant) and value.value == "h5" else "keras"
    edits: list[Edit] = []
    if not text.endswith((".keras", ".h5", ".hdf5")):
        suffix_fix = (
            None if text.endswith(("/", "\\")) else with_suffix_edit(ctx, literal, "", f".{wanted}")
        )
        if suffix_fix is None:
            return None
        edits.extend(suffix_fix.edits)
    edits.append(_removeargument(ctx, call, keyword))
    return ctx.fix(*edits, safe=False)


def _removeargument(ctx: BlockContext, call: ast.Call, keyword: ast.keyword) -> Edit:
    """Delete one keyword argument with the comma that separates it from its neighbour."""
    arguments: list[ast.AST] = sorted(
        [*call.args, *call.keywords], key=lambda n: ctx.node_range(n)[:2]
    )
    position = arguments.index(keyword)
    line, col, end_line, end_col = ctx.node_range(keyword)
    if position > 0:
        _, _, line, col = ctx.node_range(arguments[position - 1])
    elif position + 1 < len(arguments):
        end_line, end_col = ctx.node_range(arguments[position + 1])[:2]
    return Edit(line, col, end_line, end_col, "")


def _check_weights(ctx: BlockContext, call: ast.Call, method: str, path: ast.expr | None) -> None:
    found = path_end(ctx, path)
    if found is None:
        return
    text, literal = found
    if method == "save_weights":
        sharded = ctx.keyword(call, "max_shard_size") is not None
        if text.endswith(".weights.h5") or (sharded and text.endswith(".weights.json")):
            return
    elif text.endswith((".keras", ".weights.h5", ".weights.json", ".h5", ".hdf5")):
        return
    elif _uses_orbax(ctx):
        return  # Keras 3 load_weights() also reads Orbax checkpoint directories
    if not text or text.endswith(("/", "\\")):
        fix = None
    else:
        old = next(
            (s for s in (".h5", ".hdf5", ".ckpt", ".tf", ".weights") if text.endswith(s)), ""
        )
        fix = with_suffix_edit(ctx, literal, old, ".weights.h5") if literal is not None else None
    ctx.report("TFL405", path or call, message=method, args={"path": text}, fix=fix)


def _uses_orbax(ctx: BlockContext) -> bool:
    return ctx.summary.has(ORBAX_CALLBACK) or any(
        "orbax" in target.lower() for target in ctx.summary.imports.values()
    )
