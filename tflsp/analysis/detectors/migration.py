"""Migration family (TFL601-TFL603): TF1 names, deprecated APIs and calls of modules.

The Keras-3-specific checks (TFL604 mixing Kerases, TFL605 TensorFlow ops on ``keras.Input``)
live in :mod:`tflsp.analysis.detectors.migration_keras`.

These detectors look at every attribute chain of a block, so each one first checks a cheap
condition (the chain starts at a name bound to TensorFlow, the attribute has one specific
name) before resolving anything.
"""

from __future__ import annotations

import ast
from functools import lru_cache

from tflsp.analysis import apidata
from tflsp.analysis.block_names import attributes_named, calls_of, name_chains
from tflsp.analysis.context import BlockContext
from tflsp.analysis.detectors import keras_backend_names as kb
from tflsp.analysis.detectors.tf1_names import DATASET_V1_METHODS, Removed, lookup
from tflsp.analysis.diagnostics import Edit
from tflsp.analysis.names import canonical, dotted, import_bindings
from tflsp.analysis.registry import detector
from tflsp.analysis.semantic.guards import expects_missing, unreachable_on_tf2
from tflsp.analysis.summary import ModuleSummary

TF_PREFIX = "tensorflow."


def _module_tensorflow_heads(summary: ModuleSummary) -> dict[str, str]:
    return {
        local: target
        for local, target in summary.imports.items()
        if _is_tensorflow(target) and not canonical(target).startswith("keras")
    }


def tensorflow_heads(ctx: BlockContext) -> dict[str, str]:
    """Local names bound to ``tensorflow`` or one of its (non-Keras) submodules -> target."""
    heads = dict(ctx.summary.derived("migration.tensorflow_heads", _module_tensorflow_heads))
    imports: list[ast.Import | ast.ImportFrom] = [
        *ctx.index.nodes(ast.Import),
        *ctx.index.nodes(ast.ImportFrom),
    ]
    for node in imports:
        if ctx.index.enclosing_function(node) is not None:
            for local, target in import_bindings(node):
                if _is_tensorflow(target) and not canonical(target).startswith("keras"):
                    heads.setdefault(local, target)
    return heads


def _is_tensorflow(target: str) -> bool:
    return target == "tensorflow" or target.startswith(TF_PREFIX)


def is_outermost(ctx: BlockContext, node: ast.Attribute) -> bool:
    parent = ctx.index.parent(node)
    return not (isinstance(parent, ast.Attribute) and parent.value is node)


