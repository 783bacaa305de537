"""Guessing a value for one parameter from everything the code says about it.

Order of evidence, strongest first: how the body uses the parameter (passed on to a Keras
constructor whose own parameter we know, unpacked into three names, indexed, compared with
strings, called), its annotation, its docstring entry, then its name.  Sizes share one number
(:data:`~.specs.SIZE`) so that guessed units, filters and feature sizes fit each other.
"""

from __future__ import annotations

import inspect
import re
import typing
from typing import Any

from tflsp.verify.agent.facts import ParamUse, doc_entry
from tflsp.verify.agent.specs import (
    BATCH,
    SEQUENCE,
    SIZE,
    Identity,
    LayerSpec,
    Sequence,
    TensorSpec,
    Value,
)

# (pattern on the lower-case name, value, why) - first match wins.
_NAME_RULES: tuple[tuple[str, Any], ...] = (
    (r"^(learning_rate|lr)$", 0.01),
    (r"^(growth_rate)$", SIZE),
    (r"^(dilation_rate|dilation|strides?|groups|depth_multiplier)$", 1),
    (r"^(sample_rate|sampling_rate)$", 16000),
    # 0.5: a random layer shows its randomness (a rate of 0.1 may drop nothing in a batch of 2)
    (r"(^|_)(rate|dropout|drop_rate|dropout_rate|drop|keep_prob)$|_rate$|^dropout", 0.5),
    (r"^(epsilon|eps|.*_epsilon)$", 1e-6),
    (r"^momentum$", 0.9),
    (r"^(p|prob|probability|threshold|factor|alpha|beta|gamma|ratio|.*_ratio)$", 0.5),
    (r"^(scale|temperature|margin|init_values?|initial_value|.*_multiplier|weight|coef)$", 1.0),
    (r"activation$", "relu"),
    (r"^padding$", "same"),
    (r"^data_format$", "channels_last"),
    (r"initializer$", "glorot_uniform"),
    (r"(regularizer|constraint)$", None),
    (r"^(dtype|name)$", None),
    (r"(^|_)shape$", Sequence((Value(SIZE), Value(SIZE)), "tuple")),
    (r"kernel_size$|^kernel$|^window$", 3),
    (r"pool_size$", 2),
    (r"^(vocab|vocab_size|vocabulary_size|num_embeddings|num_tokens|n_vocab|.*vocab_size)$", SIZE),
    (r"^(num_heads|heads|n_heads|num_attention_heads|n_head)$", 2),
    (
        r"^(max_)?(seq|sequence)_?(len|length)$|^maxlen$|^max_len(gth)?$|^timesteps$"
        r"|^(out_|num_)?steps$|^max_position.*|^max_wavelength$",
        SEQUENCE,
    ),
    (r"^(batch_size|batch_sz|batch)$", 2),
    (r"^(num_classes|n_classes|classes|output_classes|num_labels|num_outputs)$", 3),
    (r"^(num_layers|n_layers|num_blocks|blocks|repeats|num_repeats)$", 2),
    (
        r"^(use|is|has|return|with|apply|enable)_|_bias$|^(bottleneck|causal|normalize|training)$",
        False,
    ),
    (r"^(cell|rnn_cell|.*_cell)$", LayerSpec(kind="SimpleRNNCell")),
    (
        r"^(model|layer|.*_layer|encoder|decoder|backbone|block|network|net|inner|wrapped"
        r"|sublayer|module|submodule|base_layer)$",
        LayerSpec(),
    ),
    # data a constructor computes statistics from (a Normalize(x) module)
    (
        r"^(x|data|inputs|features|samples|train_data|x_train|dataset_values)$",
        TensorSpec((BATCH, SIZE)),
    ),
    (r"^(fn|func|function|.*_fn|.*_func|callback|transform)$", Identity()),
    (
        r"(units|filters|_dim|^dim|_dims|_size|^size|width|height|channels|features|^hidden"
        r"|^latent|^embed|^d_model|^num_|^n_|^out_|^in_|_units$|_filters$|^k$|^top_k$)",
        SIZE,
    ),
)


def by_name(name: str) -> tuple[Any, bool]:
    """(value, matched) from the parameter's name alone."""
    lowered = name.lower()
    for pattern, value in _NAME_RULES:
        if re.search(pattern, lowered):
            return value, True
    return SIZE, False


def _spec(value: Any) -> Any:
    if isinstance(value, (LayerSpec, Identity, Sequence, Value, TensorSpec)):
        return value
    return Value(value)


def _annotation_value(annotation: Any) -> Any:
    if annotation is inspect.Parameter.empty or annotation is None:
        return None
    text = (
        annotation
        if isinstance(annotation, str)
        else getattr(annotation, "__name__", str(annotation))
    )
    text = str(text)
    origin = typing.get_origin(annotation) if not isinstance(annotation, str) else None
    if origin is typing.Union or text.startswith(("Optional", "Union")):
        args = [a for a in typing.get_args(annotation) if a is not type(None)] if origin else []
        if args:
            return _annotation_value(args[0])
    lowered = text.lower()
    if lowered in ("int",):
        return SIZE
    if lowered == "float":
        return 0.5
    if lowered == "bool":
        return False
    if lowered.startswith(("list", "tuple", "sequence")):
        return Sequence((Value(SIZE), Value(SIZE)))
    if "callable" in lowered:
        return Identity()
    if "layer" in lowered or "model" in lowered:
        return LayerSpec()
    return None


