"""How to build a target and what to call it with, when nobody said.

:func:`plan_for` returns a :class:`~.specs.Plan` shared by every probe of one verification:

- constructor arguments: given (``--args``, the directive), else the file's own literal call
  (``Cls(64, rate=0.1)``), else a guess per required parameter (:mod:`.guesses`);
- call inputs: given (``--inputs``, ``--input-shape``, ``--dtype``, the directive), else the
  ``input_signature`` of a ``tf.function``, the inputs of a Functional model, shapes the file
  feeds to the target, then candidates built from the call signature: one tensor per
  required parameter, ranked by names (``images`` has 4 axes, ``token_ids`` are integers),
  annotations, docstrings (``of shape (batch, seq, dim)``), ``build()``'s reads of the input
  shape, and the layer's ``input_spec``.  Masks are added when the call needs one, and
  optional parameters an error names are filled in.

Each candidate is tried on a fresh instance; the first one that runs wins.  When none does,
:class:`PlanError` says what was tried and exactly how to give the inputs.
"""

from __future__ import annotations

import contextlib
import inspect
import itertools
import re
import sys
import time
from typing import Any

from tflsp.verify.agent.capture import OutputCapture
from tflsp.verify.agent.facts import Facts, class_facts, doc_entry, doc_rank, function_facts
from tflsp.verify.agent.guesses import guess
from tflsp.verify.agent.specs import (
    BATCH,
    IMAGE,
    SEQUENCE,
    SIZE,
    Arguments,
    LayerSpec,
    Mapping,
    Plan,
    Sequence,
    TensorSpec,
    Value,
)
from tflsp.verify.agent.tfenv import keras_for_class, layer_bases, model_bases

MAX_ATTEMPTS = 40
MAX_SECONDS = 20.0
GIVE = (
    "give them with --args/--inputs/--input-shape/--dtype, or a comment above the definition "
    "such as '# tflsp: verify(args={...}, input_shape=(2, 5, 4), dtype=\"int32\")'"
)


class PlanError(Exception):
    """The target cannot be built or called with anything the verifier could infer."""


# -- what kind of target -------------------------------------------------------------------------
def _module_base() -> type | None:
    import tensorflow as tf

    return tf.Module


def _own_method(cls: type, name: str) -> bool:
    """Does ``cls`` (not Keras/TensorFlow) define ``name``?"""
    for klass in cls.__mro__:
        if name in vars(klass):
            module = klass.__module__ or ""
            return not module.startswith(("keras", "tf_keras", "tensorflow"))
    return False


def target_kind(obj: Any) -> str:
    if isinstance(obj, type):
        if issubclass(obj, layer_bases()):
            models = model_bases()
            if models and issubclass(obj, models):
                if not _own_method(obj, "call"):
                    return "functional" if not _own_method(obj, "__init__") else "model_no_call"
                return "model"
            return "layer"
        base = _module_base()
        if base is not None and issubclass(obj, base):
            return "module" if _own_method(obj, "__call__") else "no_call"
        return "class"
    if callable(obj):
        return "function"
    return "other"


