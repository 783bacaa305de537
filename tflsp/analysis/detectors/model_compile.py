"""Model family, compile() against the model it configures (TFL801, TFL803-TFL809).

Each check needs both sides: the loss and metrics given to ``compile`` and the model's output
layer (and for TFL801 the labels given to ``fit``), all read through :mod:`..model_setup`.  A
model whose layers or loss the code does not show (a parameter, a loop-built list, a subclass,
a loss computed elsewhere) is not judged.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from tflsp.analysis import model_setup as ms
from tflsp.analysis.block_names import calls_of
from tflsp.analysis.context import BlockContext
from tflsp.analysis.registry import detector

CROSSENTROPIES = frozenset(
    {"binary_crossentropy", "categorical_crossentropy", "sparse_categorical_crossentropy"}
)
# Activations whose values are not probabilities (an unknown or custom one is not judged).
NOT_PROBABILITIES = frozenset(
    {
        "linear",
        "relu",
        "tanh",
        "elu",
        "selu",
        "leaky_relu",
        "softplus",
        "swish",
        "silu",
        "gelu",
        "exponential",
        "log_softmax",
    }
)
ONE_HOT = frozenset({"keras.utils.to_categorical", "tensorflow.one_hot", "keras.ops.one_hot"})
CLASS_IDS = frozenset(
    {"numpy.random.randint", "numpy.argmax", "tensorflow.argmax", "keras.ops.argmax"}
)
DIRECTORY_DATASETS = frozenset(
    {
        "keras.utils.image_dataset_from_directory",
        "keras.utils.text_dataset_from_directory",
        "keras.utils.audio_dataset_from_directory",
        "keras.preprocessing.image_dataset_from_directory",
        "keras.preprocessing.text_dataset_from_directory",
    }
)
# Dataset methods that keep the labels as they are.
_SAME_LABELS = frozenset({"batch", "cache", "prefetch", "repeat", "shuffle", "take", "skip"})
ARRAYS = frozenset({"numpy.array", "numpy.asarray"})
EYE = frozenset({"numpy.eye", "numpy.identity", "tensorflow.eye"})
CLASSIFICATION_DATASETS = frozenset(
    f"keras.datasets.{name}.load_data"
    for name in ("mnist", "fashion_mnist", "cifar10", "cifar100", "imdb", "reuters")
)
IMAGE_GENERATORS = frozenset(
    {
        "keras.preprocessing.image.ImageDataGenerator",
        "keras.src.legacy.preprocessing.image.ImageDataGenerator",
    }
)
_FLOWS = frozenset({"flow_from_directory", "flow_from_dataframe"})
# Metrics that cut the predictions at 0.5 unless told otherwise.
THRESHOLD_METRICS = frozenset(
    {
        "BinaryAccuracy",
        "Precision",
        "Recall",
        "TruePositives",
        "FalsePositives",
        "TrueNegatives",
        "FalseNegatives",
    }
)


@dataclass
class Setup:
    call: ast.Call
    key: ms.Key
    output: ms.Output
    loss: ms.Loss | None
    loss_node: ast.expr | None


@detector("TFL801", "TFL803", "TFL804", "TFL805", "TFL806", "TFL807", "TFL808", "TFL809")
def check_compile(ctx: BlockContext) -> None:
    for call in calls_of(ctx, methods=("compile",)):
        setup = _setup(ctx, call)
        if setup is None:
            continue
        _check_loss(ctx, setup)
        _check_metrics(ctx, setup)
        _check_labels(ctx, setup)


def _setup(ctx: BlockContext, call: ast.Call) -> Setup | None:
    assert isinstance(call.func, ast.Attribute)
    if not ctx.is_instance_of(call.func.value, "model"):
        return None
    model = ctx.model
    terms = ctx.semantics.terms
    memo: dict[Any, Any] = ctx.memo.setdefault("model_setup", {})
    found = ms.model_output(
        model,
        terms.expr(call.func.value),
        ctx.ordinal,
        ctx.semantics.scope_id_of(call),
        ctx.summary,
        memo,
    )
    if found is None:
        return None
    key, output = found
    loss_node = ms.compile_argument(call, "loss")
    loss = ms.loss_of(model, terms.expr(loss_node), ctx.ordinal) if loss_node is not None else None
    return Setup(call, key, output, loss, loss_node)


def layer_text(layer: ms.Layer) -> str:
    name = layer.kind.rpartition(".")[2]
    if layer.kind in ms.DENSE:
        units = "?" if layer.units is None else str(layer.units)
        activation = layer.activation
        if activation and activation != "linear":
            return f'{name}({units}, activation="{activation}")'
        return f"{name}({units})"
    if layer.activation:
        return f'{name}("{layer.activation}")' if name == "Activation" else f"{name}()"
    return f"{name}()"


def loss_text(loss: ms.Loss, node: ast.expr, ctx: BlockContext) -> str:
    if loss.string:
        return loss.name
    text = ctx.source(node)
    return text if len(text) <= 60 and "\n" not in text else loss.name


# -- TFL803 TFL804 TFL805 TFL806 ------------------------------------------------------------------
def _check_loss(ctx: BlockContext, setup: Setup) -> None:
    loss, node, out = setup.loss, setup.loss_node, setup.output
    if loss is None or node is None or loss.name not in CROSSENTROPIES:
        return
    layer = layer_text(out.dense)
    if out.by_layer is not None:
        layer = f"{layer} + {layer_text(out.by_layer)}"
    shown = loss_text(loss, node, ctx)
    single = out.dense.units == 1
    if loss.name == "sparse_categorical_crossentropy" and single:
        fix = None
        if loss.string and out.activation == "sigmoid" and isinstance(node, ast.Constant):
            fix = ctx.fix(ctx.replace(node, '"binary_crossentropy"'), safe=False)
        ctx.report("TFL806", node, args={"loss": shown, "layer": layer}, fix=fix)
        return
    if loss.from_logits is True and out.activation in ("sigmoid", "softmax"):
        ctx.report(
            "TFL803",
            node,
            args={"layer": layer, "activation": out.activation},
            fix=_from_logits_fix(ctx, node, False),
        )
        return
    if loss.from_logits is not False:
        return
    if loss.name == "binary_crossentropy" and out.activation == "softmax":
        if out.dense.units is not None and out.dense.units >= 2:
            ctx.report("TFL804", node, args={"layer": layer})
        return
    if out.activation in NOT_PROBABILITIES:
        wanted = "sigmoid" if loss.name == "binary_crossentropy" else "softmax"
        args = {"loss": shown, "layer": layer, "activation": wanted}
        if out.activation == "linear":
            ctx.report("TFL805", node, args=args, fix=_from_logits_fix(ctx, node, True))
        else:
            ctx.report("TFL805", node, message="activation", args={**args, "found": out.activation})


def _from_logits_fix(ctx: BlockContext, node: ast.expr, value: bool) -> Any:
    """Set ``from_logits`` on a loss constructed right here (not one bound elsewhere)."""
    if not isinstance(node, ast.Call):
        return None
    given = ctx.keyword(node, "from_logits")
    if given is not None:
        return ctx.fix(ctx.replace(given.value, str(value)), safe=False)
    if node.args or node.keywords:
        return None  # ``Crossentropy(True)`` and friends: not rewritten
    _, _, line, col = ctx.node_range(node)
    return ctx.fix(ctx.insert_at(line, col - 1, f"from_logits={value}"), safe=False)


# -- TFL807 TFL808 TFL809 ---------------------------------------------------------------------------
def _check_metrics(ctx: BlockContext, setup: Setup) -> None:
    loss, out = setup.loss, setup.output
    metrics = ms.compile_argument(setup.call, "metrics")
    if loss is None or setup.loss_node is None or not isinstance(metrics, (ast.List, ast.Tuple)):
        return
    layer = layer_text(out.dense)
    continuous: bool | None = None
    for element in metrics.elts:
        metric = ms.metric_of(ctx.model, ctx.semantics.terms.expr(element), ctx.ordinal)
        if metric is None:
            continue
        shown = ctx.source(element)
        accuracy = metric.string and metric.name == "accuracy"
        if (
            (accuracy or metric.name in ("Accuracy", "BinaryAccuracy"))
            and loss.name in ms.REGRESSION_LOSSES
            and out.activation in ("linear", "relu")
        ):
            # 0/1 targets trained with a squared error make a classifier whose accuracy means
            # something: only targets that are visibly real numbers count.
            if continuous is None:
                continuous = _continuous_labels(ctx, setup)
            if continuous:
                fix = ctx.fix(ctx.replace(element, '"mae"'), safe=False) if metric.string else None
                ctx.report(
                    "TFL807",
                    element,
                    args={
                        "metric": shown,
                        "loss": loss_text(loss, setup.loss_node, ctx),
                        "layer": layer,
                    },
                    fix=fix,
                )
            continue
        if loss.name != "binary_crossentropy":
            continue
        logits = loss.from_logits is True and out.activation == "linear" and out.by_layer is None
        if logits and (
            (accuracy and out.dense.units == 1)
            or (metric.name in THRESHOLD_METRICS and metric.setting is None)
            or (metric.name == "AUC" and metric.setting in (None, False))
        ):
            _report_threshold(ctx, element, metric, layer)
            continue
        multi_label = (loss.from_logits is False and out.activation == "sigmoid") or logits
        if accuracy and multi_label and out.dense.units is not None and out.dense.units >= 2:
            ctx.report(
                "TFL809",
                element,
                args={"metric": shown, "layer": layer, "units": out.dense.units},
            )


def _report_threshold(ctx: BlockContext, element: ast.expr, metric: ms.Metric, layer: str) -> None:
    shown = ctx.source(element)
    fix = None
    if metric.string:
        keras = _keras_prefix(ctx)
        text = element.value if isinstance(element, ast.Constant) else "accuracy"
        text = text if isinstance(text, str) else "accuracy"
        replacement = f'keras.metrics.BinaryAccuracy(name="{text}", threshold=0.0)'
        if keras is not None:
            new = f'{keras}.metrics.BinaryAccuracy(name="{text}", threshold=0.0)'
            fix = ctx.fix(ctx.replace(element, new), safe=False, new=new)
    else:
        if metric.name == "AUC":
            argument = "from_logits=True"
        elif metric.name == "BinaryAccuracy":
            argument = "threshold=0.0"
        else:
            argument = "thresholds=0.0"
        replacement = f"{metric.name}({argument})"
        if isinstance(element, ast.Call):
            given = ctx.keyword(element, argument.partition("=")[0])
            if given is not None:  # ``AUC(from_logits=False)``
                value = argument.partition("=")[2]
                fix = ctx.fix(ctx.replace(given.value, value), safe=False, new=replacement)
            elif not element.args:
                _, _, line, col = ctx.node_range(element)
                text = argument if not element.keywords else f", {argument}"
                fix = ctx.fix(ctx.insert_at(line, col - 1, text), safe=False, new=replacement)
    ctx.report(
        "TFL808",
        element,
        message="auc" if metric.name == "AUC" else "default",
        args={"metric": shown, "layer": layer, "replacement": replacement},
        fix=fix,
    )


def _keras_prefix(ctx: BlockContext) -> str | None:
    keras = ctx.alias_for("keras")
    if keras is not None:
        return keras
    tf = ctx.alias_for("tensorflow")
    return f"{tf}.keras" if tf is not None else None


# -- labels ----------------------------------------------------------------------------------------
CONTINUOUS_DRAWS = frozenset(
    {
        "numpy.random.rand",
        "numpy.random.randn",
        "numpy.random.normal",
        "numpy.random.uniform",
        "numpy.random.random",
        "numpy.random.random_sample",
        "numpy.random.standard_normal",
        "tensorflow.random.normal",
        "tensorflow.random.uniform",
    }
)
GENERATORS = frozenset({"numpy.random.default_rng", "numpy.random.RandomState"})
_GENERATOR_DRAWS = frozenset({"normal", "uniform", "random", "standard_normal", "rand", "randn"})
REGRESSION_DATASETS = frozenset(
    {
        "keras.datasets.boston_housing.load_data",
        "keras.datasets.california_housing.load_data",
    }
)


def _continuous_labels(ctx: BlockContext, setup: Setup) -> bool:
    memo: dict[Any, Any] = ctx.memo.setdefault("model_setup", {})
    return any(
        site.arg is not None and _continuous(ctx, site.arg, k, site.scope, 0)
        for k, site in ms.fit_sites(ctx.model, setup.key, ctx.summary, memo)
    )


def _continuous(ctx: BlockContext, term: Any, block: int, scope: Any, depth: int) -> bool:
    """Are these labels visibly real numbers: continuous draws, arithmetic on them, the targets
    of a regression data set?"""
    if depth > 8:
        return False
    found = ms.resolve(ctx.model, term, block, scope)
    if found is None:
        return False
    term, block, scope = found
    model = ctx.model
    if term.tag == "binop":
        return any(
            _continuous(ctx, part, block, scope, depth + 1)
            for part in term.args[1:]
            if part.tag != "const"
        )
    if term.tag in ("sub", "unary"):
        return _continuous(
            ctx, term.args[-1] if term.tag == "unary" else term.args[0], block, scope, depth + 1
        )
    if term.tag == "item":
        # ``(x, y), (x_test, y_test) = boston_housing.load_data()``: the targets
        inner = term.args[0]
        if term.args[1] == 1 and inner.tag == "item" and inner.args[0].tag == "call":
            return ms.qualname(model, inner.args[0].args[0], block) in REGRESSION_DATASETS
        return False
    if term.tag != "call":
        return False
    func = term.args[0]
    if func.tag == "attr" and func.args[1] == "astype":
        return _continuous(ctx, func.args[0], block, scope, depth + 1)
    name = ms.qualname(model, func, block)
    if name in CONTINUOUS_DRAWS:
        return True
    if func.tag == "attr" and func.args[1] in _GENERATOR_DRAWS:
        maker = ms.resolve(model, func.args[0], block, scope)
        return (
            maker is not None
            and maker[0].tag == "call"
            and ms.qualname(model, maker[0].args[0], maker[1]) in GENERATORS
        )
    return False


# -- TFL801 ---------------------------------------------------------------------------------------
def _check_labels(ctx: BlockContext, setup: Setup) -> None:
    loss, node = setup.loss, setup.loss_node
    if loss is None or node is None:
        return
    if loss.name not in ("sparse_categorical_crossentropy", "categorical_crossentropy"):
        return
    memo: dict[Any, Any] = ctx.memo.setdefault("model_setup", {})
    model = ctx.model
    for k, site in ms.fit_sites(model, setup.key, ctx.summary, memo):
        found = _labels(ctx, site, k)
        if found is None:
            continue
        encoding, origin = found
        sparse = loss.name == "sparse_categorical_crossentropy"
        if sparse and encoding == "one_hot":
            new = "categorical_crossentropy"
            message = "default"
        elif not sparse and encoding == "class_ids":
            new = "sparse_categorical_crossentropy"
            message = "class_ids"
        else:
            continue
        fix = None
        if loss.string and isinstance(node, ast.Constant):
            fix = ctx.fix(ctx.replace(node, f'"{new}"'), safe=False, new=new)
        ctx.report(
            "TFL801",
            node,
            message=message,
            args={"loss": loss_text(loss, node, ctx), "origin": origin},
            fix=fix,
        )
        return


def _labels(ctx: BlockContext, site: ms.Site, block: int) -> tuple[str, str] | None:
    """How the labels of one fit() call are encoded: ("one_hot" | "class_ids", origin)."""
    if site.arg is not None:
        return _array_labels(ctx, site.arg, block, site.scope)
    if site.data is None:
        return None
    return _dataset_labels(ctx, site.data, block, site.scope)


def _array_labels(ctx: BlockContext, term: Any, block: int, scope: Any) -> tuple[str, str] | None:
    model = ctx.model
    for _ in range(8):
        found = ms.resolve(model, term, block, scope)
        if found is None:
            return None
        term, block, scope = found
        if term.tag == "item":
            # ``(x, y), (x_test, y_test) = keras.datasets.mnist.load_data()``: class ids
            inner = term.args[0]
            if term.args[1] == 1 and inner.tag == "item" and inner.args[0].tag == "call":
                name = ms.qualname(model, inner.args[0].args[0], block) or ""
                if name in CLASSIFICATION_DATASETS:
                    return "class_ids", f"{name.rpartition('.')[0]}.load_data()"
            return None
        if term.tag == "sub":
            # ``np.eye(n)[y]``: one-hot rows
            base = ms.resolve(model, term.args[0], block, scope)
            if (
                base is not None
                and base[0].tag == "call"
                and ms.qualname(model, base[0].args[0], base[1]) in EYE
            ):
                return "one_hot", "np.eye(n)[labels]"
            return None
        if term.tag != "call":
            return None
        func = term.args[0]
        if func.tag == "attr" and func.args[1] == "astype":
            term = func.args[0]  # the dtype changes, the encoding stays
            continue
        called = ms.qualname(model, func, block) or ""
        if called in ONE_HOT:
            return "one_hot", f"{called.rpartition('.')[2]}()"
        if called in CLASS_IDS:
            return "class_ids", f"{called.rpartition('.')[2]}()"
        if called in ARRAYS and term.args[1]:
            return _literal_labels(term.args[1][0])
        return None
    return None


def _dataset_labels(ctx: BlockContext, term: Any, block: int, scope: Any) -> tuple[str, str] | None:
    """A dataset or generator given to fit() carries its labels."""
    model = ctx.model
    for _ in range(8):
        found = ms.resolve(model, term, block, scope)
        if found is None or found[0].tag != "call":
            return None
        term, block, scope = found
        func = term.args[0]
        if func.tag == "attr" and func.args[1] in _SAME_LABELS:
            term = func.args[0]
            continue
        if func.tag == "attr" and func.args[1] in _FLOWS:
            maker = ms.resolve(model, func.args[0], block, scope)
            if maker is None or maker[0].tag != "call":
                return None
            if ms.qualname(model, maker[0].args[0], maker[1]) not in IMAGE_GENERATORS:
                return None
            mode = ms.call_argument(term, 99, "class_mode")
            value = "categorical" if mode is None else ms.constant(model, mode, block)
            shown = 'class_mode="categorical"' + (", the default" if mode is None else "")
            if value == "categorical":
                return "one_hot", shown
            if value == "sparse":
                return "class_ids", 'class_mode="sparse"'
            return None
        name = ms.qualname(model, func, block)
        if name not in DIRECTORY_DATASETS:
            return None
        mode = ms.call_argument(term, 99, "label_mode")
        value = "int" if mode is None else ms.constant(model, mode, block)
        if value == "categorical":
            return "one_hot", 'label_mode="categorical"'
        if value == "int":
            return "class_ids", 'label_mode="int"' + (", the default" if mode is None else "")
        return None
    return None


def _literal_labels(term: Any) -> tuple[str, str] | None:
    """``np.array([2, 3, 7])``: class ids; ``np.array([[0, 1], [1, 0]])``: one-hot rows (every
    row zeros and a single one).  Anything else (floats, mixed rows) is not judged."""
    if term.tag not in ("list", "tuple") or not term.args[0]:
        return None
    items = term.args[0]
    if all(_is_int(x) for x in items):
        return "class_ids", "an array of integers"
    rows = [_row(x) for x in items]
    if all(r is not None and len(r) >= 2 and sum(r) == 1 for r in rows):
        return "one_hot", "rows of zeros with a single one"
    return None


def _is_int(term: Any) -> bool:
    return term.tag == "const" and type(term.args[0]) is int


def _row(term: Any) -> list[int] | None:
    while term.tag in ("list", "tuple") and len(term.args[0]) == 1 and not _is_int(term.args[0][0]):
        term = term.args[0][0]  # ``[[[1, 0]]]``: a row inside extra brackets
    if term.tag not in ("list", "tuple") or not all(_is_int(x) for x in term.args[0]):
        return None
    values = [x.args[0] for x in term.args[0]]
    return values if set(values) <= {0, 1} else None


# -- TFL803 in a training loop: loss_fn(y, model(x)) ------------------------------------------------
@detector("TFL803")
def check_loss_calls(ctx: BlockContext) -> None:
    memo: dict[Any, Any] = ctx.memo.setdefault("model_setup", {})
    for call in ctx.index.nodes(ast.Call):
        if len(call.args) < 2 or not isinstance(call.func, (ast.Name, ast.Attribute)):
            continue
        if not ctx.is_instance_of(call.func, "loss"):
            continue
        terms = ctx.semantics.terms
        loss = ms.loss_of(ctx.model, terms.expr(call.func), ctx.ordinal)
        if loss is None or loss.from_logits is not True:
            continue
        predicted = call.args[1]
        if not isinstance(predicted, (ast.Call, ast.Name)):
            continue
        found = ms.resolve(ctx.model, terms.expr(predicted), ctx.ordinal, None)
        if found is None or found[0].tag != "call":
            continue
        term, block, _ = found
        scope = ctx.semantics.scope_id_of(call) if block == ctx.ordinal else None
        output = ms.model_output(ctx.model, term.args[0], block, scope, ctx.summary, memo)
        if output is None or output[1].activation not in ("sigmoid", "softmax"):
            continue
        out = output[1]
        ctx.report(
            "TFL803",
            predicted,
            args={"layer": layer_text(out.dense), "activation": out.activation},
        )