def _doc_value(text: str, name: str) -> Any:
    lowered = text.lower()
    head = lowered[:80]
    if re.search(r"\b(bool|boolean)\b", head):
        return False
    if re.search(r"\bfloat\b", head):
        value, matched = by_name(name)
        return value if matched and isinstance(value, float) else 0.5
    if re.search(r"\b(int|integer|number of|size of|dimension|dimensionality)\b", head):
        value, matched = by_name(name)
        return value if matched and isinstance(value, int) and not isinstance(value, bool) else SIZE
    if re.search(r"\b(list|tuple|sequence) of\b", head):
        return Sequence((Value(SIZE), Value(SIZE)))
    if re.search(
        r"keras\.layers\.\w+|\b(layer|model) (instance|object)\b|\ba keras (layer|model)\b", head
    ):
        return LayerSpec()
    if re.search(r"\b(callable|function)\b", head):
        return Identity()
    if re.search(r"\b(str|string)\b", head):
        quoted = re.findall(r"[\"'`](\w+)[\"'`]", text)
        return quoted[0] if quoted else None
    return None


def resolve(namespace: dict[str, Any], dotted: str) -> Any:
    """``tf.keras.layers.Dense`` in a module's namespace, without calling anything."""
    if not re.fullmatch(r"[A-Za-z_][\w.]*", dotted):
        return None
    parts = dotted.split(".")
    obj = namespace.get(parts[0])
    for part in parts[1:]:
        if obj is None:
            return None
        try:
            obj = inspect.getattr_static(obj, part)
        except AttributeError:
            try:
                obj = getattr(obj, part)
            except Exception:
                return None
    return obj


def _callee_parameter(callee: Any, where: str | int) -> inspect.Parameter | None:
    try:
        signature = inspect.signature(callee)
    except (TypeError, ValueError):
        return None
    params = [
        p
        for p in signature.parameters.values()
        if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    if isinstance(where, int):
        return params[where] if where < len(params) else None
    return signature.parameters.get(where)


def guess(
    name: str,
    parameter: inspect.Parameter,
    use: ParamUse | None,
    docstring: str,
    namespace: dict[str, Any],
    inner: Any = None,
) -> tuple[Any, str]:
    """(spec, reason) for a required parameter.  ``inner(callee, parameter)`` guesses for a
    parameter of another class of the same module (the value is passed on to it)."""
    use = use or ParamUse()
    # 1. Passed on to a constructor or function whose own parameter we know.
    for callee_text, where in use.passed_to:
        if "super" in callee_text or callee_text.startswith("self."):
            continue
        callee = resolve(namespace, callee_text)
        if callee is None:
            continue
        target = _callee_parameter(callee, where)
        if target is None:
            continue
        short = callee_text.rsplit(".", 1)[-1]
        if inner is not None and getattr(callee, "__module__", None) == namespace.get("__name__"):
            found = inner(callee, target)
            if found is not None:
                return found[0], f"passed on to {short}, which {found[1]}"
        if target.default is not inspect.Parameter.empty and not (
            use.strings or use.called or use.unpacked or use.max_index >= 0
        ):
            return Value(target.default), f"the default of {short}({target.name}=...)"
        value, matched = by_name(target.name)
        if matched:
            shaped = _shaped(value, use, name)
            return _spec(shaped), f"passed on as {short}({target.name}=...)"
    # 2. How the body uses it.
    if use.unpacked:
        return Sequence(
            tuple(Value(SIZE) for _ in range(use.unpacked))
        ), f"unpacked into {use.unpacked} names"
    if use.max_index >= 0:
        base, _ = by_name(name)
        item = base if isinstance(base, int) and not isinstance(base, bool) else SIZE
        return (
            Sequence(tuple(Value(item) for _ in range(use.max_index + 1)), "tuple"),
            f"indexed up to [{use.max_index}]",
        )
    if use.strings:
        return Value(use.strings[0]), f"compared with {use.strings[0]!r}"
    if use.called:
        value, matched = by_name(name)
        if isinstance(value, (LayerSpec, Identity)):
            return value, "called, and named like one"
        return (
            LayerSpec() if "layer" in name or "model" in name else Identity()
        ), "called like a function"
    if use.iterated:
        return Sequence((Value(SIZE), Value(SIZE))), "iterated over"
    # 3. Annotation and docstring.
    annotated = _annotation_value(parameter.annotation)
    if annotated is not None:
        return _spec(annotated), "from its annotation"
    entry = doc_entry(docstring, name)
    if entry:
        documented = _doc_value(entry, name)
        if documented is not None:
            return _spec(documented), "from the docstring"
    # 4. The name.
    value, matched = by_name(name)
    if use.range_arg and not isinstance(value, int):
        value = SIZE
    return _spec(value), "from its name" if matched else "a small default"


def _shaped(value: Any, use: ParamUse, name: str) -> Any:
    if use.unpacked:
        return Sequence(tuple(Value(SIZE) for _ in range(use.unpacked)))
    if use.max_index >= 0 and isinstance(value, int):
        return Sequence(tuple(Value(value) for _ in range(use.max_index + 1)), "tuple")
    return value
