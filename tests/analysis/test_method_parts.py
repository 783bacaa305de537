"""The families' facts made method by method equal the whole block's, on every typed state.

While one method of a class is typed in, the facts registered ``by_method`` take the other
methods' parts from the block's last version (:mod:`tflsp.analysis.method_parts`).  Each check
here follows a class through versions, each version's facts made from the last one's, and
compares every family fact with a fresh extraction of the same text: for the classes of the
catalog's examples and of the test corpus, and for ``TRAINER``, written to reach every
converted fact where it is subtle (loads in a decorator and in lambdas, a class in a method,
a class in the class body, a functional ``__init__``).  The versions type statements into a
method one character at a time, and move, rename, duplicate and decorate methods, add
statements to the class body, classes and lambdas.  The last tests weaken the key under which
parts are kept, or the moving of a part's lines, and check that the comparisons then fail.
"""

from __future__ import annotations

import ast
import gc
import sys
import textwrap
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from tests.helpers import REPO, analyzer
from tests.test_incremental_engine import signature
from tflsp.analysis import facts as facts_module
from tflsp.analysis.detectors import saving_weights
from tflsp.analysis.facts import BlockFacts, extract_facts
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.method_parts import NO_METHODS
from tflsp.analysis.registry import module_facts
from tflsp.analysis.semantic.block import MethodPlan

MODULE_FACTS = tuple(module_facts())
BY_METHOD = sorted(fact.name for fact in MODULE_FACTS if fact.by_method is not None)

TRAINER = textwrap.dedent(
    """\
    class Trainer(keras.Model):
        \"\"\"Trains, saves and restores a small regressor.\"\"\"

        units = 8
        backup = keras.Sequential([keras.layers.Dense(4)])
        backup.load_weights("backup.h5")
        make = staticmethod(lambda n: keras.layers.Dense(n))
        WEIGHTS = "tuned.h5"
        DATA = tf.random.uniform([8, 2])
        LOSS = custom_loss

        def __init__(self, units=8, **kwargs):
            super().__init__(**kwargs)
            self.dense = keras.layers.Dense(units)
            self.norm = keras.layers.LayerNormalization()
            self.cache = Helper()
            self.build((None, units))

        @tf.function(jit_compile=True)
        def call(self, inputs, training=None):
            x = self.dense(inputs)
            noise = tf.random.normal(tf.shape(x))
            return self.norm(x + noise)

        @validated(model)
        def restore(self, path="weights.h5"):
            model = Regressor()
            model.load_weights(path)
            model.save("restored.keras")
            later = lambda: model.load_weights("later.h5")
            return model, later

        @tuning(backup.load_weights(WEIGHTS), backup.fit(DATA), backup.compile(loss=LOSS))
        def tune(self):
            return self.backup

        def train(self, data, epochs=2):
            model = keras.Sequential([keras.layers.Dense(1)])
            model.compile(optimizer="adam", loss=custom_loss, metrics=[custom_metric])
            model.fit(data, epochs=epochs)
            model.save("trained.keras")
            opt = keras.optimizers.Adam()
            opt.apply_gradients(zip(grads, self.trainable_variables))
            return model

        def augment(self, ds):
            def jitter(x):
                return tf.image.random_flip_left_right(x) + np.random.rand()

            ds = ds.map(lambda x: tf.py_function(jitter, [x], tf.float32))
            return ds.shuffle(100)

        @staticmethod
        def build_model(units):
            keras.backend.clear_session()
            return keras.Model(inputs, keras.layers.Dense(units)(inputs))

        @remember(weights.load_weights("decorator.h5"))
        def reload(self, weights, hook=lambda m: m.load_weights("hook.h5")):
            weights.load_weights("again.h5")
            net = Regressor()
            net(tf.zeros([1, 4]))
            net.load_weights(weights)
            return weights

        def schedule(self, model):
            @tf.function(reduce_retracing=bool(model))
            def step(x):
                model.load_weights("step.h5")
                return model(x)

            return step

        def factory(self):
            class Head(keras.layers.Layer):
                def build(self, shape):
                    self.kernel = self.add_weight(shape=shape)

            head = Head()
            head.load_weights("head.h5")
            return head

        class Settings:
            def __init__(self):
                self.layer = keras.layers.Dense(2)

            def fit_it(self, model):
                model.fit(x, y)
                model.load_weights("settings.h5")
    """
)

