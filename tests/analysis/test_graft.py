"""An edit inside one method of a class re-parses that method only, and the tree is the same.

``graft_method`` must give exactly the tree ``ast.parse`` gives (every node, every position) or
None.  These tests type into every line of classes (ours, and real ones from ``../shared``), and
check that a keystroke in a method of a long class does not parse the class again.
"""

from __future__ import annotations

import ast
import functools
import random
import textwrap
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.analysis.test_method_facts import parses as _parses_alone
from tests.helpers import analyzer, shared_dir
from tests.test_incremental_engine import signature
from tflsp.analysis import views
from tflsp.analysis.graft import graft_method

CLASS = textwrap.dedent(
    '''\
    # a comment before the class
    @keras.saving.register_keras_serializable()
    class Scaled(keras.layers.Layer,
                 metaclass=Meta):
        """Docstring."""

        units = 4  # a class-level line

        def __init__(self, units, **kwargs):
            super().__init__(**kwargs)
            self.units = units

        @property
        def size(self):
            return self.units
        # a comment between methods

        async def fetch(self, x):
            await x

        @tf.function(
            reduce_retracing=True,
        )
        def call(self, inputs):
            text = """a string
    with a line in column 0"""
            return inputs * (self.units
                             + 1)

        class Inner:
            def method(self):
                pass

        def last(self):
            return [
                1,
            ]

    # a trailing comment
    '''
)

# What typing leaves on a line, one keystroke after another: half-typed brackets and strings,
# a dedent to class level, a new def, a line that closes the method early.
TYPED = [
    "x",
    "x = tf.",
    "x = f(",
    "x = f(1)",
    'x = """',
    "x = '",
    "def helper(self):",
    "return",
    ")",
    "  y = 1",
    "# comment",
]


def assert_same_or_none(old_text: str, new_text: str) -> ast.Module | None:
    """The graft of ``new_text`` from ``old_text``'s tree: None, or what ast.parse gives; the old
    tree is left as it was."""
    old_tree, before = _parsed(old_text)
    grafted = graft_method(old_tree, old_text, new_text)
    assert ast.dump(old_tree, include_attributes=True) == before, "the old tree was changed"
    if grafted is None:
        return None
    expected = ast.dump(_parse(new_text), include_attributes=True)
    assert ast.dump(grafted, include_attributes=True) == expected, new_text
    return grafted


@functools.lru_cache(maxsize=1)
def _parsed(text: str) -> tuple[ast.Module, str]:
    tree = _parse(text)
    return tree, ast.dump(tree, include_attributes=True)


def _parse(text: str) -> ast.Module:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes in the corpus's strings
        return ast.parse(text)


def line_edits(text: str, rng: random.Random | None = None) -> list[str]:
    """Texts with one line of ``text`` changed: something typed at its end, a character taken
    away, the line replaced by a half-typed statement at its indentation (with ``rng``: on 40
    lines at most, three of those statements each)."""
    lines = text.split("\n")
    at = range(len(lines))
    if rng is not None and len(lines) > 40:
        at = sorted(rng.sample(at, 40))
    out = []
    for k in at:
        line = lines[k]
        indent = line[: len(line) - len(line.lstrip())] or "    "
        typed = TYPED if rng is None else rng.sample(TYPED, 3)
        variants = [line + " + 1", line[:-1], *(indent + t for t in typed)]
        out.extend("\n".join([*lines[:k], v, *lines[k + 1 :]]) for v in variants)
    return out


def test_every_line_edit_of_a_class_grafts_exactly_or_not_at_all() -> None:
    grafted = 0
    for new_text in line_edits(CLASS):
        if new_text != CLASS and assert_same_or_none(CLASS, new_text) is not None:
            grafted += 1
    # Most edits are inside a method and parse: those must graft, or nothing was gained.
    assert grafted > 40


@pytest.mark.parametrize(
    ("old", "new", "grafts"),
    [
        ("        return self.units", "        return self.units * 2", True),
        ("        await x", "        await x  # typed", True),
        ('with a line in column 0"""', 'with a line in column 0 and more"""', True),
        ("            1,", "            1, 2,", True),
        # the line after the last method, inside the block: typed into that method
        ("# a trailing comment", "        x = 1", True),
        ("    units = 4  # a class-level line", "    units = 5", False),
        ("    # a comment between methods", "    x = 1", False),  # class level: not a method
        ("             metaclass=Meta):", "             metaclass=Other):", False),
        ("@keras.saving.register_keras_serializable()", "@keras.saving.other()", False),
        ("        reduce_retracing=True,", "        reduce_retracing=False,", True),
        ("        def method(self):", "        def other(self):", False),  # a nested class
        ("        return self.units", "    def more(self):", False),  # a second def
        ("        return self.units", "        return (self.units", False),  # does not parse
    ],
)
def test_which_edits_graft(old: str, new: str, grafts: bool) -> None:
    assert CLASS.count(old) == 1
    new_text = CLASS.replace(old, new)
    assert (assert_same_or_none(CLASS, new_text) is not None) == grafts