def assigned(ctx: BlockContext, node: ast.expr) -> bool:
    """``node`` is only written (``mod.name = ...``): giving a module or object a name it lacks
    is no use of that name.  ``+=`` reads it first and ``del`` fails on a missing one."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Store)
        and not isinstance(ctx.index.parent(node), ast.AugAssign)
    )


def raw_target(ctx: BlockContext, expr: ast.expr) -> str | None:
    """The dotted target before Keras spellings are merged (``tensorflow.keras.backend.mean``)."""
    text = dotted(expr)
    if text is None:
        return None
    head, _, rest = text.partition(".")
    target = ctx.summary.imports.get(head)
    if target is None:
        return None
    return f"{target}.{rest}" if rest else target


# -- TFL601 ----------------------------------------------------------------------------------


@detector("TFL601")
def tf1_removed_api(ctx: BlockContext) -> None:
    version = ctx.keras_version
    for node, root in name_chains(ctx):
        if root.id in ("self", "cls") or _parameter(ctx, root):
            continue  # an object, not a module
        # A cheap look at what the chain starts from first (aliases, ``tf1 = tf.compat.v1``
        # and imports inside functions included); the whole chain only on a hit.
        head = ctx.qualname(root)
        if head is None or not (head == "tensorflow" or head.startswith(TF_PREFIX)):
            continue
        if head.startswith(TF_PREFIX) and _removed_path(head, 0) is not None:
            continue  # the import itself is reported; its uses would only repeat it
        qual = ctx.qualname(node)
        found = _removed_path(qual, version) if qual is not None else None
        if found is None or qual is None:
            continue
        path, key, entry = found
        strip = path.count(".") - key.count(".")
        sub: ast.expr = node
        for _ in range(strip):
            if isinstance(sub, ast.Attribute):
                sub = sub.value
        if assigned(ctx, sub):
            continue
        _report_removed(ctx, sub, key, entry)
    _removed_imports(ctx, version)
    _dataset_v1_methods(ctx)


_COMPAT_V1 = "tensorflow.compat.v1."


def _parameter(ctx: BlockContext, name: ast.Name) -> bool:
    reach = ctx.semantics.flow.uses.get(name)
    return (
        reach is not None and bool(reach.defs) and all(isinstance(d, ast.arg) for d in reach.defs)
    )


@lru_cache(maxsize=4096)  # asked for every TensorFlow chain of every block
def _removed_path(qual: str, version: int) -> tuple[str, str, Removed] | None:
    """``(path below tensorflow, removed key, entry)`` when ``qual`` does not exist on TF 2.21.

    Below ``tf.compat.v1`` (also when the module imports it as ``tf``) only the names that
    are gone from it too count (``estimator``, ``contrib``); ``tf.compat.v1.layers`` failing
    with Keras 3 is TFL306's.
    """
    if qual.startswith(_COMPAT_V1):
        path = qual[len(_COMPAT_V1) :]
        found = lookup(path, version)
        if found is None or found[1].compat:
            return None
        return path, found[0], found[1]
    if not qual.startswith(TF_PREFIX):
        return None
    path = qual[len(TF_PREFIX) :]
    found = lookup(path, version)
    return (path, found[0], found[1]) if found is not None else None


def _tf2_exists(name: str) -> bool | None:
    """Does ``name`` exist on TF 2.21, whichever Keras it runs with (None: it depends)?"""
    found = {apidata.exists(name, flavor) for flavor in ("tensorflow", "tf_keras")}
    return found.pop() if len(found) == 1 else None


def _assigned_values(ctx: BlockContext, name: ast.Name) -> list[ast.expr] | None:
    """The values assigned to ``name`` that reach this use (None: not all known here)."""
    reach = ctx.reaching(name)
    if reach is None or reach.outer or not reach.defs:
        return None
    out = []
    for binding in reach.defs:
        parent = ctx.index.parent(binding)
        if not isinstance(parent, ast.Assign) or parent.targets != [binding]:
            return None
        out.append(parent.value)
    return out


def compat_branch(ctx: BlockContext, node: ast.AST) -> bool:
    """``node`` only runs where the TF1 API exists (``if hasattr(tf, "contrib"):``, a test of
    ``tf.__version__``), or sits in a ``try`` that expects it to be missing."""
    return expects_missing(ctx.index, node) or unreachable_on_tf2(
        ctx.index, node, ctx.qualname, _tf2_exists, lambda name: _assigned_values(ctx, name)
    )


def _report_removed(ctx: BlockContext, node: ast.expr, key: str, entry: Removed) -> None:
    if compat_branch(ctx, node):
        return
    args = {"name": ctx.source(node), "replacement": entry.replacement, "path": key}
    variant = _variant(ctx, key, entry)
    fix = None
    if entry.rename is not None:
        prefix: ast.expr = node
        for _ in range(key.count(".") + 1):
            if not isinstance(prefix, ast.Attribute):
                break
            prefix = prefix.value
        else:
            if ctx.resolve(prefix) == "tensorflow":
                new = f"{ctx.source(prefix)}.{entry.rename}"
                fix = ctx.fix(ctx.replace(node, new), safe=True, new=new)
    ctx.report("TFL601", node, message=variant, args=args, fix=fix)


def _variant(ctx: BlockContext, key: str, entry: Removed) -> str:
    if key == "contrib":
        return "contrib"
    if entry.kind == "removed" and entry.compat_fails_on_keras3 and ctx.keras_version == 3:
        return "compat_fails_on_keras3"
    if entry.kind == "removed" and not entry.compat:
        return "gone"
    return "default" if entry.kind == "removed" else entry.kind


def _removed_imports(ctx: BlockContext, version: int) -> None:
    for node in ctx.index.nodes(ast.Import):
        for alias in node.names:
            if alias.name.startswith(TF_PREFIX):
                _report_import(ctx, node, alias.name, version)
    for imp in ctx.index.nodes(ast.ImportFrom):
        module = imp.module or ""
        if imp.level or not (module == "tensorflow" or module.startswith(TF_PREFIX)):
            continue
        if module != "tensorflow" and _report_import(ctx, imp, module, version):
            continue
        for alias in imp.names:
            if alias.name != "*":
                _report_import(ctx, imp, f"{module}.{alias.name}", version)


def _report_import(ctx: BlockContext, node: ast.stmt, qual: str, version: int) -> bool:
    found = _removed_path(canonical(qual), version)
    if found is None:
        return False
    if compat_branch(ctx, node):
        return True
    _, key, entry = found
    if key == "contrib" or not entry.replacement:
        variant = "import_contrib" if key == "contrib" else "import_delete"
    else:
        variant = "import"
    args = {"name": f"tensorflow.{key}", "replacement": entry.replacement, "path": key}
    ctx.report("TFL601", node, message=variant, args=args)
    return True


def _imports_compat_v1(summary: ModuleSummary) -> bool:
    return any(t.startswith("tensorflow.compat.v1") for t in summary.imports.values())


def _dataset_v1_methods(ctx: BlockContext) -> None:
    if ctx.summary.derived("migration.imports_compat_v1", _imports_compat_v1):
        return  # tf.compat.v1 datasets still have these methods
    for call in calls_of(ctx, methods=DATASET_V1_METHODS):
        func = call.func
        if isinstance(func, ast.Attribute) and not call.args and ctx.is_dataset(func.value):
            ctx.report(
                "TFL601",
                ctx.attribute_span(func, end=call),
                message="method",
                args={"name": f".{func.attr}()", "replacement": "`iter(dataset)`", "path": ""},
            )


# -- TFL602 ----------------------------------------------------------------------------------

# Libraries whose tensors have .cpu()/.gpu() methods of their own.
_OTHER_TENSOR_LIBRARIES = ("torch", "mxnet", "chainer", "cupy", "paddle", "jax")


def _tensorflow_devices(summary: ModuleSummary) -> bool:
    """Does ``.cpu()``/``.gpu()`` mean TensorFlow's here (no other tensor library imported)?"""
    imports = summary.imports.values()
    uses_tf = any(_is_tensorflow(t) for t in imports)
    return uses_tf and not any(t.split(".", 1)[0] in _OTHER_TENSOR_LIBRARIES for t in imports)