# Statements typed into a method: each reaches some of the facts made by method.
STATEMENTS = (
    'model = Regressor(); model.load_weights("typed.h5")',
    "self.extra = keras.layers.Dense(3)",
    "model.fit(tf.random.uniform([4, 2]), epochs=1)",
    'model.compile(loss=typed_loss, optimizer="sgd"); model.save("typed.keras")',
    "value = tf.random.normal([2]) + np.random.rand(); keras.Sequential()",
)


def index_of(text: str) -> NodeIndex:
    return NodeIndex(ast.parse(text))


def fresh(text: str) -> BlockFacts:
    return extract_facts(index_of(text), MODULE_FACTS)


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except SyntaxError:
        return False
    return True


def mismatches(texts: list[str]) -> set[str]:
    """The facts made by method that differed from a fresh extraction in some version of
    ``texts``, each version's facts made from the last one that parsed."""
    before = extract_facts(index_of(texts[0]), MODULE_FACTS, fresh(texts[0]), texts[0])
    wrong: set[str] = set()
    for text in texts[1:]:
        if not parses(text):
            continue
        warm = extract_facts(index_of(text), MODULE_FACTS, before, text)
        cold = dict(fresh(text).extra)
        wrong.update(
            name for name, value in warm.extra if name in BY_METHOD and cold[name] != value
        )
        before = warm
    return wrong


def follow(texts: list[str]) -> None:
    assert mismatches(texts) == set(), texts[-1]


# -- classes to follow ------------------------------------------------------------------------
def _classes_in(source: str) -> Iterator[str]:
    """The text of each top-level class of ``source`` with two methods or more."""
    lines = source.split("\n")
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and len(_methods(node)) >= 2:
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            yield "\n".join(lines[first - 1 : node.end_lineno]) + "\n"


def _methods(cls: ast.ClassDef) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [s for s in cls.body if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]


def real_classes() -> list[str]:
    """The classes of the catalog's examples and of the test corpus."""
    paths = sorted((REPO / "tflsp" / "catalog" / "patterns").glob("*/*.py"))
    paths += sorted((REPO / "tests" / "corpus").glob("*.py"))
    found: list[str] = []
    for path in paths:
        found.extend(_classes_in(Path(path).read_text(encoding="utf-8")))
    return found


CLASSES = [TRAINER, *real_classes()]


def method_spans(text: str) -> list[tuple[int, int, str]]:
    """(first line, last line, name) of each method of the class ``text`` (0-based lines)."""
    cls = ast.parse(text).body[0]
    assert isinstance(cls, ast.ClassDef)
    out = []
    for fn in _methods(cls):
        first = fn.decorator_list[0].lineno if fn.decorator_list else fn.lineno
        out.append((first - 1, (fn.end_lineno or fn.lineno) - 1, fn.name))
    return out


def typed_into(text: str, k: int, statement: str) -> Iterator[str]:
    """Every state of ``statement`` typed on a new line at the start of method ``k``'s body."""
    fn = _methods(ast.parse(text).body[0])[k]  # type: ignore[arg-type]
    lines = text.split("\n")
    at = fn.body[0].lineno - 1
    first = fn.body[0]
    if getattr(first, "decorator_list", None):
        at = first.decorator_list[0].lineno - 1  # type: ignore[attr-defined]
    indent = " " * first.col_offset
    for end in range(len(statement) + 1):
        yield "\n".join([*lines[:at], indent + statement[:end], *lines[at:]])


# -- edits of a class -------------------------------------------------------------------------
def _lines(text: str) -> list[str]:
    return text.split("\n")


def move_last_first(text: str) -> str:
    spans = method_spans(text)
    lines = _lines(text)
    (a, _, _), (c, d, _) = spans[0], spans[-1]
    moved = lines[c : d + 1]
    return "\n".join([*lines[:a], *moved, "", *lines[a:c], *lines[d + 1 :]])


def rename_first(text: str) -> str:
    a, _, name = method_spans(text)[0]
    lines = _lines(text)
    k = next(i for i in range(a, len(lines)) if f"def {name}" in lines[i])
    lines[k] = lines[k].replace(f"def {name}", f"def {name}_again", 1)
    return "\n".join(lines)


