"""What TensorFlow, Keras and a few other libraries' names are: the one interface the evaluator
asks, and a small built-in table behind it.

The evaluator never hard-codes library knowledge: it asks an :class:`ApiKnowledge` what a
qualified name is (module, class, function), what a call of it returns, and which TF/Keras base
kind a class has.  Names are canonical (:func:`tflsp.analysis.names.canonical`: every Keras
spelling is ``keras.*``); ``flavor`` is ``"tensorflow"`` for TensorFlow names and ``"keras3"`` or
``"tf_keras"`` for Keras names, as the module targets.

Generated data (``tflsp.analysis.apidata``: every public name of TF 2.21, Keras 3.15 and tf-keras
2.21, introspected) answers first when it is installed; the built-in table below covers the
common names until then and fills gaps afterwards.  Return kinds use one vocabulary:
``tensor``, ``variable``, ``keras_variable``, ``keras_tensor``, ``dataset``, ``gradient_tape``,
``ndarray``, ``function``, ``history``, ``none``, ``bool``, ``int``, ``float``, ``str``,
``module``, ``instance:<canonical class>``, plus ``foreign:<type>`` (another library's object)
and ``path`` here.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from functools import lru_cache
from typing import Protocol

from tflsp.analysis.semantic.values import (
    CALLBACK,
    LAYER,
    LOSS,
    METRIC,
    MODEL,
    OPTIMIZER,
    TF_MODULE,
)


class ApiKnowledge(Protocol):
    def kind(self, name: str, flavor: str) -> str | None:
        """``module`` | ``class`` | ``function`` | ``constant`` | None (unknown name)."""

    def returns(self, name: str, flavor: str) -> str | None:
        """What calling ``name`` returns (vocabulary in the module docstring), None: unknown."""

    def method_returns(self, cls: str, method: str, flavor: str) -> str | None:
        """What ``cls().method(...)`` returns, None: unknown."""

    def base_kind(self, name: str, flavor: str) -> str | None:
        """The TF/Keras base kind of a class: layer, model, metric, loss, optimizer, callback,
        module (tf.Module); None for other classes and unknown names."""


def _words(text: str) -> list[str]:
    return text.split()


# -- the built-in table ---------------------------------------------------------------------------
_TENSOR_FUNCTIONS = frozenset(
    f"tensorflow.{name}"
    for name in _words(
        "constant zeros ones zeros_like ones_like fill range eye linspace convert_to_tensor cast "
        "reshape concat stack unstack identity transpose expand_dims squeeze tile gather gather_nd "
        "where matmul add subtract multiply divide one_hot pad reverse sort argsort abs exp square "
        "sqrt maximum minimum clip_by_value reduce_sum reduce_mean reduce_max reduce_min "
        "reduce_prod reduce_any reduce_all reduce_std reduce_variance reduce_logsumexp "
        "boolean_mask broadcast_to einsum tensordot sequence_mask shape size rank argmax argmin "
        "norm equal not_equal greater greater_equal less less_equal logical_and logical_or "
        "logical_not round sign cumsum tensor_scatter_nd_update scatter_nd slice strided_slice "
        "py_function numpy_function repeat roll searchsorted math.reduce_sum "
        "random.uniform random.normal random.truncated_normal random.shuffle random.categorical "
        "random.poisson random.gamma random.stateless_uniform random.stateless_normal "
        "random.stateless_truncated_normal random.stateless_categorical random.stateless_binomial "
        "io.read_file io.decode_image io.decode_jpeg io.decode_png io.decode_raw "
        "io.serialize_tensor io.parse_tensor"
    )
)
_TENSOR_NAMESPACES = (
    "tensorflow.math.",
    "tensorflow.linalg.",
    "tensorflow.nn.",
    "tensorflow.image.",
    "tensorflow.signal.",
    "tensorflow.bitwise.",
    "tensorflow.strings.",
    "tensorflow.sparse.",
    "tensorflow.experimental.numpy.",
    "keras.ops.",
)
_NOT_TENSORS = frozenset(
    {
        "keras.ops.shape",
        "keras.ops.ndim",
        "keras.ops.dtype",
        "keras.ops.is_tensor",
        "keras.ops.convert_to_numpy",
        "tensorflow.linalg.LinearOperator",
        "tensorflow.nn.RNNCellDeviceWrapper",
        "tensorflow.image.ResizeMethod",
    }
)
# Keras utilities that make a tf.data dataset (batched: batch_size defaults to 32).
KERAS_DATASET_UTILITIES = frozenset(
    {
        "keras.utils.image_dataset_from_directory",
        "keras.utils.text_dataset_from_directory",
        "keras.utils.audio_dataset_from_directory",
        "keras.utils.timeseries_dataset_from_array",
        "keras.preprocessing.image_dataset_from_directory",
        "keras.preprocessing.text_dataset_from_directory",
        "keras.preprocessing.timeseries_dataset_from_array",
    }
)
_DATASET_SOURCES = (
    frozenset(
        f"tensorflow.data.{name}"
        for name in _words(
            "Dataset.from_tensor_slices Dataset.from_tensors Dataset.from_generator Dataset.range "
            "Dataset.list_files Dataset.zip Dataset.sample_from_datasets Dataset.choose_from_datasets "
            "Dataset.random Dataset.counter Dataset.load experimental.sample_from_datasets "
            "experimental.choose_from_datasets experimental.make_csv_dataset "
            "experimental.CsvDataset experimental.SqlDataset"
        )
    )
    | frozenset(
        {
            "tensorflow.data.TFRecordDataset",
            "tensorflow.data.TextLineDataset",
            "tensorflow.data.FixedLengthRecordDataset",
        }
    )
    | KERAS_DATASET_UTILITIES
)
_DATASET_CLASSES = frozenset(
    {
        "tensorflow.data.Dataset",
        "tensorflow.data.TFRecordDataset",
        "tensorflow.data.TextLineDataset",
        "tensorflow.data.FixedLengthRecordDataset",
    }
)
_RETURNS: dict[str, str] = {
    "tensorflow.Variable": "variable",
    "tensorflow.compat.v1.Variable": "variable",
    "tensorflow.compat.v1.get_variable": "variable",
    "keras.Variable": "keras_variable",
    "keras.Input": "keras_tensor",
    "tensorflow.GradientTape": "gradient_tape",
    "tensorflow.autodiff.GradientTape": "gradient_tape",
    "keras.saving.load_model": "instance:keras.Model",
    "keras.models.clone_model": "instance:keras.Model",
    "keras.models.model_from_json": "instance:keras.Model",
    "keras.saving.deserialize_keras_object": "instance:keras.Layer",
    "tensorflow.saved_model.load": "foreign:tensorflow.saved_model.Loaded",
    "tensorflow.compat.v2.saved_model.load": "foreign:tensorflow.saved_model.Loaded",
    "keras.utils.array_to_img": "foreign:PIL.Image.Image",
    "keras.utils.load_img": "foreign:PIL.Image.Image",
    "keras.preprocessing.image.array_to_img": "foreign:PIL.Image.Image",
    "keras.preprocessing.image.load_img": "foreign:PIL.Image.Image",
    "PIL.Image.open": "foreign:PIL.Image.Image",
    "PIL.Image.new": "foreign:PIL.Image.Image",
    "PIL.Image.fromarray": "foreign:PIL.Image.Image",
    "pandas.read_csv": "foreign:pandas.DataFrame",
    "pandas.read_json": "foreign:pandas.DataFrame",
    "pandas.read_parquet": "foreign:pandas.DataFrame",
    "pandas.DataFrame": "foreign:pandas.DataFrame",
    "pandas.Series": "foreign:pandas.Series",
    "matplotlib.pyplot.figure": "foreign:matplotlib.figure.Figure",
    "matplotlib.pyplot.gcf": "foreign:matplotlib.figure.Figure",
    "tensorflow.train.Checkpoint": "instance:tensorflow.train.Checkpoint",
    "tensorflow.train.CheckpointManager": "instance:tensorflow.train.CheckpointManager",
    "tensorflow.summary.create_file_writer": "foreign:tensorflow.summary.SummaryWriter",
    "tensorflow.random.Generator": "instance:tensorflow.random.Generator",
    "tensorflow.random.Generator.from_seed": "instance:tensorflow.random.Generator",
    "tensorflow.random.Generator.from_non_deterministic_state": "instance:tensorflow.random.Generator",
    "tensorflow.random.get_global_generator": "instance:tensorflow.random.Generator",
    "tensorflow.TensorArray": "instance:tensorflow.TensorArray",
    "tensorflow.function": "function",
    # Several tensors at once: a list, a tuple, a dict (not one tensor).
    **{
        f"tensorflow.{name}": "foreign:builtins.list"
        for name in _words("split unstack meshgrid dynamic_partition")
    },
    **{
        f"tensorflow.{name}": "foreign:builtins.tuple"
        for name in _words(
            "unique unique_with_counts math.top_k nn.top_k nn.moments nn.weighted_moments "
            "linalg.eigh linalg.qr linalg.svd linalg.eig nn.ctc_beam_search_decoder "
            "nn.ctc_greedy_decoder image.combined_non_max_suppression"
        )
    },
    **{
        f"tensorflow.io.{name}": "foreign:builtins.dict"
        for name in _words("parse_single_example parse_example parse_sequence_example")
    },
    "tensorflow.keras.backend.function": "function",
    "os.path.join": "str",
    "os.path.abspath": "str",
    "os.path.dirname": "str",
    "os.path.basename": "str",
    "os.path.expanduser": "str",
    "os.path.normpath": "str",
    "os.path.realpath": "str",
    "os.path.splitext": "foreign:builtins.tuple",
    "os.getcwd": "str",
    "os.fspath": "str",
    "os.environ.get": "str",
    "os.getenv": "str",
    "tempfile.mkdtemp": "str",
    "tempfile.gettempdir": "str",
    "pathlib.Path": "path",
    "pathlib.PurePath": "path",
    "pathlib.PosixPath": "path",
    "builtins.str": "str",
    "builtins.repr": "str",
    "builtins.format": "str",
    "builtins.int": "int",
    "builtins.len": "int",
    "builtins.hash": "int",
    "builtins.id": "int",
    "builtins.float": "float",
    "builtins.bool": "bool",
    "builtins.isinstance": "bool",
    "builtins.issubclass": "bool",
    "builtins.hasattr": "bool",
    "builtins.callable": "bool",
    "builtins.print": "none",
    "builtins.list": "foreign:builtins.list",
    "builtins.sorted": "foreign:builtins.list",
    "builtins.dict": "foreign:builtins.dict",
    "builtins.tuple": "foreign:builtins.tuple",
    "builtins.set": "foreign:builtins.set",
    "builtins.range": "foreign:builtins.range",
    "builtins.open": "foreign:io.TextIOWrapper",
    "numpy.random.seed": "none",
    "numpy.save": "none",
    "numpy.savez": "none",
    "numpy.savetxt": "none",
    "numpy.shape": "foreign:builtins.tuple",
    "numpy.ndim": "int",
    "numpy.prod": "ndarray",
    "collections.deque": "foreign:collections.deque",
    "collections.defaultdict": "foreign:builtins.dict",
    "collections.OrderedDict": "foreign:builtins.dict",
    "collections.Counter": "foreign:builtins.dict",
}
_APIDATA = "tflsp.analysis.apidata"  # generated API tables (:class:`_ApidataAdapter`)
_MODULES = frozenset(
    _words(
        "tensorflow keras numpy os os.path pathlib math random json pickle tempfile time sys "
        "functools itertools collections re shutil glob pandas PIL matplotlib matplotlib.pyplot "
        "tensorflow_datasets tensorflow_hub tf_keras jax scipy sklearn torch typing abc "
        "dataclasses logging subprocess argparse"
    )
)
_KERAS_SUBMODULES = frozenset(
    _words(
        "layers models losses metrics optimizers optimizers.schedules optimizers.legacy callbacks "
        "activations initializers regularizers constraints applications utils ops backend saving "
        "preprocessing datasets mixed_precision random export config dtype_policies "
        "quantizers tree visualization wrappers distribution legacy"
    )
)
_TF_SUBMODULES = frozenset(
    _words(
        "data math linalg nn image signal bitwise strings sparse random io train summary "
        "saved_model config distribute experimental autodiff compat compat.v1 compat.v2 "
        "keras lite dtypes errors test audio debugging feature_column lookup ragged "
        "sets types version xla autograph autograph.experimental data.experimental "
        "experimental.numpy estimator queue"
    )
)
_NOT_CLASSES = frozenset(
    {"keras.layers.Input", "keras.Input", "keras.layers.deserialize", "keras.layers.serialize"}
)
_NOT_LAYERS = frozenset({"keras.layers.InputSpec", "keras.InputSpec"})
# Namespaces whose capitalised public names are classes of one base kind.
_CLASS_NAMESPACES: tuple[tuple[str, str], ...] = (
    ("keras.layers.", LAYER),
    ("keras.metrics.", METRIC),
    ("keras.losses.", LOSS),
    ("keras.optimizers.legacy.", OPTIMIZER),
    ("keras.optimizers.", OPTIMIZER),
    ("keras.callbacks.", CALLBACK),
    ("keras.models.", MODEL),
)
_BASES: dict[str, str] = {
    "keras.Layer": LAYER,
    "keras.Model": MODEL,
    "keras.Sequential": MODEL,
    "keras.Metric": METRIC,
    "keras.Loss": LOSS,
    "keras.Optimizer": OPTIMIZER,
    "tensorflow.Module": TF_MODULE,
    "tensorflow.experimental.ExtensionType": "",
}
_TF1_TENSOR_OPS = frozenset(
    _words(
        "random_normal random_uniform truncated_normal random_shuffle placeholder "
        "placeholder_with_default to_float to_int32 to_int64 log div"
    )
)
# keras.applications.ResNet50 and friends are functions that build models.
_MODEL_FACTORY_NAMESPACES = ("keras.applications.",)


class BuiltinApi:
    """The hand-written fallback: common names only; None for anything it does not know."""

    def kind(self, name: str, flavor: str) -> str | None:
        if name in _MODULES:
            return "module"
        if name.startswith("keras.") and name[6:] in _KERAS_SUBMODULES:
            return "module"
        if name.startswith("tensorflow.") and name[11:] in _TF_SUBMODULES:
            return "module"
        if name in _NOT_CLASSES:
            return "function"
        if name in _BASES or name in _DATASET_CLASSES or self.base_kind(name, flavor):
            return "class"
        if name in _NOT_LAYERS or name in ("tensorflow.GradientTape", "tensorflow.Variable"):
            return "class"
        if self.returns(name, flavor) is not None:
            return "function"
        return None

    def base_kind(self, name: str, flavor: str) -> str | None:
        found = _BASES.get(name)
        if found is not None:
            return found or None
        if name in _NOT_CLASSES or name in _NOT_LAYERS:
            return None
        last = name.rpartition(".")[2]
        if not last[:1].isupper():
            return None
        for prefix, kind in _CLASS_NAMESPACES:
            if name.startswith(prefix) and "." not in name[len(prefix) :]:
                return kind
        if name.startswith("keras.optimizers.schedules."):
            return None
        return None

    def returns(self, name: str, flavor: str) -> str | None:
        found = _RETURNS.get(name)
        if found is not None:
            return found
        if name.startswith("tensorflow.compat.v1."):
            # TF1 ops return tensors like their TF2 namesakes (or their TF1-only spellings).
            rest = name[len("tensorflow.compat.v1.") :]
            if rest in _TF1_TENSOR_OPS:
                return "tensor"
            name = "tensorflow." + rest
            if name in _RETURNS:
                return None  # a TF2 class or function of the same name may differ in TF1
        if name in _DATASET_SOURCES:
            return "dataset"
        if name in _NOT_TENSORS:
            return None
        if name in _TENSOR_FUNCTIONS or name.startswith(_TENSOR_NAMESPACES):
            last = name.rpartition(".")[2]
            return None if last[:1].isupper() else "tensor"
        if name.startswith(_MODEL_FACTORY_NAMESPACES) and name.rpartition(".")[2][:1].isupper():
            return "instance:keras.Model"
        if name.startswith("numpy.") and not name.rpartition(".")[2][:1].isupper():
            return "ndarray"
        kind = self.base_kind(name, flavor)
        if kind is not None:
            return f"instance:{name}"
        return None

    def method_returns(self, cls: str, method: str, flavor: str) -> str | None:
        return None


class ChainedApi:
    """Ask each source in turn; the first answer wins."""

    def __init__(self, *sources: ApiKnowledge) -> None:
        self.sources = sources

    def kind(self, name: str, flavor: str) -> str | None:
        return _first(s.kind(name, flavor) for s in self.sources)

    def returns(self, name: str, flavor: str) -> str | None:
        return _first(s.returns(name, flavor) for s in self.sources)

    def method_returns(self, cls: str, method: str, flavor: str) -> str | None:
        return _first(s.method_returns(cls, method, flavor) for s in self.sources)

    def base_kind(self, name: str, flavor: str) -> str | None:
        return _first(s.base_kind(name, flavor) for s in self.sources)


def _first(answers: Iterable[str | None]) -> str | None:
    for answer in answers:
        if answer is not None:
            return answer
    return None


class _ApidataAdapter:
    """Wraps the generated data (``tflsp.analysis.apidata``) in this interface."""

    _BASE_CLASSES = (
        ("keras.Model", MODEL),
        ("keras.Layer", LAYER),
        ("keras.metrics.Metric", METRIC),
        ("keras.losses.Loss", LOSS),
        ("keras.optimizers.Optimizer", OPTIMIZER),
        ("keras.callbacks.Callback", CALLBACK),
        ("tensorflow.Module", TF_MODULE),
    )

    # The module is looked up on use rather than held: an analysis result (its summary) must
    # pickle, and module objects do not.  Looked up in ``sys.modules`` first: the evaluator asks
    # hundreds of times per keystroke, and ``import_module`` costs several times a dict lookup.
    @property
    def data(self) -> object:
        return sys.modules.get(_APIDATA) or importlib.import_module(_APIDATA)

    def kind(self, name: str, flavor: str) -> str | None:
        return self.data.kind(name, flavor)  # type: ignore[attr-defined]

    def returns(self, name: str, flavor: str) -> str | None:
        return self.data.returns(name, flavor)  # type: ignore[attr-defined]

    def method_returns(self, cls: str, method: str, flavor: str) -> str | None:
        return self.data.method_returns(cls, method, flavor)  # type: ignore[attr-defined]

    def base_kind(self, name: str, flavor: str) -> str | None:
        if self.kind(name, flavor) != "class":
            return None
        for base, kind in self._BASE_CLASSES:
            base_flavor = "tensorflow" if base.startswith("tensorflow.") else flavor
            if base_flavor != flavor and flavor != "tensorflow":
                continue
            if self.data.is_subclass(name, base, flavor):  # type: ignore[attr-defined]
                return kind
        return None


@lru_cache(maxsize=1)
def default_api() -> ApiKnowledge:
    """The generated data when present (another branch adds it), then the built-in table."""
    builtin = BuiltinApi()
    try:
        module = importlib.import_module(_APIDATA)
    except ImportError:
        return builtin
    if not all(hasattr(module, f) for f in ("kind", "returns", "method_returns", "is_subclass")):
        return builtin
    return ChainedApi(_ApidataAdapter(), builtin)