def test_a_line_added_or_removed_is_parsed_whole() -> None:
    lines = CLASS.split("\n")
    at = lines.index("        return self.units")
    added = "\n".join([*lines[:at], "        x = 1", *lines[at:]])
    removed = "\n".join([*lines[:at], *lines[at + 1 :]])
    assert graft_method(ast.parse(CLASS), CLASS, added) is None
    assert graft_method(ast.parse(CLASS), CLASS, removed) is None


def test_only_a_block_that_is_one_class_grafts() -> None:
    text = "def f():\n    return 1\n"
    assert graft_method(ast.parse(text), text, "def f():\n    return 2\n") is None
    text = "class A:\n    def f(self):\n        return 1\nx = 1\n"
    assert graft_method(ast.parse(text), text, text.replace("return 1", "return 2")) is None


def test_a_carriage_return_is_left_to_python() -> None:
    text = "class A:\n    def f(self):\n        return 1\n\n    def g(self):\n        pass\n"
    # Two lines for Python (a lone \r ends a line), one for str.split: g would move down.
    new = text.replace("return 1", "x = 1\r        return 1")
    assert assert_same_or_none(text, new) is None
    assert assert_same_or_none(text, text.replace("return 1", "return 2")) is not None


def _classes(source: str) -> list[str]:
    lines = source.split("\n")
    out = []
    for node in _parse(source).body:
        if isinstance(node, ast.ClassDef) and any(
            isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)) for s in node.body
        ):
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            out.append("\n".join(lines[first - 1 : node.end_lineno]) + "\n")
    return out


def real_classes(rng: random.Random) -> list[str]:
    """The classes with methods of 120 files of ``../shared/corpus`` (or a skip)."""
    files = sorted(shared_dir("corpus").rglob("*.py"))
    classes = []
    for path in rng.sample(files, 120):
        try:
            classes.extend(_classes(path.read_text(encoding="utf-8", errors="replace")))
        except SyntaxError:
            continue
    assert len(classes) > 30
    return classes


def test_real_classes_edited_line_by_line() -> None:
    """Classes nobody here wrote: tabs, continuation lines, strings in column 0, decorators."""
    rng = random.Random(11)
    classes = real_classes(rng)
    grafted = tried = 0
    for text in rng.sample(classes, 30):
        for new_text in line_edits(text, rng):
            if new_text == text:
                continue
            tried += 1
            grafted += assert_same_or_none(text, new_text) is not None
    assert grafted > tried // 4


@contextmanager
def parses() -> Iterator[dict[str, list[str]]]:
    """The texts parsed whole, and those grafted, while the block runs."""
    texts: dict[str, list[str]] = {"whole": [], "graft": []}
    whole, graft = views.parse_block, views.graft_method

    def counted_whole(text: str, *args: Any) -> Any:
        texts["whole"].append(text)
        return whole(text, *args)

    def counted_graft(tree: ast.Module, old: str, new: str) -> Any:
        made = graft(tree, old, new)
        if made is not None:
            texts["graft"].append(new)
        return made

    views.parse_block, views.graft_method = counted_whole, counted_graft  # type: ignore[assignment]
    try:
        yield texts
    finally:
        views.parse_block, views.graft_method = whole, graft  # type: ignore[assignment]


def test_typing_in_a_method_does_not_parse_the_class_again() -> None:
    methods = "".join(
        f"    @tf.function\n    def m{n}(self, x):\n        y = x * {n}\n        return y\n\n"
        for n in range(30)
    )
    source = f"import tensorflow as tf\n\n\nclass Big(tf.keras.layers.Layer):\n{methods}"
    anchor = "        y = x * 7\n"
    statement = "z = print(tf.reduce_sum(y))"
    warm = analyzer()
    warm.analyze(source.replace(anchor, anchor + "        \n"))
    texts = [
        source.replace(anchor, anchor + "        " + statement[:n] + "\n")
        for n in range(1, len(statement) + 1)
    ]
    fresh = [[signature(d) for d in analyzer().analyze(text).diagnostics] for text in texts]
    parseable = sum(_parses_alone(text) for text in texts)
    with parses() as counts:
        for text, expected in zip(texts, fresh, strict=True):
            assert [signature(d) for d in warm.analyze(text).diagnostics] == expected
    # A half-typed state ("z = print(tf.") is parsed whole: its error must be Python's for the
    # whole class.  Every other state grafts, and so does the text a half-typed one is
    # recovered to (the first time: the next ones reuse its tree).
    blocks = [text[text.index("class Big") :] for text in texts]  # what is parsed
    assert parseable >= 8
    assert counts["whole"] == [b for b in blocks if not _parses_alone(b)]
    assert [b for b in counts["graft"] if b in blocks] == [b for b in blocks if _parses_alone(b)]
    assert len([b for b in counts["graft"] if b not in blocks]) == 2  # "z =", "z = print("
    assert any(d[0] == "TFL101" for d in fresh[-1])  # the last state has a finding (print)
