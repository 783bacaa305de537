"""TF1 names that no longer exist in TensorFlow 2, and what to use instead (data for TFL601).

Keys are paths below ``tensorflow`` (``"train.AdamOptimizer"``); a key that names a module
(``"contrib"``, ``"gfile"``) covers everything below it unless a longer key matches first.
Every fact here was checked on TF 2.21 with Keras 3 and tf-keras 2.21, and
``tests/detectors/test_migration.py::test_table_matches_tensorflow`` re-checks the table
against the installed TensorFlow:

- ``tf.<key>`` raises ``AttributeError`` (on the Keras versions in ``keras``);
- ``compat`` says whether ``tf.compat.v1.<key>`` exists;
- ``rename`` is set only when ``tf.compat.v1.<key> is tf.<rename>`` (the very same object),
  which is what makes the rename a safe fix.
"""

from __future__ import annotations

from dataclasses import dataclass

BOTH = frozenset({2, 3})


@dataclass(frozen=True, slots=True)
class Removed:
    """One TF1 name and its TensorFlow 2 replacement.

    ``replacement`` is code (Markdown backticks included) so that one text serves every
    message language.  ``kind`` picks the message variant: ``removed`` (use the replacement),
    ``delete`` (TF2 needs nothing), ``gone`` (no ``tf.compat.v1`` form either) and
    ``keras_module`` (``tf.losses``/``tf.metrics`` are Keras modules now).
    """

    replacement: str
    compat: bool = True
    rename: str | None = None
    kind: str = "removed"
    keras: frozenset[int] = BOTH
    # tf.compat.v1.<key> exists but fails with Keras 3 (tf.compat.v1.layers).
    compat_fails_on_keras3: bool = False


def _renames(pairs: dict[str, str]) -> dict[str, Removed]:
    return {old: Removed(f"`tf.{new}`", rename=new) for old, new in pairs.items()}


def _same(replacement: str, names: str, **kwargs: object) -> dict[str, Removed]:
    return {name: Removed(replacement, **kwargs) for name in names.split()}  # type: ignore[arg-type]


# Pure renames: tf.compat.v1.<old> is tf.<new>.
_RENAMES = _renames(
    {
        "random_normal": "random.normal",
        "random_uniform": "random.uniform",
        "truncated_normal": "random.truncated_normal",
        "random_shuffle": "random.shuffle",
        "random_gamma": "random.gamma",
        "log": "math.log",
        "ceil": "math.ceil",
        "rsqrt": "math.rsqrt",
        "lgamma": "math.lgamma",
        "erf": "math.erf",
        "erfc": "math.erfc",
        "digamma": "math.digamma",
        "igamma": "math.igamma",
        "betainc": "math.betainc",
        "is_nan": "math.is_nan",
        "is_inf": "math.is_inf",
        "is_finite": "math.is_finite",
        "squared_difference": "math.squared_difference",
        "conj": "math.conj",
        "imag": "math.imag",
        "real": "math.real",
        "angle": "math.angle",
        "floordiv": "math.floordiv",
        "mod": "math.floormod",
        "segment_sum": "math.segment_sum",
        "unsorted_segment_sum": "math.unsorted_segment_sum",
        "check_numerics": "debugging.check_numerics",
        "diag": "linalg.tensor_diag",
        "diag_part": "linalg.tensor_diag_part",
        "matrix_inverse": "linalg.inv",
        "matrix_transpose": "linalg.matrix_transpose",
        "matrix_determinant": "linalg.det",
        "matrix_band_part": "linalg.band_part",
        "matrix_diag": "linalg.diag",
        "matrix_set_diag": "linalg.set_diag",
        "matrix_solve": "linalg.solve",
        "cross": "linalg.cross",
        "FixedLenFeature": "io.FixedLenFeature",
        "VarLenFeature": "io.VarLenFeature",
        "FixedLenSequenceFeature": "io.FixedLenSequenceFeature",
        "SparseFeature": "io.SparseFeature",
        "read_file": "io.read_file",
        "write_file": "io.write_file",
        "string_join": "strings.join",
        "regex_replace": "strings.regex_replace",
        "sparse_tensor_to_dense": "sparse.to_dense",
        "quantize": "quantization.quantize",
        "dequantize": "quantization.dequantize",
        "fake_quant_with_min_max_args": "quantization.fake_quant_with_min_max_args",
        "gfile.GFile": "io.gfile.GFile",
        "gfile.Open": "io.gfile.GFile",
        "image.resize_image_with_crop_or_pad": "image.resize_with_crop_or_pad",
    }
)