@detector("TFL602")
def deprecated_api(ctx: BlockContext) -> None:
    if ctx.summary.derived("migration.tensorflow_devices", _tensorflow_devices):
        _device_methods(ctx)
    # Deprecated arguments that still run are TFL606's; ``lr=`` stays here because it fails
    # (Keras 3) or silently keeps the default learning rate (Keras 2).
    for call in calls_of(ctx, _GPU_CHECK, _GPU_CHECK, ("lr",)):
        func = call.func
        name = ctx.resolve(func)
        if name is None:
            continue
        if name == "tensorflow.test.is_gpu_available":
            ctx.report("TFL602", call, message="is_gpu_available", args={"name": ctx.source(func)})
        elif name.startswith("keras.optimizers.") and name.rpartition(".")[2][:1].isupper():
            _renamed_keyword(ctx, call)
    for node in attributes_named(ctx, _DEPRECATED_ATTRIBUTES):
        if node.attr == "lr":
            _optimizer_lr(ctx, node)
        elif isinstance(node.value, (ast.Attribute, ast.Name)) and is_outermost(ctx, node):
            _keras_backend(ctx, node)


_GPU_CHECK = ("is_gpu_available",)
# ``.lr`` of an optimizer, and the keras.backend functions Keras 3 dropped (_keras_backend).
_DEPRECATED_ATTRIBUTES = frozenset({"lr", *kb.MISSING_IN_KERAS3})


def _device_methods(ctx: BlockContext) -> None:
    """``x.cpu()``/``x.gpu()`` on a TensorFlow tensor (a torch tensor has them too: the value
    decides, not the method name)."""
    for call in calls_of(ctx, methods=("gpu", "cpu")):
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and not call.args
            and not call.keywords
            and ctx.is_instance_of(func.value, "tensor")
        ):
            ctx.report(
                "TFL602",
                ctx.attribute_span(func, end=call),
                message=func.attr,
                args={"name": f".{func.attr}()"},
            )


def _renamed_keyword(ctx: BlockContext, call: ast.Call) -> None:
    old, new = "lr", "learning_rate"
    kw = ctx.keyword(call, old)
    if kw is None:
        return
    fix = None
    if ctx.keyword(call, new) is None:
        line, col, _, _ = ctx.node_range(kw)
        fix = ctx.fix(Edit(line, col, line, col + len(old), new), safe=True, new=new)
    ctx.report("TFL602", kw, message="lr_keyword", args={"name": old, "new": new}, fix=fix)


def _optimizer_lr(ctx: BlockContext, node: ast.Attribute) -> None:
    if ctx.keras_version != 3 or not _looks_like_optimizer(ctx, node.value):
        return
    _, _, end_line, end_col = ctx.node_range(node)
    edit = Edit(end_line, end_col - 2, end_line, end_col, "learning_rate")
    fix = ctx.fix(edit, safe=True, new="learning_rate")
    variant = "lr_store" if isinstance(node.ctx, ast.Store) else "lr"
    ctx.report("TFL602", node, message=variant, args={"name": ctx.source(node)}, fix=fix)