def duplicate_last(text: str) -> str:
    _, d, _ = method_spans(text)[-1]
    a = method_spans(text)[-1][0]
    lines = _lines(text)
    return "\n".join([*lines[: d + 1], "", *lines[a : d + 1], *lines[d + 1 :]])


def decorate_each(text: str) -> str:
    lines = _lines(text)
    for a, _, _ in reversed(method_spans(text)):
        indent = lines[a][: len(lines[a]) - len(lines[a].lstrip())]
        lines.insert(a, f'{indent}@checkpointed(model.load_weights("d.h5"), tf.random.normal([1]))')
    return "\n".join(lines)


def class_statements(text: str) -> str:
    a = method_spans(text)[0][0]
    lines = _lines(text)
    indent = lines[a][: len(lines[a]) - len(lines[a].lstrip())]
    added = [
        "model = keras.Sequential([keras.layers.Dense(2)])",
        'model.load_weights("class.h5")',
        "model.fit(tf.random.uniform([2, 2]))",
        "net = Regressor()",
        "for _ in range(2):",
        "    net = net + 1",
    ]
    return "\n".join([*lines[:a], *(indent + line for line in added), "", *lines[a:]])


def _body_line(fn: ast.FunctionDef | ast.AsyncFunctionDef, k: int = 0) -> int:
    """The first line (0-based) of statement ``k`` of ``fn``'s body, decorators included."""
    stmt = fn.body[k]
    decorators = getattr(stmt, "decorator_list", None)
    return (decorators[0].lineno if decorators else stmt.lineno) - 1


def _insert(text: str, method: int, added: list[str], k: int = 0) -> str:
    """``added`` as statements before statement ``k`` of method ``method``'s body."""
    fn = _methods(ast.parse(text).body[0])[method]  # type: ignore[arg-type]
    at = _body_line(fn, k)
    indent = " " * fn.body[k].col_offset
    lines = _lines(text)
    return "\n".join([*lines[:at], *(indent + line for line in added), *lines[at:]])


def nested_class(text: str) -> str:
    added = [
        "class Inner(keras.Model):",
        "    def __init__(self):",
        "        self.head = keras.layers.Dense(1)",
        "        self.build((None, 2))",
        "inner = Inner()",
        'inner.load_weights("inner.h5")',
    ]
    return _insert(text, -1, added)


def lambdas(text: str) -> str:
    """A lambda loading weights in every method's defaults (where a default may go) and in
    the first method's body."""
    cls = ast.parse(text).body[0]
    assert isinstance(cls, ast.ClassDef)
    lines = _lines(text)
    for fn in reversed(_methods(cls)):
        args = fn.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or not args.args:
            continue
        last = args.defaults[-1] if args.defaults else args.args[-1]
        row, col = (last.end_lineno or last.lineno) - 1, last.end_col_offset or 0
        lines[row] = lines[row][:col] + ", fn=lambda m: m.load_weights('l.h5')" + lines[row][col:]
    text = "\n".join(lines)
    added = ["model = Regressor()", 'cb = lambda: model.load_weights("cb.h5")']
    return _insert(text, 0, added, -1)


EDITS: dict[str, Callable[[str], str]] = {
    "method moved": move_last_first,
    "method renamed": rename_first,
    "method duplicated": duplicate_last,
    "decorators added": decorate_each,
    "class-level statements": class_statements,
    "class in a method": nested_class,
    "lambdas": lambdas,
}


def test_the_facts_asked_for_are_made_by_method() -> None:
    assert BY_METHOD == [
        "practice.model_builders",
        "practice.randomness",
        "saving.custom_compiled_functions",
        "saving.unbuilt_loads",
        "tflsp.data",
        "tracking.holders",
    ]


def test_the_classes_followed_are_many_and_every_fact_has_something_to_say() -> None:
    assert len(CLASSES) >= 30
    told = dict(fresh(TRAINER).extra)
    assert all(told[name] for name in BY_METHOD), told