_OPTIMIZERS = {
    "GradientDescentOptimizer": "SGD",
    "MomentumOptimizer": "SGD",
    "AdamOptimizer": "Adam",
    "AdagradOptimizer": "Adagrad",
    "AdadeltaOptimizer": "Adadelta",
    "RMSPropOptimizer": "RMSprop",
    "FtrlOptimizer": "Ftrl",
    "ProximalGradientDescentOptimizer": "SGD",
    "ProximalAdagradOptimizer": "Adagrad",
    "AdagradDAOptimizer": "Adagrad",
    "Optimizer": "Optimizer",
}

_DECAYS = {
    "exponential_decay": "ExponentialDecay",
    "natural_exp_decay": "ExponentialDecay",
    "piecewise_constant": "PiecewiseConstantDecay",
    "polynomial_decay": "PolynomialDecay",
    "cosine_decay": "CosineDecay",
    "inverse_time_decay": "InverseTimeDecay",
}

_CASTS = {
    "to_float": "tf.float32",
    "to_double": "tf.float64",
    "to_int32": "tf.int32",
    "to_int64": "tf.int64",
    "to_bfloat16": "tf.bfloat16",
    "to_complex64": "tf.complex64",
}

_KERAS_LOSSES = {
    "softmax_cross_entropy": "keras.losses.CategoricalCrossentropy(from_logits=True)",
    "sparse_softmax_cross_entropy": "keras.losses.SparseCategoricalCrossentropy(from_logits=True)",
    "sigmoid_cross_entropy": "keras.losses.BinaryCrossentropy(from_logits=True)",
    "absolute_difference": "keras.losses.MeanAbsoluteError()",
    "hinge_loss": "keras.losses.Hinge()",
    "huber_loss": "keras.losses.Huber()",
    "log_loss": "keras.losses.BinaryCrossentropy()",
    "cosine_distance": "keras.losses.CosineSimilarity()",
    "mean_pairwise_squared_error": "keras.losses.MeanSquaredError()",
    "compute_weighted_loss": "keras.losses.Loss(reduction=...)",
    "get_losses": "model.losses",
    "get_total_loss": "model.losses",
    "get_regularization_loss": "model.losses",
    "add_loss": "Layer.add_loss",
}

_KERAS_METRICS = {
    "accuracy": "Accuracy",
    "auc": "AUC",
    "mean": "Mean",
    "precision": "Precision",
    "recall": "Recall",
}