def _looks_like_optimizer(ctx: BlockContext, expr: ast.expr) -> bool:
    """A Keras optimizer by value (``model.optimizer`` of a Keras model included)."""
    return ctx.is_instance_of(expr, "optimizer")


def _keras_backend(ctx: BlockContext, node: ast.Attribute) -> None:
    if node.attr not in kb.MISSING_IN_KERAS3 or assigned(ctx, node):
        return
    raw = raw_target(ctx, node)
    if raw is None or not raw.startswith(
        ("keras.", "tensorflow.keras.", "tensorflow.python.keras.")
    ):
        return
    if ctx.resolve(node) != f"keras.backend.{node.attr}":
        return
    if raw.startswith("keras."):
        module = "keras.backend"  # standalone Keras 3, whatever the target
    elif ctx.keras_version == 3 and node.attr in kb.MISSING_IN_TF_KERAS_SHIM:
        module = "tf.keras.backend"
    else:
        return
    ctx.report(
        "TFL602",
        node,
        message="keras_backend",
        args={
            "name": ctx.source(node),
            "module": module,
            "replacement": kb.replacement_for(node.attr),
        },
    )


def _words(text: str) -> list[str]:
    return text.split()


# -- TFL603 ----------------------------------------------------------------------------------

MODULES = frozenset(
    {
        "keras",
        *(
            f"keras.{m}"
            for m in _words(
                "layers models optimizers losses metrics activations initializers regularizers "
                "constraints callbacks applications datasets preprocessing utils backend ops "
                "mixed_precision saving random optimizers.schedules"
            )
        ),
        "tensorflow",
        *(
            f"tensorflow.{m}"
            for m in _words(
                "nn math linalg random image io data train config strings sparse signal summary "
                "saved_model distribute experimental compat audio bitwise debugging dtypes errors "
                "lookup nest quantization ragged sets test autodiff autograph"
            )
        ),
    }
)


# The last name of every module above, and Sequential: what a call must end with to matter.
_CALLED_NAMES = frozenset(
    {m.rpartition(".")[2] for m in MODULES} | {"Sequential", "keras", "tf", "tensorflow"}
)


@detector("TFL603")
def keras_module_called(ctx: BlockContext) -> None:
    for call in calls_of(ctx, _CALLED_NAMES, _CALLED_NAMES):
        func = call.func
        name = ctx.resolve(func)
        if name in MODULES:
            _module_call(ctx, call, func, name)
        elif name == "keras.Sequential":
            _sequential_without_list(ctx, call)


def _module_call(ctx: BlockContext, call: ast.Call, func: ast.expr, name: str) -> None:
    fix = None
    first = call.args[0] if call.args else None
    looks_dense = (isinstance(first, ast.Constant) and type(first.value) is int) or ctx.keyword(
        call, "units"
    ) is not None
    if name == "keras.layers" and looks_dense:
        new = f"{ctx.source(func)}.Dense"
        fix = ctx.fix(ctx.replace(func, new), safe=False, new=new)
    ctx.report("TFL603", call, args={"name": ctx.source(func)}, fix=fix)


def _sequential_without_list(ctx: BlockContext, call: ast.Call) -> None:
    layers = [a for a in call.args if _is_layer_instance(ctx, a)]
    if not layers or len(layers) != len(call.args):
        return
    if len(layers) == 1 and ctx.keras_version != 3:
        return  # Keras 2 accepts one layer without a list
    first, last = layers[0], layers[-1]
    line, col, _, _ = ctx.node_range(first)
    _, _, end_line, end_col = ctx.node_range(last)
    text = "[" + ctx.span_text(line, col, end_line, end_col) + "]"
    fix = ctx.fix(Edit(line, col, end_line, end_col, text), safe=False, new=text)
    variant = "sequential" if len(layers) == 1 else "sequential_many"
    ctx.report("TFL603", first, message=variant, args={"name": ctx.source(call.func)}, fix=fix)


def _is_layer_instance(ctx: BlockContext, expr: ast.expr) -> bool:
    if isinstance(expr, ast.Call):
        name = ctx.resolve(expr.func)
        if name is not None:
            last = name.rpartition(".")[2]
            return (name.startswith("keras.layers.") and last[:1].isupper()) or name in (
                "keras.Input",
                "keras.Sequential",
                "keras.Model",
            )
        if isinstance(expr.func, ast.Name):
            return _local_keras_class(ctx, expr.func.id)
    return False


def _local_keras_class(ctx: BlockContext, name: str) -> bool:
    summary = ctx.summary
    return any(
        cls.name == name and summary.keras_classes.get(cls.id) in ("layer", "model")
        for cls in summary.classes.values()
    )
