"""Re-splitting after an edit cuts exactly what splitting the whole text cuts."""

from __future__ import annotations

import random
import textwrap

import pytest

from tests.helpers import shared_dir
from tflsp.analysis.blocks import resplit, split_chunks

SOURCE = textwrap.dedent(
    '''
    """Module docstring
with a column-0 line."""
    import tensorflow as tf

    @tf.function
    @other(
    arg=1,
    )
    def step(x):
        return x

    if tf:
        a = 1
    elif b:
        a = 2
    else:
        a = 3

    try:
        import keras
    except ImportError:
        keras = None
    finally:
        pass

    table = {
    "a": 1,
    }
    # a comment in column 0
    class Layer(tf.keras.layers.Layer):
        def call(self, x):
            return x
    '''
).lstrip("\n")

# What typing inserts near and across the places where candidates are cut.
SNIPPETS = [
    "\n", "\n\n", "x", "@", "@deco\n", "else:\n", "elif c:\n    pass\n", "except E:\n", "def f(",
    "class C:\n", "(", ")", "[", '"""', "'", "#", " ", "    ", "finally", "\nelse", "d", "\r",
]  # fmt: skip


def _edits(source: str, rng: random.Random, count: int) -> list[str]:
    out = []
    for _ in range(count):
        position = rng.randrange(len(source) + 1)
        if rng.random() < 0.3 and source:
            source = source[:position] + source[position + rng.randrange(1, 40) :]
        else:
            source = source[:position] + rng.choice(SNIPPETS) + source[position:]
        out.append(source)
    return out


def _check_chain(texts: list[str]) -> None:
    previous = None
    for text in texts:
        found = resplit(text, previous)
        expected = split_chunks(text)
        assert found.chunks == expected
        starts = [0]
        for chunk in expected[:-1]:
            starts.append(starts[-1] + len(chunk.text))
        assert found.offsets == starts
        assert "".join(c.text for c in found.chunks) == text
        previous = found


@pytest.mark.parametrize("seed", range(40))
def test_random_edits_split_as_a_fresh_split(seed: int) -> None:
    _check_chain(_edits(SOURCE, random.Random(seed), 60))


def test_typing_character_by_character() -> None:
    lines = SOURCE.split("\n")
    statement = "@tf.function\ndef g(y):\n    return (y,\n)\nelse:\n"
    texts = []
    for at in (0, 5, 14, len(lines) - 2):
        for n in range(len(statement) + 1):
            texts.append("\n".join([*lines[:at], statement[:n], *lines[at:]]))
    _check_chain(texts)


def test_real_files_edited_at_random() -> None:
    files = sorted(shared_dir("corpus").rglob("*.py"))
    rng = random.Random(7)
    for path in rng.sample(files, 25):
        text = path.read_text(encoding="utf-8", errors="replace").replace("\r", "")
        _check_chain([text, *_edits(text, rng, 15)])