def test_a_fresh_extraction_is_whole_without_methods() -> None:
    # Every top-level statement of the examples, and the classes: a fact's plain extract
    # (what a fresh analysis runs) is what ``whole`` gives with no method set apart.
    paths = sorted((REPO / "tflsp" / "catalog" / "patterns").glob("*/*.py"))
    paths += sorted((REPO / "tests" / "corpus").glob("*.py"))
    texts = list(CLASSES)
    for path in paths:
        source = path.read_text(encoding="utf-8")
        texts.extend(ast.get_source_segment(source, stmt) or "" for stmt in ast.parse(source).body)
    for text in texts:
        if not parses(text):
            continue  # a statement that needs the lines around it (a decorator's argument)
        for fact in MODULE_FACTS:
            if fact.by_method is not None:
                assert fact.by_method.whole(index_of(text), NO_METHODS) == fact.extract(
                    index_of(text)
                ), (fact.name, text)


@pytest.mark.parametrize("k", range(len(CLASSES)))
def test_typing_in_a_method_of_a_class_equals_a_fresh_extraction(k: int) -> None:
    text = CLASSES[k]
    count = len(method_spans(text))
    for turn, method in enumerate(sorted({0, count - 1, k % count})):
        statement = STATEMENTS[(k + turn) % len(STATEMENTS)]
        follow(list(typed_into(text, method, statement)))


def test_typing_in_every_method_of_the_trainer() -> None:
    for method in range(len(method_spans(TRAINER))):
        for turn in (0, 2):
            statement = STATEMENTS[(method + turn) % len(STATEMENTS)]
            follow(list(typed_into(TRAINER, method, statement)))


@pytest.mark.parametrize("name", sorted(EDITS))
def test_an_edit_of_a_class_there_and_back(name: str) -> None:
    for k, text in enumerate(CLASSES):
        changed = EDITS[name](text)
        assert changed != text and parses(changed), changed
        follow([text, changed, text])
        if k % 8 == 0:
            # And typing into a method of the changed class afterwards.
            middle = len(method_spans(changed)) // 2
            follow(list(typed_into(changed, middle, STATEMENTS[k % len(STATEMENTS)])))


# Names of the class body that ``tune``'s decorator reads: its text stays, its terms do not.
CLASS_LEVEL = (
    ('WEIGHTS = "tuned.h5"', 'WEIGHTS = "other.h5"'),
    ("DATA = tf.random.uniform([8, 2])", "DATA = np.zeros([8, 2])"),
    ("LOSS = custom_loss", "LOSS = other_loss"),
)


def class_level_changed() -> str:
    text = TRAINER
    for old, new in CLASS_LEVEL:
        text = text.replace(old, new, 1)
    return text


def test_class_level_names_a_header_reads() -> None:
    follow([TRAINER, class_level_changed(), TRAINER])


def test_edits_in_a_row() -> None:
    text = TRAINER
    versions = [text]
    for name in sorted(EDITS):
        text = EDITS[name](text)
        versions.append(text)
    follow(versions)
    follow(versions[::-1])


def test_kept_parts_hold_values_only() -> None:
    text = TRAINER
    before = extract_facts(index_of(text), MODULE_FACTS, fresh(text), text)
    changed = text.replace("epochs=2", "epochs=3")
    after = extract_facts(index_of(changed), MODULE_FACTS, before, changed)
    assert after.members is not None
    made = {name for part in after.members.values() for name in part.extra}
    assert made == set(BY_METHOD)
    seen: set[int] = set()
    stack: list[object] = [after.members]
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (str, int, float, bytes, type(None), type)):
            continue
        seen.add(id(item))
        assert not isinstance(item, (ast.AST, NodeIndex, BlockFacts)), type(item)
        stack.extend(gc.get_referents(item))


def test_a_method_with_a_class_in_it_is_left_to_the_class_body() -> None:
    text = TRAINER
    before = extract_facts(index_of(text), MODULE_FACTS, fresh(text), text)
    assert before.members is not None
    factory = next(part for key, part in before.members.items() if "def factory" in key[0])
    assert factory.extra["saving.unbuilt_loads"] is None
    assert factory.extra["tracking.holders"]  # a fact that does not follow names splits it


MODULE = (
    "import numpy as np\nimport tensorflow as tf\nfrom tensorflow import keras\n\n\n"
    "def custom_loss(y, p):\n    return tf.reduce_mean(y - p)\n\n\n"
    + TRAINER
    + '\n\nmodel = Trainer()\nmodel.load_weights("w.h5")\nmodel.fit(x, y)\n'
)