TABLE: dict[str, Removed] = {
    **_RENAMES,
    # -- sessions, graphs, placeholders ----------------------------------------------------
    **_same("`tf.function`", "Session InteractiveSession get_default_session get_default_graph"),
    "placeholder": Removed("`keras.Input` / `tf.function`"),
    "placeholder_with_default": Removed("`tf.function`"),
    "sparse_placeholder": Removed("`tf.SparseTensor` / `tf.function`"),
    "reset_default_graph": Removed("`keras.backend.clear_session()`"),
    **_same("`tf.config`", "ConfigProto GPUOptions RunOptions RunMetadata GraphOptions"),
    "OptimizerOptions": Removed("`tf.config.optimizer`"),
    "colocate_with": Removed("`tf.device`"),
    **_same("`tf.name_scope`", "variable_scope variable_op_scope op_scope"),
    "AUTO_REUSE": Removed("`keras.layers`"),
    "make_template": Removed("`keras.layers.Layer`"),
    **_same("`tf.Module`", "get_collection get_collection_ref add_to_collection GraphKeys"),
    "Dimension": Removed("`tf.TensorShape`"),
    # -- variables -------------------------------------------------------------------------
    **_same("`tf.Variable` / `Layer.add_weight`", "get_variable get_local_variable"),
    **_same(
        "`model.trainable_variables` / `tf.Module.trainable_variables`",
        "global_variables all_variables local_variables trainable_variables model_variables",
    ),
    **_same(
        "",
        "global_variables_initializer local_variables_initializer initialize_all_variables "
        "variables_initializer tables_initializer initialize_all_tables "
        "report_uninitialized_variables is_variable_initialized assert_variables_initialized "
        "enable_eager_execution enable_v2_behavior",
        kind="delete",
    ),
    **_same("`tf.function`", "disable_eager_execution disable_v2_behavior"),
    **_same("`variable.assign()`", "assign"),
    "assign_add": Removed("`variable.assign_add()`"),
    "assign_sub": Removed("`variable.assign_sub()`"),
    # -- ops that moved or changed ---------------------------------------------------------
    "set_random_seed": Removed("`tf.random.set_seed`"),
    "random.set_random_seed": Removed("`tf.random.set_seed`"),
    "random_poisson": Removed("`tf.random.poisson`"),
    "multinomial": Removed("`tf.random.categorical`"),
    **{name: Removed(f"`tf.cast(x, {dtype})`") for name, dtype in _CASTS.items()},
    "py_func": Removed("`tf.numpy_function` / `tf.py_function`"),
    "Print": Removed("`tf.print`"),
    "div": Removed("`tf.math.divide` / `tf.math.floordiv`"),
    "arg_max": Removed("`tf.math.argmax`"),
    "arg_min": Removed("`tf.math.argmin`"),
    "count_nonzero": Removed("`tf.math.count_nonzero`"),
    "confusion_matrix": Removed("`tf.math.confusion_matrix`"),
    "verify_tensor_all_finite": Removed("`tf.debugging.check_numerics`"),
    "decode_raw": Removed("`tf.io.decode_raw`"),
    "decode_csv": Removed("`tf.io.decode_csv`"),
    "parse_single_example": Removed("`tf.io.parse_single_example`"),
    "parse_example": Removed("`tf.io.parse_example`"),
    "string_to_number": Removed("`tf.strings.to_number`"),
    "string_to_hash_bucket": Removed("`tf.strings.to_hash_bucket`"),
    "substr": Removed("`tf.strings.substr`"),
    "reduce_join": Removed("`tf.strings.reduce_join`"),
    "string_split": Removed("`tf.strings.split`"),
    "sparse_to_dense": Removed("`tf.sparse.to_dense`"),
    "extract_image_patches": Removed("`tf.image.extract_patches`"),
    "space_to_depth": Removed("`tf.nn.space_to_depth`"),
    "depth_to_space": Removed("`tf.nn.depth_to_space`"),
    **_same("`tf.data.TFRecordDataset`", "TFRecordReader"),
    "WholeFileReader": Removed("`tf.data.Dataset.list_files` / `tf.io.read_file`"),
    # Names from before TF 1.0: not even tf.compat.v1 has them.
    "SummaryWriter": Removed("`tf.summary.create_file_writer`", compat=False),
    "scalar_summary": Removed("`tf.summary.scalar`", compat=False),
    "image_summary": Removed("`tf.summary.image`", compat=False),
    "histogram_summary": Removed("`tf.summary.histogram`", compat=False),
    "merge_all_summaries": Removed("`tf.summary.create_file_writer`", compat=False),
    # -- whole modules ---------------------------------------------------------------------
    "contrib": Removed("", compat=False, kind="gone"),
    "estimator": Removed("`keras.Model`", compat=False, kind="gone"),
    "examples": Removed("`keras.datasets`", compat=False, kind="gone"),
    "app": Removed("`absl.app`"),
    "flags": Removed("`absl.flags`"),
    "logging": Removed("`absl.logging` / `tf.get_logger()`"),
    "gfile": Removed("`tf.io.gfile`"),
    "layers": Removed("`keras.layers`", compat_fails_on_keras3=True),
    "distributions": Removed("`tfp.distributions` (TensorFlow Probability)"),
    "resource_loader": Removed("`importlib.resources`"),
    "user_ops": Removed("`tf.load_op_library`"),
    # -- tf.train ---------------------------------------------------------------------------
    **{f"train.{name}": Removed(f"`keras.optimizers.{new}`") for name, new in _OPTIMIZERS.items()},
    **{
        f"train.{name}": Removed(f"`keras.optimizers.schedules.{new}`")
        for name, new in _DECAYS.items()
    },
    "train.Saver": Removed("`tf.train.Checkpoint`"),
    **_same(
        "`optimizer.iterations`",
        "train.get_global_step train.get_or_create_global_step train.global_step",
    ),
    **_same(
        "`tf.data.Dataset`",
        "train.start_queue_runners train.QueueRunner train.string_input_producer "
        "train.batch train.shuffle_batch",
    ),
    **_same("`tf.saved_model.save` / `tf.saved_model.load`", "train.import_meta_graph"),
    "train.export_meta_graph": Removed("`tf.saved_model.save`"),
    "train.write_graph": Removed("`tf.io.write_graph`"),
    **_same(
        "`keras.Model.fit` / `keras.callbacks.Callback`",
        "train.MonitoredTrainingSession train.SessionRunHook train.Scaffold",
    ),
    "train.summary_iterator": Removed("`tf.data.TFRecordDataset`"),
    "train.replica_device_setter": Removed("`tf.distribute`"),
    "train.Server": Removed("`tf.distribute.Server`"),
    # -- tf.nn ----------------------------------------------------------------------------------
    "nn.softmax_cross_entropy_with_logits_v2": Removed("`tf.nn.softmax_cross_entropy_with_logits`"),
    **_same(
        "`keras.layers.RNN` / `keras.layers.LSTM`",
        "nn.dynamic_rnn nn.static_rnn nn.bidirectional_dynamic_rnn nn.raw_rnn",
    ),
    # Like tf.compat.v1.layers, a lazy tf-keras module: every attribute fails with Keras 3.
    "nn.rnn_cell": Removed("`keras.layers.RNN` / `keras.layers.LSTM`", compat_fails_on_keras3=True),
    "nn.xw_plus_b": Removed("`tf.matmul(x, w) + b`"),
    "nn.relu_layer": Removed("`tf.nn.relu(tf.matmul(x, w) + b)`"),
    "nn.fused_batch_norm": Removed("`tf.nn.batch_normalization`"),
    # -- tf.summary ------------------------------------------------------------------------------
    "summary.FileWriter": Removed("`tf.summary.create_file_writer`"),
    "summary.FileWriterCache": Removed("`tf.summary.create_file_writer`"),
    **_same("`tf.summary.create_file_writer(...).as_default()`", "summary.merge_all summary.merge"),
    "summary.tensor_summary": Removed("`tf.summary.write`"),
    # -- tf.image ----------------------------------------------------------------------------------
    **_same(
        "`tf.image.resize`",
        "image.resize_images image.resize_bilinear image.resize_nearest_neighbor "
        "image.resize_bicubic image.resize_area",
    ),
    "image.resize_image_with_pad": Removed("`tf.image.resize_with_pad`"),
    "image.extract_image_patches": Removed("`tf.image.extract_patches`"),
    # -- tf.saved_model, tf.data, tf.io ----------------------------------------------------------
    **_same(
        "`tf.saved_model.save` / `tf.saved_model.load`",
        "saved_model.simple_save saved_model.loader saved_model.builder saved_model.Builder "
        "saved_model.main_op saved_model.utils saved_model.signature_def_utils",
    ),
    "saved_model.tag_constants": Removed("`tf.saved_model.SERVING`"),
    "saved_model.signature_constants": Removed(
        "`tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY`"
    ),
    **_same("`iter(dataset)`", "data.make_one_shot_iterator data.make_initializable_iterator"),
    "io.tf_record_iterator": Removed("`tf.data.TFRecordDataset`"),
    # -- tf.losses / tf.metrics are the Keras modules now ----------------------------------------
    **{
        f"losses.{name}": Removed(f"`{new}`", kind="keras_module")
        for name, new in _KERAS_LOSSES.items()
    },
    # Not tf.losses.mean_squared_error: it is tf-keras's loss function (TensorFlow 2), which
    # only Keras 3's tf.keras lacks (TFL609's).
    **{
        f"metrics.{name}": Removed(f"`keras.metrics.{new}()`", kind="keras_module")
        for name, new in _KERAS_METRICS.items()
    },
}