# -- given options -------------------------------------------------------------------------------
def _given_value(value: Any, dtype: str | None = None) -> Any:
    """A value from ``--inputs`` or the directive's ``inputs=``."""
    if isinstance(value, dict):
        if "shape" in value:
            return TensorSpec(
                tuple(int(n) for n in value["shape"]),
                str(value.get("dtype") or dtype or "float32"),
                int(value["max"]) if value.get("max") is not None else None,
            )
        if "python" in value:
            return Value(value["python"])
        if "values" in value:
            return _literal_tensor(value["values"], value.get("dtype") or dtype)
        return Mapping(tuple((str(k), _given_value(v, dtype)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return _literal_tensor(value, dtype)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return _literal_tensor(value, dtype)
    return Value(value)


class LiteralTensor(Value):
    """Values the user gave: the same tensor every time (batch sizes cannot be varied)."""

    def make(self, seed: int = 0, batch: int | None = None) -> Any:
        import tensorflow as tf

        data, dtype = self.value
        return tf.constant(data, dtype=dtype)

    def describe(self) -> str:
        import numpy as np

        data, dtype = self.value
        return f"{dtype}{list(np.shape(data))} (given values)"


def _literal_tensor(data: Any, dtype: str | None) -> Any:
    import numpy as np

    array = np.asarray(data)
    chosen = dtype or (
        "int32" if array.dtype.kind in "iu" else "bool" if array.dtype.kind == "b" else "float32"
    )
    return LiteralTensor((array.tolist(), chosen))


def given_call(options: dict[str, Any], params: list[inspect.Parameter]) -> Arguments | None:
    if "inputs" in options:
        inputs = options["inputs"]
        dtype = options.get("dtype") if isinstance(options.get("dtype"), str) else None
        if isinstance(inputs, dict) and set(inputs) == {"npz"}:
            return _npz_call(str(inputs["npz"]))
        if isinstance(inputs, dict):
            return Arguments(
                kwargs=tuple((str(k), _given_value(v, dtype)) for k, v in inputs.items()),
                origin="given",
            )
        return Arguments(args=tuple(_given_value(v, dtype) for v in inputs), origin="given")
    if "input_shape" in options:
        shapes = options["input_shape"]
        if shapes and not isinstance(shapes[0], (list, tuple)):
            shapes = [shapes]
        dtypes = options.get("dtype", "float32")
        if isinstance(dtypes, str):
            dtypes = [dtypes] * len(shapes)
        specs = []
        for shape, dtype in zip(shapes, dtypes, strict=False):
            specs.append(
                TensorSpec(tuple(int(n) for n in shape), dtype, SIZE if "int" in dtype else None)
            )
        return Arguments(args=tuple(specs), origin="given")
    return None


def _npz_call(path: str) -> Arguments:
    """Arrays ``arg0``, ``arg1``... are positional arguments; other names are keywords."""
    import numpy as np

    with np.load(path) as data:
        arrays = {name: data[name] for name in data.files}
    positional = sorted((n for n in arrays if re.fullmatch(r"arg\d+", n)), key=lambda n: int(n[3:]))
    return Arguments(
        args=tuple(LiteralTensor((arrays[n].tolist(), str(arrays[n].dtype))) for n in positional),
        kwargs=tuple(
            (n, LiteralTensor((a.tolist(), str(a.dtype))))
            for n, a in arrays.items()
            if n not in positional
        ),
        origin="given",
    )


def given_construct(options: dict[str, Any]) -> Arguments | None:
    if "args" in options or "kwargs" in options:
        return Arguments(
            args=tuple(Value(v) for v in options.get("args", [])),
            kwargs=tuple((k, Value(v)) for k, v in options.get("kwargs", {}).items()),
            origin="given",
        )
    return None


# -- constructor arguments -------------------------------------------------------------------------
def _init_parameters(cls: type) -> list[inspect.Parameter]:
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
    params = _init_parameters(cls)
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
    for parameter in _init_parameters(cls)[len(construct.args) :]:
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
def fresh_names() -> None:
    """Layer names as in a fresh program (``dense``, not ``dense_7``): the verifier builds a
    target several times, and reports name its variables."""
    for name in ("keras.src.utils.naming", "tf_keras.backend"):
        module = sys.modules.get(name)
        reset = getattr(module, "reset_uids", None)
        if reset is not None:
            with contextlib.suppress(Exception):
                reset()


def instantiate(plan: Plan, cls: type, seed: int = 1234) -> Any:
    """A fresh instance as the plan says (seeded, so two instances start alike)."""
    keras = keras_for_class(cls) if issubclass(cls, layer_bases()) else None
    fresh_names()
    _seed(keras, seed)
    if plan.kind == "functional":
        assert keras is not None
        inputs = keras.Input(shape=plan.functional_inputs[0].shape[1:])
        outputs = keras.layers.Dense(2)(inputs)
        return cls(inputs, outputs)
    construct = plan.construct or Arguments()
    args, kwargs = construct.make(keras=keras)
    instance = cls(*args, **kwargs)
    if plan.adapt and plan.call is not None:
        # A preprocessing model learns its statistics first (Normalization.adapt()).
        inputs, _ = plan.call.make(seed=100)
        instance.adapt(*inputs)
    return instance


def _seed(keras: Any, seed: int) -> None:
    import tensorflow as tf

    if keras is not None:
        keras.utils.set_random_seed(seed)
    else:
        tf.random.set_seed(seed)
        import random

        import numpy as np

        random.seed(seed)
        np.random.seed(seed)


def call(
    target: Any,
    call_args: Arguments,
    *,
    seed: int = 0,
    batch: int | None = None,
    memo: dict[int, Any] | None = None,
    **extra: Any,
) -> Any:
    args, kwargs = call_args.make(seed, batch, memo=memo)
    kwargs.update(extra)
    return target(*args, **kwargs)


def _first_text(exc: BaseException) -> str:
    from tflsp.verify.agent.common import strip_ansi
    from tflsp.verify.agent.modes_compare import exception_summary

    return f"{type(exc).__name__}: {exception_summary(strip_ansi(str(exc)))}"


class TargetBroken(PlanError):
    """Building the target fails at a line that uses none of the guessed arguments: the
    failure is the code's own, not the verifier's guess."""

    def __init__(self, message: str, line: int | None, detail: str) -> None:
        super().__init__(message)
        self.line = line
        self.detail = detail


# Errors in how the code calls an API, whatever the values: a removed name, a missing or
# unexpected argument, an argument Keras 3 wants by keyword.
_API_MISUSE_RE = re.compile(
    r"missing \d+ required (positional|keyword-only) argument|got an unexpected keyword argument"
    r"|takes \d+ positional arguments? but \d+ (was|were) given|must be passed as a keyword argument"
    r"|module '[\w.]+' has no attribute"
)


def _broken(
    context: Any, cls: type, construct: Arguments, exc: BaseException, stage: str = "building"
) -> TargetBroken | None:
    """The failure is the code's own when it happens in the target's code, at a line that uses
    none of the arguments the verifier chose, or is a misuse of an API whatever the values."""
    from tflsp.verify.agent.common import describe_exception

    description = describe_exception(exc, context.files)
    line = description.get("line")
    if line is None:
        return None
    lines = context.source.splitlines()
    if not 0 < line <= len(lines):
        return None
    text = lines[line - 1]
    names = [k for k, _ in construct.kwargs] + [
        p.name for p in _init_parameters(cls)[: len(construct.args)]
    ]
    misuse = _API_MISUSE_RE.search(str(exc)) is not None
    if stage != "building" and not misuse:
        return None
    if not misuse and any(re.search(rf"\b{re.escape(n)}\b", text) for n in names):
        return None
    from tflsp.verify.agent.modes_compare import exception_summary

    summary = exception_summary(str(exc))
    why = (
        "a misuse of the API whatever the values"
        if misuse
        else "a line that uses none of the arguments the verifier chose"
    )
    return TargetBroken(
        f"{stage} {cls.__name__} fails at line {line} ({why}): {type(exc).__name__}: {summary}",
        line,
        f"{description['type']}: {description['message']}",
    )


def _numbers_in(error: str, current: int) -> list[int]:
    """Sizes an error message names (``4 / 128 must be round``, ``In[1]: [19, 16]``): the
    feature size the target wants is often one of them."""
    found = []
    for text in re.findall(r"\b\d{1,4}\b", error):
        value = int(text)
        if 2 <= value <= 1024 and value not in (current, BATCH, SEQUENCE) and value not in found:
            found.append(value)
    return found[:3]


def _with_last_axis(call_args: Arguments, size: int) -> Arguments:
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


def _signature_call(method: Any) -> Arguments | None:
    """A ``tf.function(input_signature=...)``-decorated call: its signature says it all."""
    signature = getattr(method, "input_signature", None)
    if not signature:
        return None
    specs = []
    for spec in signature:
        shape = getattr(spec, "shape", None)
        dims = [] if shape is None or shape.rank is None else list(shape)
        concrete = tuple(
            (BATCH if i == 0 else SEQUENCE) if d is None else int(d) for i, d in enumerate(dims)
        )
        dtype = getattr(getattr(spec, "dtype", None), "name", "float32")
        specs.append(
            TensorSpec(concrete, dtype, SIZE if "int" in dtype else None, batched=bool(dims))
        )
    return Arguments(args=tuple(specs), origin="its input_signature")


def _plan_class(context: Any, cls: type, kind: str) -> Plan:
    options = context.options
    facts = class_facts(context.source, context.target_name)
    namespace = vars(context.module)
    given = given_construct(options)
    constructs = (
        [given]
        if given is not None
        else construct_candidates(cls, facts, namespace, context.source)
    )
    if kind == "functional":
        functional = Plan("functional", functional_inputs=(TensorSpec((BATCH, SIZE)),))
        functional.call = Arguments(
            args=(TensorSpec((BATCH, SIZE)),), origin="a small Functional graph"
        )
        functional.notes.append(f"built as {cls.__name__}(inputs, outputs) on a Dense layer")
        instantiate(functional, cls)
        return functional
    method = (
        getattr(cls, "call", None)
        if kind in ("layer", "model", "model_no_call")
        else vars(cls).get("__call__") or getattr(cls, "__call__", None)  # noqa: B004
    )
    python_method = getattr(method, "python_function", method)
    params = call_parameters(python_method, bound=False) if python_method is not None else []
    doc = "\n".join(filter(None, [facts.docstring, inspect.getdoc(python_method) or ""]))
    first_int = bool(facts.first_layer and "Embedding" in facts.first_layer)
    training = any(p.name == "training" for p in params)
    attempts: list[str] = []
    started = time.monotonic()
    tried = 0
    broken: TargetBroken | None = None
    broken_calls: list[TargetBroken] = []
    constructed = False
    for construct in constructs:
        current: Arguments | None = construct
        for _ in range(3):
            assert current is not None
            plan = Plan(kind, construct=current, training=training)
            try:
                with OutputCapture():
                    instance = instantiate(plan, cls)
            except Exception as exc:
                attempts.append(f"{current.describe(cls.__name__)}: {_first_text(exc)}")
                broken = broken or _broken(context, cls, current, exc)
                filled = fill_named_parameter(cls, current, str(exc), facts, namespace)
                if filled is None:
                    break
                current = filled
                continue
            constructed = True
            if kind in ("model_no_call", "no_call"):
                inputs = getattr(instance, "inputs", None)
                if inputs:
                    plan.kind = "model"
                    specs = tuple(_spec_of_input(t) for t in inputs)
                    plan.call = Arguments(
                        args=specs if len(specs) == 1 else (Sequence(specs),),
                        origin="the model's own inputs",
                    )
                    return _finish(plan, current, cls)
                plan.kind = "no_call"
                plan.notes.append(f"{cls.__name__} has no call(): it is built but not called")
                return _finish(plan, current, cls)
            given_inputs = given_call(options, params) or _signature_call(method)
            if given_inputs is not None:
                calls, optional = [given_inputs], [p for p in params if p.default is None]
            else:
                calls, optional = call_candidates(
                    params, facts, function=False, instance=instance, first_int=first_int, doc=doc
                )
            queue = list(calls)
            seen: set[str] = set()
            last_error = ""
            resized = 0
            while queue and tried < MAX_ATTEMPTS and time.monotonic() - started < MAX_SECONDS:
                candidate = queue.pop(0)
                key = candidate.describe()
                if key in seen:
                    continue
                seen.add(key)
                tried += 1
                try:
                    with OutputCapture():
                        target = instance if tried == 1 else instantiate(plan, cls)
                        call(target, candidate)
                except Exception as exc:
                    last_error = str(exc)
                    attempts.append(
                        f"{candidate.describe(cls.__name__ + '(...)')}: {_first_text(exc)}"
                    )
                    if _own_method(cls, "adapt") and _adapts(plan, cls, candidate):
                        return _finish(plan, current, cls)
                    call_broken = _broken(context, cls, current, exc, "calling")
                    if call_broken is not None:
                        broken_calls.append(call_broken)
                    retries = with_optional(candidate, optional, last_error)
                    tensors = candidate.tensors()
                    if (
                        resized < 4
                        and tensors
                        and len(tensors[0].shape) >= 2
                        and candidate.origin != "given"
                    ):
                        sizes = _numbers_in(last_error, tensors[0].shape[-1])
                        retries += [_with_last_axis(candidate, n) for n in sizes]
                        resized += len(sizes)
                    queue[0:0] = [r for r in retries if r.describe() not in seen]
                    continue
                plan.call = candidate
                return _finish(plan, current, cls)
            filled = fill_named_parameter(cls, current, last_error, facts, namespace)
            if filled is None:
                break
            current = filled
    if broken is not None and not constructed:
        raise broken
    if broken_calls and len(broken_calls) == tried:
        raise broken_calls[0]
    raise PlanError(_explain(cls.__name__, attempts))


def _adapts(plan: Plan, cls: type, candidate: Arguments) -> bool:
    """Does the call work once ``adapt()`` has seen the inputs?  (Sets the plan up if so.)"""
    adapted = Plan(plan.kind, construct=plan.construct, training=plan.training, adapt=True)
    adapted.call = candidate
    try:
        with OutputCapture():
            call(instantiate(adapted, cls), candidate)
    except Exception:
        return False
    plan.adapt, plan.call = True, candidate
    plan.notes.append("adapt() is called on the same inputs first")
    return True


def _spec_of_input(tensor: Any) -> TensorSpec:
    """A sample for one of a Functional model's symbolic inputs (None axes filled in)."""
    shape = tuple(
        BATCH if n is None and i == 0 else (SEQUENCE if n is None else int(n))
        for i, n in enumerate(tuple(tensor.shape))
    )
    dtype = str(getattr(tensor.dtype, "name", tensor.dtype))
    return TensorSpec(shape, dtype, SIZE if "int" in dtype else None)


def _finish(plan: Plan, construct: Arguments, cls: type) -> Plan:
    plan.construct = construct
    if construct.origin != "given" and construct.kwargs:
        plan.notes.append(f"built as {construct.describe(cls.__name__)} ({construct.origin})")
        plan.notes.extend(construct.reasons)
    if plan.call is not None and plan.call.origin != "given":
        plan.notes.append(f"called on {plan.call.describe('')} ({plan.call.origin})")
    return plan


def _explain(name: str, attempts: list[str]) -> str:
    shown = attempts[:4]
    more = f" (and {len(attempts) - 4} more)" if len(attempts) > 4 else ""
    return (
        f"could not build and call {name} with what the verifier inferred; tried "
        + "; ".join(shown)
        + more
        + f". Say how to build and call it: {GIVE}"
    )


def _plan_function(context: Any, fn: Any) -> Plan:
    options = context.options
    facts = function_facts(context.source, context.target_name)
    python_fn = getattr(fn, "python_function", fn)
    params = call_parameters(python_fn, bound=True)
    plan = Plan("function")
    given_inputs = given_call(options, params)
    signature = getattr(fn, "input_signature", None)
    if given_inputs is not None:
        calls = [given_inputs]
    elif signature:
        specs = []
        for spec in signature:
            shape = getattr(spec, "shape", None)
            dims = [] if shape is None or shape.rank is None else list(shape)
            concrete = tuple(SIZE if d is None else int(d) for d in dims)
            dtype = getattr(getattr(spec, "dtype", None), "name", "float32")
            specs.append(
                TensorSpec(
                    concrete,
                    dtype,
                    SIZE if "int" in dtype else None,
                    batched=bool(dims) and dims[0] is None,
                )
            )
        calls = [Arguments(args=tuple(specs), origin="its input_signature")]
    else:
        calls, _optional = call_candidates(params, facts, function=True, doc=facts.docstring)
    attempts: list[str] = []
    for candidate in calls[:MAX_ATTEMPTS]:
        try:
            with OutputCapture():
                call(python_fn, candidate)
        except Exception as exc:
            attempts.append(f"{candidate.describe(context.target_name)}: {_first_text(exc)}")
            continue
        finally:
            context.restore_module()
        plan.call = candidate
        if candidate.origin != "given":
            plan.notes.append(
                f"called as {candidate.describe(context.target_name)} ({candidate.origin})"
            )
        return plan
    raise PlanError(_explain(context.target_name, attempts))


def plan_for(context: Any, obj: Any) -> Plan:
    """The plan for ``obj`` (the target), computed once per verification."""
    cached = context.cached_plan()
    if cached is not None:
        return cached
    kind = target_kind(obj)
    if kind == "function":
        plan = _plan_function(context, obj)
    elif kind in ("layer", "model", "functional", "model_no_call", "module", "no_call"):
        plan = _plan_class(context, obj, kind)
    else:
        raise PlanError(
            f"{context.target_name} is not a Keras Layer or Model, a tf.Module or a function"
        )
    with contextlib.suppress(Exception):
        context.restore_module()
    context.remember_plan(plan)
    return plan


__all__ = ["LayerSpec", "Plan", "PlanError", "call", "instantiate", "plan_for", "target_kind"]
