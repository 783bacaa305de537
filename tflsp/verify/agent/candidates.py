"""Candidate constructor arguments and call inputs, best first.

Constructor arguments: the file's own literal calls, then a guess per required parameter
(:mod:`.guesses`).  Call inputs: shapes the file feeds the target, then one tensor per required
parameter of ``call()``, ranked by what its name, annotation and docstring say, ``build()``'s
reads of the input shape and the layer's ``input_spec``; masks and optional parameters an
error names are filled in on retry, and sizes an error names are tried for the last axis.
"""

from __future__ import annotations

import inspect
import itertools
import re
import sys
from typing import Any

from tflsp.verify.agent.facts import Facts, class_facts, doc_entry, doc_rank
from tflsp.verify.agent.guesses import guess
from tflsp.verify.agent.specs import (
    BATCH,
    IMAGE,
    SEQUENCE,
    SIZE,
    Arguments,
    LayerSpec,
    Mapping,
    Sequence,
    TensorSpec,
    Value,
)


def init_parameters(cls: type) -> list[inspect.Parameter]:
    try:
        signature = inspect.signature(cls.__init__)  # type: ignore[misc]
    except (TypeError, ValueError):
        return []
    return [
        p
        for p in list(signature.parameters.values())[1:]
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


def _inner(source: str, depth: int = 0) -> Any:
    """Guess a parameter of another class of the module from that class's own code."""

    def inner(callee: Any, parameter: inspect.Parameter) -> tuple[Any, str] | None:
        if depth > 2 or not isinstance(callee, type):
            return None
        facts = class_facts(source, callee.__name__)
        namespace = (
            vars(sys.modules.get(callee.__module__)) if callee.__module__ in sys.modules else {}
        )
        spec, reason = guess(
            parameter.name,
            parameter,
            facts.params.get(parameter.name),
            facts.docstring,
            namespace,
            _inner(source, depth + 1),
        )
        return spec, reason

    return inner


def construct_candidates(
    cls: type, facts: Facts, namespace: dict[str, Any], source: str = ""
) -> list[Arguments]:
    params = init_parameters(cls)
    required = [p for p in params if p.default is inspect.Parameter.empty]
    candidates: list[Arguments] = []
    names = [p.name for p in params]
    for args, kwargs in facts.file_calls:
        if len(args) <= len(names) and all(k in names or k == "name" for k in kwargs):
            bound = set(names[: len(args)]) | set(kwargs)
            if all(p.name in bound for p in required):
                candidates.append(
                    Arguments(
                        args=tuple(Value(a) for a in args),
                        kwargs=tuple((k, Value(v)) for k, v in kwargs.items()),
                        origin="the file's own call",
                    )
                )
    guessed: list[tuple[str, Any]] = []
    reasons: list[str] = []
    for parameter in required:
        spec, reason = guess(
            parameter.name,
            parameter,
            facts.params.get(parameter.name),
            facts.docstring,
            namespace,
            _inner(source),
        )
        guessed.append((parameter.name, spec))
        reasons.append(f"{parameter.name}={spec.describe()} ({reason})")
    candidates.append(
        Arguments(
            kwargs=tuple(guessed),
            origin="guessed" if guessed else "defaults",
            reasons=tuple(reasons),
        )
    )
    return candidates


def fill_named_parameter(
    cls: type, construct: Arguments, error: str, facts: Facts, namespace: dict[str, Any]
) -> Arguments | None:
    """An error names an optional constructor parameter still at its default None
    ("One of `vocabulary_size` or ... must be set"): guess a value for it."""
    given = {k for k, _ in construct.kwargs}
    for parameter in init_parameters(cls)[len(construct.args) :]:
        if parameter.name in given or parameter.default is not None:
            continue
        if re.search(rf"\b{re.escape(parameter.name)}\b", error):
            spec, reason = guess(
                parameter.name,
                parameter,
                facts.params.get(parameter.name),
                facts.docstring,
                namespace,
            )
            return Arguments(
                construct.args,
                (*construct.kwargs, (parameter.name, spec)),
                construct.origin,
                (
                    *construct.reasons,
                    f"{parameter.name}={spec.describe()} ({reason}; the error asked for it)",
                ),
            )
    return None


# -- call inputs ---------------------------------------------------------------------------------
_IMAGE = re.compile(r"(^|_)(image|images|img|imgs|pixels|picture|photo|rgb)s?($|_)")
_VIDEO = re.compile(r"(video|frames|clip)")
_SEQUENCE = re.compile(
    r"^(query|key|value|values|memory|context|sequence|sequences|seq|hidden_states|embeddings"
    r"|encoder_.*|decoder_.*|enc_output|encoder_outputs?|x_seq|tokens_embedded)$"
)
_IDS = re.compile(r"(^|_)(ids|token_ids|tokens|indices|token|input_ids|word_ids|type_ids)$")
_POSITIONS = re.compile(r"(positions|_index|_indices|index)$")
_LABELS = re.compile(r"^(labels?|y|y_true|targets?|ground_truth|gt)$")
_SCALAR = re.compile(
    r"^(n|num_.*|n_.*|steps|step|epoch|epochs|count|i|idx|k|iteration|seed|max_.*)$"
)
_MASK = re.compile(r"mask")
_WEIGHT = re.compile(r"^(w|weights?|kernel|w\d)$")
_BIAS = re.compile(r"^(b|bias|biases|b\d)$")
_MODEL = re.compile(r"^(model|net|network|layer|encoder|decoder|generator|discriminator)$")
_PYTHON_SHAPE = re.compile(r"^(shape|size|dims|output_shape)$")


def _kind(parameter: inspect.Parameter, doc: str, function: bool, use: Any = None) -> str:
    name = parameter.name.lower()
    annotation = parameter.annotation
    text = "" if annotation is inspect.Parameter.empty else str(annotation).lower()
    if name in ("training", "is_training", "train"):
        return "training"
    if use is not None and use.attribute_calls & {"items", "keys", "values"}:
        return "dict"
    if function:
        if _MODEL.match(name) or (use is not None and use.called):
            return "model"
        if _WEIGHT.match(name):
            return "weight"
        if _BIAS.match(name):
            return "bias"
        if _PYTHON_SHAPE.match(name):
            return "shape"
    if "list" in text or "sequence[" in text:
        return "list"
    if "dict" in text or "mapping" in text:
        return "dict"
    if text in ("int", "<class 'int'>", "float", "<class 'float'>", "bool", "<class 'bool'>"):
        return "python"
    if _MASK.search(name) and _POSITIONS.search(name):
        return "positions"
    if _MASK.search(name):
        return "mask"
    if _IDS.search(name):
        return "ids"
    if _POSITIONS.search(name):
        return "positions"
    if _VIDEO.search(name):
        return "video"
    if _IMAGE.search(name):
        return "image"
    if _LABELS.match(name):
        return "labels"
    if function and _SCALAR.match(name):
        return "scalar"
    if _SEQUENCE.match(name):
        return "sequence"
    rank = doc_rank(doc_entry(doc, parameter.name))
    if rank is not None:
        return f"rank{rank}"
    return "generic"


def _shape(rank: int, channels: int = SIZE) -> tuple[int, ...]:
    return {
        0: (),
        1: (SIZE,),
        2: (BATCH, SIZE),
        3: (BATCH, SEQUENCE, SIZE),
        4: (BATCH, IMAGE, IMAGE, channels),
        5: (BATCH, SIZE, IMAGE, IMAGE, channels),
    }.get(rank, (BATCH, *([SIZE] * (rank - 1))))


def _options_for(
    kind: str,
    function: bool,
    min_rank: int,
    first_int: bool,
    image: tuple[int, int] | None = None,
) -> list[Any]:
    """Candidate specs for one input, best first."""
    if kind == "image":
        sizes = [image] if image else []
        sizes.append((IMAGE, IMAGE))
        out: list[Any] = []
        for height, width in sizes:
            if function:
                out += [
                    TensorSpec((height, width, 3), batched=False),
                    TensorSpec((BATCH, height, width, 3)),
                ]
            else:
                out += [
                    TensorSpec((BATCH, height, width, SIZE)),
                    TensorSpec((BATCH, height, width, 3)),
                ]
        return out
    if kind == "model":
        return [LayerSpec()]
    if kind == "weight":
        return [TensorSpec((SIZE, SIZE), batched=False)]
    if kind == "bias":
        return [TensorSpec((SIZE,), batched=False)]
    if kind == "shape":
        return [Value((SIZE, SIZE)), Value(SIZE)]
    if kind == "dict":
        return [
            Mapping(
                (
                    ("feature_a", TensorSpec((BATCH, 1))),
                    ("feature_b", TensorSpec((BATCH, 1))),
                )
            )
        ]
    if kind == "video":
        return [TensorSpec(_shape(5)), TensorSpec(_shape(5, 3))]
    if kind == "sequence":
        return [TensorSpec(_shape(3)), TensorSpec(_shape(2))]
    if kind == "ids":
        return [
            TensorSpec((BATCH, SEQUENCE), "int32", SIZE),
            TensorSpec((BATCH,), "int32", SIZE),
            TensorSpec((BATCH, 1), "int32", SIZE),
        ]
    if kind == "positions":
        return [TensorSpec((BATCH, SEQUENCE), "int32", SIZE)]
    if kind == "scalar":
        return [TensorSpec((), "int32", batched=False), Value(SEQUENCE)]
    if kind == "labels":
        return ["like_first", TensorSpec((BATCH,), "int32", SIZE), TensorSpec((BATCH, SIZE))]
    if kind == "list":
        return [
            Sequence((TensorSpec(_shape(2)), TensorSpec(_shape(2)))),
            Sequence((TensorSpec(_shape(3)), TensorSpec(_shape(3)))),
        ]
    if kind.startswith("rank"):
        rank = int(kind[4:])
        return [
            TensorSpec(
                _shape(rank), "int32" if first_int else "float32", SIZE if first_int else None
            )
        ]
    ranks = [2, 1, 0, 3, 4] if function else [2, 3, 4, 5]
    ranks = [r for r in ranks if r >= min_rank] or [min_rank]
    generic: list[Any] = []
    # Floats first (integers when the input feeds an Embedding), then the other dtype: a layer
    # that looks its input up in a table fails on floats.
    for dtype, maxval in (
        [("int32", SIZE), ("float32", None)] if first_int else [("float32", None), ("int32", SIZE)]
    ):
        for rank in ranks:
            shape = _shape(rank)
            generic.append(TensorSpec(shape, dtype, maxval, batched=rank > 0))
    return generic


def _spec_filter(instance: Any) -> tuple[set[int] | None, int | None]:
    """Ranks and last axis a built-in ``input_spec`` allows."""
    spec = getattr(instance, "input_spec", None)
    if isinstance(spec, (list, tuple)):
        spec = spec[0] if spec else None
    if spec is None:
        return None, None
    ndim = getattr(spec, "ndim", None)
    min_ndim = getattr(spec, "min_ndim", None)
    max_ndim = getattr(spec, "max_ndim", None)
    ranks: set[int] | None = None
    if ndim is not None:
        ranks = {int(ndim)}
    elif min_ndim is not None or max_ndim is not None:
        ranks = {
            r
            for r in range(0, 6)
            if (min_ndim is None or r >= min_ndim) and (max_ndim is None or r <= max_ndim)
        }
    axes = getattr(spec, "axes", None) or {}
    last = axes.get(-1) if isinstance(axes, dict) else None
    return ranks, int(last) if last else None


def _from_file(facts: Facts) -> list[Arguments]:
    out = []
    for shapes in facts.file_shapes:
        specs = []
        for shape in shapes:
            concrete = tuple(
                BATCH if (n is None and i == 0) else (SEQUENCE if n is None else int(n))
                for i, n in enumerate(shape)
            )
            specs.append(TensorSpec(concrete))
        out.append(Arguments(args=tuple(specs), origin="the shape the file feeds it"))
    return out


def call_parameters(fn: Any, bound: bool) -> list[inspect.Parameter]:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    params = list(signature.parameters.values())
    if not bound and params and params[0].name == "self":
        params = params[1:]
    return params


def call_candidates(
    params: list[inspect.Parameter],
    facts: Facts,
    *,
    function: bool,
    instance: Any = None,
    first_int: bool = False,
    doc: str = "",
) -> tuple[list[Arguments], list[inspect.Parameter]]:
    """(candidate calls best first, optional parameters that may be filled in on demand)."""
    required = [
        p
        for p in params
        if p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    optional = [
        p for p in params if p.default is None and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    candidates = _from_file(facts)
    ranks, last = _spec_filter(instance) if instance is not None else (None, None)
    min_rank = max(facts.build_max_index + 1, 2 if facts.build_negative else 0)
    per_input: list[tuple[inspect.Parameter, list[Any]]] = []
    for index, parameter in enumerate(required):
        kind = _kind(parameter, doc, function, facts.call_params.get(parameter.name))
        if kind == "training":
            per_input.append((parameter, [Value(False)]))
            continue
        if kind == "python":
            per_input.append((parameter, [Value(SIZE)]))
            continue
        if kind == "mask":
            per_input.append((parameter, ["mask"]))
            continue
        options = _options_for(
            kind,
            function,
            min_rank if index == 0 else 0,
            first_int and index == 0,
            facts.image_size,
        )
        if index == 0 and ranks is not None:
            options = [
                o for o in options if not isinstance(o, TensorSpec) or len(o.shape) in ranks
            ] or [TensorSpec(_shape(min(ranks)))]
        if index == 0 and last is not None:
            options = [
                TensorSpec((*o.shape[:-1], last), o.dtype, o.maxval, o.batched)
                if isinstance(o, TensorSpec) and o.shape
                else o
                for o in options
            ]
        per_input.append((parameter, options))
    guessed = []
    for combination in _combinations([options for _, options in per_input]):
        first = next((c for c in combination if isinstance(c, TensorSpec)), None)
        args = []
        for spec in combination:
            if spec == "mask":
                spec = _mask_for(first)
            elif spec == "like_first":
                if first is None:
                    break
                spec = first
            args.append(spec)
        if len(args) != len(combination):
            continue
        guessed.append(Arguments(args=tuple(args), origin="guessed from the call signature"))
    return candidates + guessed, optional


def _combinations(options: list[list[Any]], limit: int = 24) -> list[tuple[Any, ...]]:
    """Products of per-input options, those made of earlier choices first; inputs of the same
    rank together first (two sequences, not a sequence and an image)."""
    if not options:
        return [()]
    products = list(
        itertools.islice(itertools.product(*[list(enumerate(o)) for o in options]), 400)
    )

    def cost(combo: tuple[tuple[int, Any], ...]) -> tuple[int, int]:
        specs = [spec for _, spec in combo if isinstance(spec, TensorSpec) and spec.batched]
        ranks = {len(spec.shape) for spec in specs}
        dtypes = {spec.dtype for spec in specs}
        return (sum(i for i, _ in combo) + max(0, len(ranks) - 1) + max(0, len(dtypes) - 1), 0)

    products.sort(key=cost)
    return [tuple(spec for _, spec in combo) for combo in products[:limit]]


def _mask_for(first: TensorSpec | None, name: str = "mask") -> TensorSpec:
    if first is None or not first.shape:
        return TensorSpec((BATCH, SEQUENCE), "bool", ones=True)
    shape = first.shape[:-1] if len(first.shape) >= 3 else first.shape
    return TensorSpec(shape, "bool" if name == "mask" else "int32", ones=True)


def with_optional(
    call: Arguments, optional: list[inspect.Parameter], error: str
) -> list[Arguments]:
    """Retries that fill in an optional parameter: ``mask`` when the call has one (a layer may
    assert it), and any other optional parameter the error names (``to_mask=None``)."""
    retries = []
    tensors = [a for a in call.args if isinstance(a, TensorSpec)]
    first = tensors[0] if tensors else None
    present = {k for k, _ in call.kwargs}
    for parameter in optional:
        if parameter.name in present or parameter.name in ("training", "name"):
            continue
        named = re.search(rf"\b{re.escape(parameter.name)}\b", error) is not None
        if parameter.name == "mask" or (named and "mask" in parameter.name):
            retries.append(call.with_kwarg(parameter.name, _mask_for(first, parameter.name)))
        elif named and first is not None:
            retries.append(call.with_kwarg(parameter.name, first))
    return retries


# -- the search -----------------------------------------------------------------------------------
def numbers_in(error: str, current: int) -> list[int]:
    """Sizes an error message names (``4 / 128 must be round``, ``In[1]: [19, 16]``): the
    feature size the target wants is often one of them."""
    found = []
    for text in re.findall(r"\b\d{1,4}\b", error):
        value = int(text)
        if 2 <= value <= 1024 and value not in (current, BATCH, SEQUENCE) and value not in found:
            found.append(value)
    return found[:3]


def with_last_axis(call_args: Arguments, size: int) -> Arguments:
    def resize(spec: Any) -> Any:
        if isinstance(spec, TensorSpec) and len(spec.shape) >= 2 and spec.dtype.startswith("float"):
            return TensorSpec(
                (*spec.shape[:-1], size), spec.dtype, spec.maxval, spec.batched, spec.ones
            )
        return spec

    return Arguments(
        tuple(resize(a) for a in call_args.args),
        tuple((k, resize(v)) for k, v in call_args.kwargs),
        call_args.origin + f", last axis {size} from an error message",
    )


def spec_of_input(tensor: Any) -> TensorSpec:
    """A sample for one of a Functional model's symbolic inputs (None axes filled in)."""
    shape = tuple(
        BATCH if n is None and i == 0 else (SEQUENCE if n is None else int(n))
        for i, n in enumerate(tuple(tensor.shape))
    )
    dtype = str(getattr(tensor.dtype, "name", tensor.dtype))
    return TensorSpec(shape, dtype, SIZE if "int" in dtype else None)