# gfile's CamelCase functions became lower-case ones in tf.io.gfile (not the same objects).
for _old, _new in {
    "Exists": "exists",
    "MakeDirs": "makedirs",
    "MkDir": "mkdir",
    "ListDirectory": "listdir",
    "Glob": "glob",
    "Remove": "remove",
    "IsDirectory": "isdir",
    "Copy": "copy",
    "Rename": "rename",
    "DeleteRecursively": "rmtree",
    "Walk": "walk",
    "Stat": "stat",
    "FastGFile": "GFile",
}.items():
    TABLE[f"gfile.{_old}"] = Removed(f"`tf.io.gfile.{_new}`")

# Dataset methods that only TF1's DatasetV1 had.
DATASET_V1_METHODS = frozenset({"make_one_shot_iterator", "make_initializable_iterator"})


def lookup(path: str, keras_version: int) -> tuple[str, Removed] | None:
    """The longest removed key that ``path`` (below ``tensorflow``) starts with, if any.

    ``keras_version`` 0 means "on any Keras version".
    """
    parts = path.split(".")
    for end in range(len(parts), 0, -1):
        key = ".".join(parts[:end])
        entry = TABLE.get(key)
        if entry is not None:
            return (key, entry) if not keras_version or keras_version in entry.keras else None
    return None