@pytest.mark.parametrize("statement", STATEMENTS[:3])
def test_typing_through_the_engine_equals_a_fresh_analysis(statement: str) -> None:
    warm = analyzer()
    warm.analyze(MODULE)
    lines = MODULE.split("\n")
    at = next(i for i, line in enumerate(lines) if "model.fit(data, epochs=epochs)" in line)
    for end in range(len(statement) + 1):
        text = "\n".join([*lines[:at], "        " + statement[:end], *lines[at:]])
        got = warm.analyze(text)
        if not parses(text):
            # A half-typed line keeps what its block said last time: not a fresh analysis.
            continue
        cold = analyzer().analyze(text)
        assert [signature(d) for d in got.diagnostics] == [
            signature(d) for d in cold.diagnostics
        ], text


# -- the checks above fail when a part is reused where it must not be ------------------------
BODY_EDITS = {
    # One per fact, each keeping the method's header and its number of calls.
    "tracking.holders": ("self.dense = keras", "self.dense2 = keras"),
    "practice.model_builders": ("keras.backend.clear_session()", "keras.backend.clear_all()"),
    "practice.randomness": ("model.fit(data, epochs=epochs)", "other.fit(data, epochs=epochs)"),
    "saving.custom_compiled_functions": ("loss=custom_loss", "loss=other_loss"),
    "saving.unbuilt_loads": ("model.load_weights(path)", "model.load_weights(path + 'x')"),
    "tflsp.data": ("np.random.rand()", "np.random.randn()"),
}


def _weakened(key: Callable[[tuple[str, tuple[str, ...]]], object]) -> Callable[..., object]:
    plan_methods = facts_module.plan_methods

    def weakened(sem: object, text: str) -> MethodPlan | None:
        plan = plan_methods(sem, text)  # type: ignore[arg-type]
        if plan is not None:
            for member in plan.members:
                member.key = key(member.key)  # type: ignore[assignment]
        return plan

    return weakened


def test_a_key_blind_to_the_body_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Keyed by its first line alone, a method whose body changed gives its old part.
    follow([TRAINER, *(TRAINER.replace(*edit, 1) for edit in BODY_EDITS.values())])
    monkeypatch.setattr(
        facts_module, "plan_methods", _weakened(lambda key: (key[0].split("\n")[0], key[1]))
    )
    caught = {
        name
        for name, (old, new) in BODY_EDITS.items()
        if name in mismatches([TRAINER, TRAINER.replace(old, new, 1)])
    }
    assert caught == set(BY_METHOD)


def test_a_key_blind_to_the_local_ids_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # The class renamed leaves every method's text alone, not its ids (``Trainer.train``).
    renamed = TRAINER.replace("class Trainer(", "class Coach(", 1)
    follow([TRAINER, renamed])
    monkeypatch.setattr(facts_module, "plan_methods", _weakened(lambda key: (key[0], ())))
    assert {
        "practice.model_builders",
        "practice.randomness",
        "tracking.holders",
        "saving.unbuilt_loads",
    } <= mismatches([TRAINER, renamed])


def test_a_part_that_reads_its_header_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # The facts that ask for terms leave the header to ``whole``: its terms read the class body.
    reading = [
        replace(fact, by_method=replace(fact.by_method, header=True))
        if fact.by_method is not None and not fact.by_method.header
        else fact
        for fact in MODULE_FACTS
    ]
    monkeypatch.setattr(sys.modules[__name__], "MODULE_FACTS", tuple(reading))
    assert mismatches([TRAINER, class_level_changed()]) == {
        "practice.randomness",
        "saving.custom_compiled_functions",
        "saving.unbuilt_loads",
    }


def test_a_part_not_moved_with_its_method_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # A load in a lambda is followed in the lambda's scope, whose id holds its line.
    moved = TRAINER.replace("    units = 8\n", "    units = 8\n    depth = 2\n", 1)
    follow([TRAINER, moved])
    monkeypatch.setattr(saving_weights, "lambda_lines", lambda scope, by: scope)
    assert mismatches([TRAINER, moved]) == {"saving.unbuilt_loads"}
