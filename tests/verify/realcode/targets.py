"""Real classes and functions the verifier is judged on, with the truth about each.

Two sets:

- ``OWN``: targets picked for this test from ``../shared/corpus`` (TensorFlow docs and
  examples, a tutorial collection) and from pinned PyPI wheels (keras-hub, tf-models-official,
  tensorflow-recommenders), none of them in the verifier audit;
- ``AUDIT``: the audit's targets (``../shared/research/verify-audit.md``, §1) that come from the
  corpus (its Keras-guide targets need keras-io, which is not stored).

``truth`` maps a probe to the catalog codes of the error findings that are *right* for the
unmodified code - each checked by running TensorFlow directly (see the note).  Any other
error finding is a false alarm.  ``"*"`` means the code really fails on this TensorFlow for a
reason no catalog pattern describes (any error is right there).  ``probes`` overrides what
"verified out of the box" requires when a probe cannot apply (a model with no ``call``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

NB = "tensorflow+docs__nb/site/en"
KH = "keras-hub-0.32.0"
TFM = "tf-models-official-2.20.0"
TFRS = "tensorflow-recommenders-0.7.7"
TFE = "tensorflow+examples"
AYM = "aymericdamien+TensorFlow-Examples__nb/tensorflow_v2/notebooks"

PROBES_BY_KIND = {
    "layer": ("tracking", "modes", "saveload"),
    "model": ("tracking", "modes", "saveload"),
    "module": ("tracking", "modes"),
    "function": ("modes",),
}


@dataclass(frozen=True)
class Target:
    key: str
    origin: str  # "corpus" or a wheel folder name under the ecosystem cache
    path: str  # inside the origin
    name: str
    kind: str  # layer | model | module | function
    root: str = ""  # import root inside the origin ("" = the file's own folder)
    occurrence: int = 0  # which definition of a name defined several times (1-based; 0 = last)
    # module-level names computed from data the file downloads: the literal they hold
    constants: dict[str, str] = field(default_factory=dict)
    truth: dict[str, tuple[str, ...]] = field(default_factory=dict)
    probes: tuple[str, ...] | None = None
    audit: int | None = None
    note: str = ""

    @property
    def required(self) -> tuple[str, ...]:
        return self.probes if self.probes is not None else PROBES_BY_KIND[self.kind]


def _kh(name: str, file: str, **kw: object) -> Target:
    return Target(
        f"kh.{name}", KH, f"keras_hub/src/layers/modeling/{file}", name, "layer", root=".", **kw
    )  # type: ignore[arg-type]


def _tfm(name: str, file: str, **kw: object) -> Target:
    return Target(f"tfm.{name}", TFM, f"official/{file}", name, "layer", root=".", **kw)  # type: ignore[arg-type]


OWN: tuple[Target, ...] = (
    # -- keras-hub 0.32 (Keras 3): registered, with get_config --------------------------------
    _kh("AlibiBias", "alibi_bias.py"),
    _kh("FNetEncoder", "f_net_encoder.py"),
    _kh("MaskedLMHead", "masked_lm_head.py"),
    _kh("PositionEmbedding", "position_embedding.py"),
    _kh("RMSNormalization", "rms_normalization.py", truth={"saveload": ("-",)}),
    _kh("RotaryEmbedding", "rotary_embedding.py"),
    _kh("SinePositionEncoding", "sine_position_encoding.py"),
    _kh("TokenAndPositionEmbedding", "token_and_position_embedding.py"),
    _kh("TransformerEncoder", "transformer_encoder.py"),
    _kh("TransformerDecoder", "transformer_decoder.py"),
    _kh("CachedMultiHeadAttention", "cached_multi_head_attention.py"),
    # -- tf-models-official 2.20 (tf_keras) --------------------------------------------------
    _tfm(
        "BlockDiagFeedforward",
        "nlp/modeling/layers/block_diag_feedforward.py",
        truth={"saveload": ("TFL401",)},
    ),
    _tfm("ClassificationHead", "nlp/modeling/layers/cls_head.py", truth={"saveload": ("TFL401",)}),
    _tfm("FactorizedEmbedding", "nlp/modeling/layers/factorized_embedding.py"),
    _tfm("MaskedSoftmax", "nlp/modeling/layers/masked_softmax.py"),
    _tfm("MatMulWithMargin", "nlp/modeling/layers/mat_mul_with_margin.py"),
    _tfm("OnDeviceEmbedding", "nlp/modeling/layers/on_device_embedding.py"),
    _tfm("RelativePositionEmbedding", "nlp/modeling/layers/position_embedding.py"),
    _tfm("SelfAttentionMask", "nlp/modeling/layers/self_attention_mask.py"),
    _tfm(
        "RMSNorm",
        "nlp/modeling/layers/transformer_encoder_block.py",
        truth={"saveload": ("TFL401",)},
    ),
    _tfm("TNExpandCondense", "nlp/modeling/layers/tn_expand_condense.py"),
    _tfm("MobileBertEmbedding", "nlp/modeling/layers/mobile_bert_layers.py"),
    _tfm("SqueezeExcitation", "vision/modeling/layers/nn_layers.py"),
    _tfm("StochasticDepth", "vision/modeling/layers/nn_layers.py"),
    _tfm("LayerScale", "vision/modeling/layers/nn_blocks.py"),
    _tfm("SelfGating", "vision/modeling/layers/nn_blocks_3d.py"),
    _tfm("ResidualBlock", "vision/modeling/layers/nn_blocks.py"),
    # -- tensorflow-recommenders 0.7.7 (tf_keras) --------------------------------------------
    Target(
        "tfrs.Cross",
        TFRS,
        "tensorflow_recommenders/layers/feature_interaction/dcn.py",
        "Cross",
        "layer",
        root=".",
    ),
    Target(
        "tfrs.DotInteraction",
        TFRS,
        "tensorflow_recommenders/layers/feature_interaction/dot_interaction.py",
        "DotInteraction",
        "layer",
        root=".",
        truth={"saveload": ("TFL401",)},
    ),
    # -- TensorFlow docs and examples (corpus), not in the audit ------------------------------
    Target(
        "nb.ResidualWrapper",
        "corpus",
        f"{NB}/tutorials/structured_data/time_series.py",
        "ResidualWrapper",
        "model",
        truth={"saveload": ("TFL402",)},
    ),
    Target(
        "nb.RepeatBaseline",
        "corpus",
        f"{NB}/tutorials/structured_data/time_series.py",
        "RepeatBaseline",
        "model",
        truth={"saveload": ("TFL401",)},
    ),
    Target(
        "nb.ResidualMain",
        "corpus",
        f"{NB}/tutorials/video/video_classification.py",
        "ResidualMain",
        "layer",
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "nb.Project",
        "corpus",
        f"{NB}/tutorials/video/video_classification.py",
        "Project",
        "layer",
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "nb.Augment",
        "corpus",
        f"{NB}/tutorials/images/segmentation.py",
        "Augment",
        "layer",
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "nb.RandomInvert",
        "corpus",
        f"{NB}/tutorials/images/data_augmentation.py",
        "RandomInvert",
        "layer",
        truth={"modes": ("TFL112",), "saveload": ("TFL112",)},
    ),
    Target(
        "nb.DynamicRNN",
        "corpus",
        f"{NB}/guide/effective_tf2.py",
        "DynamicRNN",
        "model",
        truth={"tracking": ("*",), "modes": ("*",), "saveload": ("*",)},
    ),
    Target(
        "nb.Net",
        "corpus",
        f"{NB}/guide/checkpoint.py",
        "Net",
        "model",
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "nb.PrintLayer",
        "corpus",
        f"{NB}/guide/migrate/migration_debugging.py",
        "PrintLayer",
        "layer",
        truth={"saveload": ("TFL401",)},
    ),
    Target(
        "nb.SimpleModule", "corpus", f"{NB}/guide/intro_to_modules.py", "SimpleModule", "module"
    ),
    Target("nb.DenseModule", "corpus", f"{NB}/guide/intro_to_modules.py", "Dense", "module"),
    Target(
        "nb.FlexibleDenseModule",
        "corpus",
        f"{NB}/guide/intro_to_modules.py",
        "FlexibleDenseModule",
        "module",
    ),
    Target(
        "nb.MyDense",
        "corpus",
        f"{NB}/guide/intro_to_modules.py",
        "MyDense",
        "layer",
        truth={"tracking": ("TFL301",), "saveload": ("TFL401", "TFL301")},
    ),
    Target(
        "nb.FlexibleDense",
        "corpus",
        f"{NB}/guide/intro_to_modules.py",
        "FlexibleDense",
        "layer",
        truth={"tracking": ("TFL301",), "saveload": ("TFL401", "TFL301")},
    ),
    Target(
        "nb.MySequentialModel",
        "corpus",
        f"{NB}/guide/intro_to_modules.py",
        "MySequentialModel",
        "model",
        truth={"tracking": ("TFL301",), "saveload": ("TFL301",)},
    ),
    Target("nb.LoopsModule", "corpus", f"{NB}/guide/basic_training_loops.py", "MyModel", "module"),
    Target(
        "nb.MyModelKeras",
        "corpus",
        f"{NB}/guide/basic_training_loops.py",
        "MyModelKeras",
        "model",
        truth={"tracking": ("TFL301",), "saveload": ("TFL401", "TFL301")},
    ),
    Target("nb.DenseLayerModule", "corpus", f"{NB}/guide/core/mlp_core.py", "DenseLayer", "module"),
    Target(
        "nb.Normalize",
        "corpus",
        f"{NB}/guide/core/quickstart_core.py",
        "Normalize",
        "module",
        probes=("tracking",),
    ),
    Target(
        "nb.PandasModel",
        "corpus",
        f"{NB}/tutorials/load_data/pandas_dataframe.py",
        "MyModel",
        "model",
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "tfe.ConvBlock",
        "corpus",
        f"{TFE}/tensorflow_examples/models/densenet/densenet.py",
        "ConvBlock",
        "model",
        truth={"saveload": ("TFL402",)},
    ),
    Target(
        "tfe.TransitionBlock",
        "corpus",
        f"{TFE}/tensorflow_examples/models/densenet/densenet.py",
        "TransitionBlock",
        "model",
        truth={"tracking": ("*",), "modes": ("*",), "saveload": ("*",)},
    ),
    Target(
        "tfe.Encoder",
        "corpus",
        f"{TFE}/tensorflow_examples/models/nmt_with_attention/nmt.py",
        "Encoder",
        "model",
        truth={"saveload": ("TFL402",)},
    ),
    Target(
        "tfe.Decoder",
        "corpus",
        f"{TFE}/tensorflow_examples/models/nmt_with_attention/nmt.py",
        "Decoder",
        "model",
        truth={"saveload": ("TFL402",)},
    ),
    Target(
        "aym.CustomLayer1",
        "corpus",
        f"{AYM}/4_Utils/build_custom_layers.py",
        "CustomLayer1",
        "layer",
        truth={"saveload": ("TFL401",)},
    ),
    Target(
        "aym.CustomLayer2",
        "corpus",
        f"{AYM}/4_Utils/build_custom_layers.py",
        "CustomLayer2",
        "layer",
        truth={"saveload": ("TFL401",)},
    ),
    # functions
    Target(
        "nb.dcgan.generator_loss",
        "corpus",
        f"{NB}/tutorials/generative/dcgan.py",
        "generator_loss",
        "function",
    ),
    Target(
        "nb.dcgan.discriminator_loss",
        "corpus",
        f"{NB}/tutorials/generative/dcgan.py",
        "discriminator_loss",
        "function",
    ),
    Target(
        "nb.pix2pix.generator_loss",
        "corpus",
        f"{NB}/tutorials/generative/pix2pix.py",
        "generator_loss",
        "function",
    ),
    Target(
        "nb.pix2pix.random_crop",
        "corpus",
        f"{NB}/tutorials/generative/pix2pix.py",
        "random_crop",
        "function",
    ),
    Target("nb.function.add", "corpus", f"{NB}/guide/function.py", "add", "function"),
    Target(
        "nb.function.dense_layer", "corpus", f"{NB}/guide/function.py", "dense_layer", "function"
    ),
    Target("nb.function.conv_fn", "corpus", f"{NB}/guide/function.py", "conv_fn", "function"),
    Target(
        "nb.function.next_collatz", "corpus", f"{NB}/guide/function.py", "next_collatz", "function"
    ),
    Target("nb.function.tf_wrapper", "corpus", f"{NB}/guide/function.py", "tf_wrapper", "function"),
    Target("nb.basics.my_func", "corpus", f"{NB}/guide/basics.py", "my_func", "function"),
    Target(
        "nb.quickstart.test_step",
        "corpus",
        f"{NB}/tutorials/quickstart/advanced.py",
        "test_step",
        "function",
    ),
    Target(
        "nb.walkthrough.grad",
        "corpus",
        f"{NB}/tutorials/customization/custom_training_walkthrough.py",
        "grad",
        "function",
    ),
    Target(
        "nb.mlp_core.xavier_init",
        "corpus",
        f"{NB}/guide/core/mlp_core.py",
        "xavier_init",
        "function",
    ),
)


AUDIT: tuple[Target, ...] = (
    Target(
        "a19.MyDenseLayer",
        "corpus",
        f"{NB}/tutorials/customization/custom_layers.py",
        "MyDenseLayer",
        "layer",
        audit=19,
        truth={"tracking": ("*",), "modes": ("*",), "saveload": ("*",)},
    ),
    Target(
        "a20.ResnetIdentityBlock",
        "corpus",
        f"{NB}/tutorials/customization/custom_layers.py",
        "ResnetIdentityBlock",
        "model",
        audit=20,
        truth={"saveload": ("TFL402",)},
    ),
    Target(
        "a21.Autoencoder",
        "corpus",
        f"{NB}/tutorials/generative/autoencoder.py",
        "Autoencoder",
        "model",
        audit=21,
        truth={"tracking": ("*",), "modes": ("*",), "saveload": ("*",)},
    ),
    Target(
        "a22.Denoise",
        "corpus",
        f"{NB}/tutorials/generative/autoencoder.py",
        "Denoise",
        "model",
        audit=22,
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "a23.AnomalyDetector",
        "corpus",
        f"{NB}/tutorials/generative/autoencoder.py",
        "AnomalyDetector",
        "model",
        audit=23,
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "a24.CVAE",
        "corpus",
        f"{NB}/tutorials/generative/cvae.py",
        "CVAE",
        "model",
        audit=24,
        probes=("tracking",),
    ),
    Target(
        "a25.Baseline",
        "corpus",
        f"{NB}/tutorials/structured_data/time_series.py",
        "Baseline",
        "model",
        audit=25,
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "a26.MultiStepLastBaseline",
        "corpus",
        f"{NB}/tutorials/structured_data/time_series.py",
        "MultiStepLastBaseline",
        "model",
        audit=26,
        truth={"saveload": ("TFL401",)},
    ),
    Target(
        "a27.FeedBack",
        "corpus",
        f"{NB}/tutorials/structured_data/time_series.py",
        "FeedBack",
        "model",
        constants={"num_features": "19"},
        audit=27,
        truth={"saveload": ("TFL402",)},
    ),
    Target("a28.double", "corpus", f"{NB}/guide/function.py", "double", "function", audit=28),
    Target(
        "a29.train",
        "corpus",
        f"{NB}/guide/function.py",
        "train",
        "function",
        occurrence=1,
        audit=29,
    ),
    Target("a30.fizzbuzz", "corpus", f"{NB}/guide/function.py", "fizzbuzz", "function", audit=30),
    Target(
        "a31.side_effect",
        "corpus",
        f"{NB}/guide/function.py",
        "side_effect",
        "function",
        audit=31,
        truth={"modes": ("TFL103",)},
    ),
    Target("a32.f", "corpus", f"{NB}/guide/function.py", "f", "function", occurrence=2, audit=32),
    Target(
        "a33.MyModel",
        "corpus",
        f"{NB}/tutorials/quickstart/advanced.py",
        "MyModel",
        "model",
        audit=33,
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "a34.train_step",
        "corpus",
        f"{NB}/tutorials/quickstart/advanced.py",
        "train_step",
        "function",
        audit=34,
    ),
    Target(
        "a35.DeepResNet",
        "corpus",
        f"{NB}/tutorials/understanding/sngp.py",
        "DeepResNet",
        "model",
        audit=35,
        truth={"tracking": ("TFL303",), "modes": ("TFL303",), "saveload": ("TFL402",)},
    ),
    Target(
        "a36.Conv2Plus1D",
        "corpus",
        f"{NB}/tutorials/video/video_classification.py",
        "Conv2Plus1D",
        "layer",
        audit=36,
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "a37.BahdanauAttention",
        "corpus",
        f"{TFE}/tensorflow_examples/models/nmt_with_attention/nmt.py",
        "BahdanauAttention",
        "model",
        audit=37,
        truth={"saveload": ("TFL402",)},
    ),
    Target(
        "a38.InstanceNormalization",
        "corpus",
        f"{TFE}/tensorflow_examples/models/pix2pix/pix2pix.py",
        "InstanceNormalization",
        "layer",
        audit=38,
        truth={"saveload": ("TFL401", "-")},
    ),
    Target(
        "a39.random_jitter",
        "corpus",
        f"{NB}/tutorials/generative/pix2pix.py",
        "random_jitter",
        "function",
        audit=39,
    ),
)


# (target key, seed kind): real targets with one pitfall put in at test time.
SEEDED: tuple[tuple[str, str], ...] = (
    ("kh.AlibiBias", "raw_variable"),
    ("nb.MyDense", "raw_variable"),
    ("tfe.ConvBlock", "raw_variable"),
    ("kh.RMSNormalization", "layer_in_call"),
    ("tfm.LayerScale", "layer_in_call"),
    ("nb.FlexibleDense", "layer_in_call"),
    ("kh.FNetEncoder", "plain_holder"),
    ("tfm.SelfGating", "plain_holder"),
    ("nb.ResidualMain", "plain_holder"),
    ("kh.RotaryEmbedding", "python_counter"),
    ("tfm.RMSNorm", "python_counter"),
    ("nb.Net", "python_counter"),
    ("tfm.MaskedSoftmax", "print"),
    ("a23.AnomalyDetector", "print"),
    ("nb.dcgan.generator_loss", "print"),
    ("kh.SinePositionEncoding", "numpy"),
    ("a25.Baseline", "numpy"),
    ("nb.function.dense_layer", "numpy"),
    ("nb.function.add", "global_counter"),
    ("nb.basics.my_func", "global_counter"),
    ("kh.TransformerEncoder", "unregistered"),
    ("tfm.OnDeviceEmbedding", "unregistered"),
    ("tfrs.Cross", "unregistered"),
    ("kh.PositionEmbedding", "config_drops_arg"),
    ("tfm.BlockDiagFeedforward", "config_drops_arg"),
    ("kh.TransformerDecoder", "config_drops_arg"),
)
