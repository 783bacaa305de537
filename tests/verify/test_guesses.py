"""What the source says about building and calling a target: read without TensorFlow."""

from __future__ import annotations

import inspect
import textwrap

import pytest

from tflsp.verify.agent.facts import class_facts, doc_entry, doc_rank, function_facts
from tflsp.verify.agent.guesses import by_name, guess
from tflsp.verify.agent.specs import SIZE, Identity, LayerSpec, Sequence, Value
from tflsp.verify.directives import DirectiveError, normalise, parse_directive

SOURCE = textwrap.dedent(
    '''
    import keras

    IMG_HEIGHT = 64
    IMG_WIDTH = 32

    class Block(keras.layers.Layer):
        """A residual block.

        Args:
            filters: list of three ints, the filters of each convolution.
            kernel_size: int, the size of the middle kernel.
            mode: one of "fast" or "exact".
        """

        def __init__(self, filters, kernel_size, mode, inner, **kwargs):
            super().__init__(**kwargs)
            f1, f2, f3 = filters
            self.conv = keras.layers.Conv2D(f1, kernel_size)
            self.mode = mode
            self.inner = inner

        def build(self, input_shape):
            self.scale = self.add_weight(shape=(input_shape[3],))

        def call(self, images):
            if self.mode == "fast":
                return self.conv(images)
            return self.inner(self.conv(images))

    block = Block([8, 8, 16], 3, "fast", None)
    block(keras.Input(shape=(28, 28, 1)))
    '''
)


def _parameter(name: str) -> inspect.Parameter:
    return inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def test_class_facts_read_uses_build_and_the_files_own_calls() -> None:
    facts = class_facts(SOURCE, "Block")
    assert facts.params["filters"].unpacked == 3
    assert ("keras.layers.Conv2D", 1) in facts.params["kernel_size"].passed_to
    assert facts.params["mode"].strings == ["fast"]
    assert facts.params["inner"].called
    assert facts.build_max_index == 3  # input_shape[3]: four axes
    assert facts.file_calls == [([[8, 8, 16], 3, "fast", None], {})]
    assert facts.file_shapes == [[(None, 28, 28, 1)]]
    assert facts.image_size == (64, 32)


def test_guesses_follow_the_strongest_evidence() -> None:
    facts = class_facts(SOURCE, "Block")

    def guessed(name: str) -> object:
        return guess(name, _parameter(name), facts.params.get(name), facts.docstring, {})[0]

    assert guessed("filters") == Sequence((Value(SIZE), Value(SIZE), Value(SIZE)))
    assert guessed("mode") == Value("fast")
    assert guessed("inner") == LayerSpec()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("units", SIZE),
        ("num_heads", 2),
        ("dropout_rate", 0.5),
        ("activation", "relu"),
        ("padding", "same"),
        ("vocabulary_size", SIZE),
        ("sequence_length", 5),
        ("use_bias", False),
        ("rnn_cell", LayerSpec(kind="SimpleRNNCell")),
        ("encoder", LayerSpec()),
        ("loss_fn", Identity()),
    ],
)
def test_names_say_a_lot(name: str, value: object) -> None:
    assert by_name(name) == (value, True)


def test_docstrings() -> None:
    doc = "Args:\n    query: Query tensor of shape `(batch, target_len, dim)`.\n    units: int.\n"
    assert doc_rank(doc_entry(doc, "query")) == 3
    assert doc_entry(doc, "units") == "int."


def test_function_facts_see_literal_tensors_fed_to_it() -> None:
    source = "import tensorflow as tf\n\ndef f(x):\n    return x\n\nf(tf.zeros([2, 7]))\n"
    assert function_facts(source, "f").file_shapes == [[(2, 7)]]


def test_directive_and_cli_options_for_several_inputs() -> None:
    options = parse_directive(
        "# tflsp: verify(input_shape=[(2, 5, 4), (2, 4)], dtype=['float32', 'int32'], "
        "inputs={'x': {'shape': (2, 3)}, 'flag': {'python': True}})"
    )
    assert options["input_shape"] == [[2, 5, 4], [2, 4]]
    assert options["dtype"] == ["float32", "int32"]
    assert options["inputs"] == {"x": {"shape": [2, 3]}, "flag": {"python": True}}
    with pytest.raises(DirectiveError, match="one call"):
        normalise({"inputs": 5})
