"""A keystroke costs what it changed: the views of the blocks around the edit are kept.

The analyzer keeps the last analysis view by view (block, facts, identity, diagnostics). An
edit inside one block cuts, parses and checks that block only; the blocks before it are the
same objects, and those after it the same blocks moved by the lines the edit added. These
tests count what a keystroke does (not how long it takes) and check that what is kept is
right: equal to a fresh analysis, never released while in use, freed once replaced.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.helpers import analyzer
from tests.test_incremental_engine import signature
from tflsp.analysis import engine, views
from tflsp.analysis.engine import Analyzer
from tflsp.analysis.views import BlockAnalysis, Cutter

FUNCTION = textwrap.dedent(
    """\
    @tf.function
    def step_{n}(x):
        y = tf.reduce_sum(x) * {n}
        print("step", y)
        return y

    """
)


def module(functions: int) -> str:
    body = "".join(FUNCTION.format(n=n) for n in range(functions))
    return "import tensorflow as tf\n\n" + body + "values = step_0(tf.ones(3))\n"


def typed(source: str, n: int, text: str) -> str:
    """``text`` typed as a new line in the body of ``step_n``."""
    anchor = f"    y = tf.reduce_sum(x) * {n}\n"
    return source.replace(anchor, anchor + f"    {text}\n", 1)


@contextmanager
def counting(*methods: tuple[type, str]) -> Iterator[dict[str, int]]:
    """Count calls of the ``(class, method name)`` pairs while the block runs."""
    counts = {name: 0 for _, name in methods}
    saved = [(owner, name, getattr(owner, name)) for owner, name in methods]

    def wrap(name: str, original: Any) -> Any:
        def counted(self: object, *args: Any, **kwargs: Any) -> Any:
            counts[name] += 1
            return original(self, *args, **kwargs)

        return counted

    for owner, name, original in saved:
        setattr(owner, name, wrap(name, original))
    try:
        yield counts
    finally:
        for owner, name, original in saved:
            setattr(owner, name, original)


def diagnostics(result: engine.ModuleResult) -> list[tuple[Any, ...]]:
    return [signature(d) for d in result.diagnostics]


@pytest.mark.parametrize("functions", [10, 200])
def test_a_keystroke_cuts_and_checks_the_edited_block_only(functions: int) -> None:
    source = module(functions)
    warm = analyzer()
    warm.analyze(source)
    statement = "z = tf.reduce_sum(x)"
    with counting((Cutter, "_view_at"), (Analyzer, "_place")) as counts:
        for end in range(1, len(statement) + 1):
            text = typed(source, functions // 2, statement[:end])
            result = warm.analyze(text)
    # One view cut and one placed per keystroke, whatever the size of the module (a half-typed
    # line may merge with what follows: a few more cuts then, never the module).
    assert counts["_view_at"] <= 2 * len(statement)
    assert counts["_place"] <= 2 * len(statement)
    assert diagnostics(result) == diagnostics(analyzer().analyze(text))


def test_blocks_around_the_edit_are_the_same_views_and_blocks() -> None:
    source = module(20)
    warm = analyzer()
    before = warm.analyze(source)
    after = warm.analyze(typed(source, 10, "z = 1"))
    edited = next(k for k, v in enumerate(before.blocks) if "def step_10(" in v.analysis.text)
    # Before the edit: the very same views.  After it: the same blocks, one line further down.
    assert all(a is b for a, b in zip(before.blocks[:edited], after.blocks[:edited], strict=True))
    assert after.blocks[edited].analysis is not before.blocks[edited].analysis
    for old, new in zip(before.blocks[edited + 1 :], after.blocks[edited + 1 :], strict=True):
        assert new.analysis is old.analysis
        assert new.start_line == old.start_line + 1


def test_diagnostics_below_an_inserted_line_move_with_their_blocks() -> None:
    source = module(12)
    warm = analyzer()
    first = warm.analyze(source)
    text = source
    for n in (3, 7, 3):  # lines added in the middle, then above what moved already
        text = typed(text, n, "z = 1")
        result = warm.analyze(text)
        assert diagnostics(result) == diagnostics(analyzer().analyze(text))
    prints = [d.line for d in first.diagnostics if d.code == "TFL101"]
    moved = [d.line for d in result.diagnostics if d.code == "TFL101"]
    assert moved[:3] == prints[:3]  # above every edit
    assert moved[-1] == prints[-1] + 3  # below all three


def test_blocks_held_by_the_views_are_never_released() -> None:
    released: list[BlockAnalysis] = []
    original = BlockAnalysis.release

    def recording(self: BlockAnalysis) -> None:
        released.append(self)
        original(self)

    source = module(8)
    warm = analyzer()
    BlockAnalysis.release = recording  # type: ignore[method-assign]
    try:
        warm.analyze(source)
        statement = "total = tf.reduce_sum(x) + 1"
        for end in range(1, len(statement) + 1):
            result = warm.analyze(typed(source, 4, statement[:end]))
            in_use = {id(view.analysis) for view in result.blocks}
            assert not [a for a in released if id(a) in in_use]
    finally:
        BlockAnalysis.release = original  # type: ignore[method-assign]
    # The typed versions of the edited block do go: a keystroke's version is released once two
    # more analyses did not use it.
    assert len(released) >= len(statement) - 4


def test_an_analysis_that_raised_is_followed_by_a_complete_one() -> None:
    source = module(6)
    warm = analyzer()
    warm.analyze(source)
    broken_place = Analyzer._place

    def failing(self: Analyzer, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a detector bug")

    Analyzer._place = failing  # type: ignore[method-assign]
    try:
        with pytest.raises(RuntimeError):
            warm.analyze(typed(source, 2, "z = 1"))
    finally:
        Analyzer._place = broken_place  # type: ignore[method-assign]
    # The views of the failed analysis were not placed: the next one places them.
    for text in (typed(source, 2, "z = 1"), typed(source, 2, "z = 12"), source):
        assert diagnostics(warm.analyze(text)) == diagnostics(analyzer().analyze(text))


@pytest.mark.parametrize("where", ["facts", "summary"])
def test_an_analysis_that_raised_early_is_followed_by_a_complete_one(where: str) -> None:
    source = module(6)
    warm = analyzer()
    warm.analyze(source)
    module_, name = (views, "extract_facts") if where == "facts" else (engine, "build_summary")
    real = getattr(module_, name)

    def failing(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug in the semantic model")

    setattr(module_, name, failing)
    try:
        with pytest.raises(RuntimeError):
            warm.analyze(typed(source, 2, "z = tf.reduce_sum(x)"))
    finally:
        setattr(module_, name, real)
    # Facts half filled in are not trusted (the next analysis cuts the module afresh); a
    # summary that failed is made again.
    for text in (typed(source, 4, "z = 1"), typed(source, 2, "z = 12"), source):
        assert diagnostics(warm.analyze(text)) == diagnostics(analyzer().analyze(text))


def test_a_fork_parses_nothing_its_parent_kept() -> None:
    source = module(30)
    warm = analyzer()
    warm.analyze(source)
    # Many keystrokes in one block: the other blocks left the parent's cache long ago and live
    # in its views only.
    for i in range(12):
        text = typed(source, 0, f"z = {i}")
        warm.analyze(text)
    twin = warm.fork()
    parsed: list[str] = []
    original = views.parse_block

    def recording(text: str, *args: Any) -> Any:
        parsed.append(text)
        return original(text, *args)

    views.parse_block = recording  # type: ignore[assignment]
    try:
        result = twin.analyze(text)
    finally:
        views.parse_block = original  # type: ignore[assignment]
    assert parsed == []
    assert diagnostics(result) == diagnostics(analyzer().analyze(text))


def test_a_statement_typed_below_an_import_keeps_the_import_s_identity() -> None:
    # The import block ends with the blank lines and comment after it; typing a statement
    # there splits them off.  The import is still the same statement: the blocks that read
    # the name it binds must not all be checked again.
    source = module(40).replace(
        "import tensorflow as tf\n\n", "import tensorflow as tf\n\n\n# the steps\n", 1
    )
    warm = analyzer()
    warm.analyze(source)
    text = source.replace("\n\n\n# the steps\n", "\nt\n\n# the steps\n", 1)
    with counting((Analyzer, "_place")) as counts:
        result = warm.analyze(text)
    assert counts["_place"] <= 4
    assert diagnostics(result) == diagnostics(analyzer().analyze(text))
