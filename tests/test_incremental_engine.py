"""The analyzer's caches: an edited module gets exactly the findings a fresh analyzer finds,
while unchanged blocks are not re-checked."""

from __future__ import annotations

import ast
import random
import textwrap
from typing import Any

import pytest

from tests.helpers import CATALOG, analyzer
from tflsp.analysis.diagnostics import Diagnostic
from tflsp.analysis.engine import Analyzer
from tflsp.analysis.reads import ReadLog, TrackedDict, TrackedSet, TrackedTables

STATEMENTS = [
    "y = tf.reduce_sum(x)",
    'print("value", x)',
    "x = x.numpy()",
    "helper(x)",
    "ds = tf.data.Dataset.range(3).map(lambda v: v + 1)",
    "model = keras.Model()",
    "v = tf.Variable(1.0)",
    "import numpy as np",
    "total = np.sum(x)",
]


def signature(d: Diagnostic) -> tuple[Any, ...]:
    fix = None
    if d.fix is not None:
        fix = (
            d.fix.safe,
            tuple(e.as_dict().items() for e in d.fix.edits),
            tuple(d.fix.args.items()),
        )
    return (
        d.code,
        d.line,
        d.column,
        d.end_line,
        d.end_column,
        d.severity,
        d.message_id,
        tuple(sorted(d.args.items())),
        fix,
    )


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def compare(warm: Analyzer, text: str) -> bool:
    """Analyse ``text`` warm and cold; assert equal when the module is valid Python."""
    result = warm.analyze(text)
    if not parses(text) or any(d.code == "TFL000" for d in result.diagnostics):
        return False
    cold = analyzer().analyze(text)
    assert [signature(d) for d in result.diagnostics] == [signature(d) for d in cold.diagnostics], (
        text
    )
    return True


def mutate(rng: random.Random, lines: list[str]) -> list[list[str]]:
    """One random edit, as the list of intermediate states an editor would send."""
    choice = rng.randrange(5)
    index = rng.randrange(len(lines))
    if choice == 0:  # type a statement character by character inside some body
        bodies = [i for i, line in enumerate(lines) if line.startswith("    ") and line.strip()]
        at = rng.choice(bodies) if bodies else index
        indent = lines[at][: len(lines[at]) - len(lines[at].lstrip())]
        statement = rng.choice(STATEMENTS)
        states = []
        for end in range(1, len(statement) + 1):
            states.append([*lines[: at + 1], indent + statement[:end], *lines[at + 1 :]])
        return states
    if choice == 1:  # delete a line
        return [lines[:index] + lines[index + 1 :]] if len(lines) > 1 else [lines]
    if choice == 2:  # duplicate a line
        return [[*lines[: index + 1], lines[index], *lines[index + 1 :]]]
    if choice == 3:  # comment a line out
        return [[*lines[:index], "# " + lines[index], *lines[index + 1 :]]]
    # insert an empty line (moves every block below)
    return [[*lines[:index], "", *lines[index:]]]


def sources() -> list[tuple[str, str]]:
    out = []
    for pattern in CATALOG:
        out.append((f"{pattern.code}-bad", pattern.bad_path.read_text(encoding="utf-8")))
    return out


@pytest.mark.parametrize(("name", "source"), sources(), ids=[n for n, _ in sources()])
def test_warm_analysis_equals_cold_analysis_after_edits(name: str, source: str) -> None:
    rng = random.Random(name)
    warm = analyzer()
    lines = source.split("\n")
    compared = 0
    compare(warm, source)
    for _ in range(12):
        states = mutate(rng, lines)
        for state in states:
            compared += compare(warm, "\n".join(state))
        # An edit that leaves the module broken is seen by the analyzer, then undone (as a
        # user would), so the walk keeps producing valid modules to compare.
        if parses("\n".join(states[-1])):
            lines = states[-1]
        else:
            compared += compare(warm, "\n".join(lines))
    assert compared > 0


SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf


    def helper(x):
        print("helper", x)
        return x


    @tf.function
    def step(x):
        print("step", x)
        return x + 1


    def other(values):
        return values
    """
)


def test_unrelated_assignment_keeps_other_blocks_diagnostics() -> None:
    warm = analyzer()
    before = warm.analyze(SOURCE)
    (step_print,) = [d for d in before.diagnostics if d.code == "TFL101"]
    edited = SOURCE.replace("    return values", "    y = tf.reduce_sum(values)\n    return y")
    after = warm.analyze(edited)
    assert after.summary is not None and before.summary is not None
    # A new local binding changes no module-wide table (the old name->callee table did).
    assert after.summary.core_fingerprint == before.summary.core_fingerprint
    # The very same object: step() was not re-checked.
    assert next(d for d in after.diagnostics if d.code == "TFL101") is step_print


def test_graph_change_in_one_block_updates_the_block_that_reads_it() -> None:
    warm = analyzer()
    first = warm.analyze(SOURCE)
    assert [d.line for d in first.diagnostics if d.code == "TFL101"] == [11]
    # step() now calls helper(): helper runs as a graph too, its print() is flagged.
    edited = SOURCE.replace('    print("step", x)', '    print("step", x)\n    helper(x)')
    warm_lines = [d.line for d in warm.analyze(edited).diagnostics if d.code == "TFL101"]
    cold_lines = [d.line for d in analyzer().analyze(edited).diagnostics if d.code == "TFL101"]
    assert warm_lines == cold_lines == [5, 11]


def test_half_typed_line_keeps_the_blocks_facts() -> None:
    source = SOURCE.replace('    print("step", x)', '    print("step", x)\n    helper(x)')
    broken = source.replace("def step(x):", "def step(x")
    warm = analyzer()
    assert [d.line for d in warm.analyze(source).diagnostics if d.code == "TFL101"] == [5, 11]
    warm_broken = warm.analyze(broken)
    # helper() still runs as a graph while step()'s header is being retyped ...
    assert 5 in [d.line for d in warm_broken.diagnostics if d.code == "TFL101"]
    # ... whereas a fresh analysis of the broken text cannot know it.
    cold_broken = analyzer().analyze(broken)
    assert 5 not in [d.line for d in cold_broken.diagnostics if d.code == "TFL101"]


def test_broken_block_does_not_take_the_facts_of_another_function() -> None:
    # Deleting f() leaves g() (half typed) on f's old first line: both start with the same
    # decorator line, but g must not inherit f's facts (f calls helper, so helper ran as a graph).
    before = textwrap.dedent(
        """\
        import tensorflow as tf
        def helper(x):
            print(x)
        @tf.function
        def f(x):
            return helper(x)

        @tf.function
        def g(x):
            return x +
        """
    )
    after = "".join(before.splitlines(keepends=True)[:3] + before.splitlines(keepends=True)[7:])
    warm = analyzer()
    warm.analyze(before)
    warm_codes = [(d.line, d.code) for d in warm.analyze(after).diagnostics]
    cold_codes = [(d.line, d.code) for d in analyzer().analyze(after).diagnostics]
    assert warm_codes == cold_codes
    assert "TFL101" not in {code for _, code in warm_codes}


def test_typing_does_not_grow_the_caches() -> None:
    # Every keystroke makes a new version of the edited block; only the versions the last two
    # analyses used may stay cached, whatever the number of keystrokes.
    body = "".join(f"    y{i} = tf.reduce_sum(x) * {i}\n" for i in range(40))
    source = f"import tensorflow as tf\n\n@tf.function\ndef f(x):\n{body}    return x\n"
    warm = analyzer()
    warm.analyze(source)
    settled = len(warm._cutter._blocks), len(warm._findings)
    typed = ""
    for char in "print(x) + total * 2":
        typed += char
        warm.analyze(source.replace("    return x\n", f"    {typed}\n    return x\n"))
    assert len(warm._cutter._blocks) <= 2 * settled[0] + 2
    assert len(warm._findings) <= 2 * settled[1] + 2


def test_contexts_are_freed_after_the_analysis() -> None:
    import gc
    import weakref

    from tflsp.analysis.context import BlockContext

    seen: list[weakref.ref[BlockContext]] = []
    original = BlockContext.__init__

    def tracking_init(self: BlockContext, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        seen.append(weakref.ref(self))

    BlockContext.__init__ = tracking_init  # type: ignore[method-assign]
    try:
        analyzer().analyze(SOURCE)
    finally:
        BlockContext.__init__ = original  # type: ignore[method-assign]
    gc.collect()
    assert seen, "the analysis made no context"
    assert [ref for ref in seen if ref() is not None] == []


def test_a_line_inserted_above_reuses_every_blocks_findings() -> None:
    # Unchanged blocks are reused through their placement; their findings must stay cached
    # too, or the first Enter after two analyses re-runs the detectors on every block below it.
    from tflsp.analysis.context import BlockContext

    warm = analyzer()
    warm.analyze(SOURCE)
    warm.analyze(SOURCE)
    warm.analyze(SOURCE)
    made: list[int] = []
    original = BlockContext.__init__

    def counting_init(self: BlockContext, *args: Any, **kwargs: Any) -> None:
        made.append(1)
        original(self, *args, **kwargs)

    BlockContext.__init__ = counting_init  # type: ignore[method-assign]
    try:
        shifted = warm.analyze("\n" + SOURCE)
    finally:
        BlockContext.__init__ = original  # type: ignore[method-assign]
    assert len(made) <= 1  # the first block, which now starts with the new line
    assert [d.line - 1 for d in shifted.diagnostics] == [
        d.line for d in analyzer().analyze(SOURCE).diagnostics
    ]


def test_fork_reads_caches_but_keeps_its_own_state() -> None:
    warm = analyzer()
    warm.analyze(SOURCE)
    twin = warm.fork()
    kept = len(warm._cutter._blocks)
    twin.analyze("import os\n")
    assert len(warm._cutter._blocks) == kept
    # The original still hands back its cached objects for the original text.
    again = warm.analyze(SOURCE)
    assert [signature(d) for d in again.diagnostics] == [
        signature(d) for d in analyzer().analyze(SOURCE).diagnostics
    ]


def test_tracked_tables_record_reads() -> None:
    log = ReadLog()
    table = TrackedDict("assigned", log, {"a": frozenset({"x"}), "b": frozenset({"y"})})
    names = TrackedSet("dataset_names", log, {"ds"})
    tables = TrackedTables(log, {"assigned": table, "dataset_names": names})
    table.get("a")  # not recording yet
    log.start()
    assert table.get("a") == frozenset({"x"})
    assert "missing" not in table
    assert "ds" in names
    log.stop()
    deps = tables.snapshot()
    assert sorted(deps.values, key=str) == sorted(
        [
            ("assigned", "a", frozenset({"x"})),
            ("assigned", "missing", tables.lookup("assigned", "missing")),
            ("dataset_names", "ds", True),
        ],
        key=str,
    )
    assert deps.digests == ()
    assert tables.still_hold(deps)

    # The same reads against changed tables: "b" changing does not matter, "a" does.
    other = TrackedTables(
        log,
        {
            "assigned": TrackedDict("assigned", log, {"a": frozenset({"x"}), "b": frozenset()}),
            "dataset_names": TrackedSet("dataset_names", log, {"ds"}),
        },
    )
    assert other.still_hold(deps)
    changed = TrackedTables(
        log,
        {
            "assigned": TrackedDict("assigned", log, {"a": frozenset({"z"})}),
            "dataset_names": TrackedSet("dataset_names", log, {"ds"}),
        },
    )
    assert not changed.still_hold(deps)

    # Iterating (or set algebra) makes the whole table a dependency.
    log.start()
    list(table.values())
    assert names & {"ds"}
    log.stop()
    whole = tables.snapshot()
    assert {t for t, _ in whole.digests} == {"assigned", "dataset_names"}
    assert not other.still_hold(whole)


@pytest.mark.parametrize(
    "source",
    [
        # (the splitter merges at most three following candidates, hence two lines here)
        'DOC = """\ndef not_code():\nimport nothing\n"""\n',
        "values = sum(\n1,\n2)\n",
        "table = {\n'a': 1,\n}\n",
        "total = [x\nfor x in range(3)]\n",
        "pairs = dict(\na=1)\n",
    ],
)
def test_column_zero_continuations_are_not_syntax_errors(source: str) -> None:
    assert parses(source)
    assert [d.code for d in analyzer().analyze(source).diagnostics] == []


def test_half_typed_call_before_a_function_is_one_syntax_error() -> None:
    source = SOURCE.replace("    return values", "    y = tf.reduce_sum(")
    result = analyzer().analyze(source)
    errors = [d for d in result.diagnostics if d.code == "TFL000"]
    assert len(errors) == 1 and errors[0].line >= 15
    # The blocks above keep their findings.
    assert [d.line for d in result.diagnostics if d.code == "TFL101"] == [11]


def test_long_typing_session_does_not_lose_other_blocks_findings() -> None:
    """Blocks untouched for many keystrokes keep their findings even after the edited block's
    older versions left the caches, so a later module-wide change does not re-check them."""
    from tflsp.settings import Settings

    config = Settings(select=("ALL",), target_keras="3").lint_config(CATALOG)
    warm = Analyzer(config, CATALOG, strict=True)
    (step_print,) = [d for d in warm.analyze(SOURCE).diagnostics if d.code == "TFL101"]
    for i in range(30):
        warm.analyze(SOURCE.replace("    return values", f"    return values  # {i}"))
    edited = SOURCE.replace("    return values", "    y = tf.reduce_sum(values)\n    return y")
    after = warm.analyze(edited)
    assert next(d for d in after.diagnostics if d.code == "TFL101") is step_print


def test_summaries_pickle_as_plain_containers() -> None:
    import pickle

    result = analyzer().analyze(SOURCE)
    assert result.summary is not None
    copy = pickle.loads(pickle.dumps(result.summary))
    assert copy.graph == dict(result.summary.graph.items())
    assert type(copy.graph) is dict and type(copy.stale_globals) is dict
