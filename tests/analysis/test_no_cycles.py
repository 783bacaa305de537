"""A discarded analysis is freed by reference counting, not left to the cyclic collector.

Reference cycles through a block's index, flow and terms, or through the module model and
its evaluator, kept every analysed tree alive until a full collection: a third of a batch
run's time went to the collector.  This checks what is left once an analyzer is dropped.
"""

from __future__ import annotations

import ast
import gc

from tflsp.analysis.engine import Analyzer
from tflsp.analysis.index import NodeIndex
from tflsp.analysis.semantic.evaluate import Evaluator
from tflsp.analysis.semantic.flow import BlockFlow
from tflsp.analysis.semantic.model import ModuleModel
from tflsp.analysis.semantic.terms import TermBuilder
from tflsp.catalog import load_catalog
from tflsp.settings import Settings

# What must never wait for the collector: each one holds a block's tree or a module's model.
HEAVY = (NodeIndex, BlockFlow, TermBuilder, ModuleModel, Evaluator, ast.Module)


def test_analyses_of_every_bad_example_leave_no_tree_or_model_to_the_collector() -> None:
    catalog = load_catalog()
    config = Settings().lint_config(catalog)
    sources = [(p.folder / "bad.py").read_text(encoding="utf-8") for p in catalog]
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # keep what a collection finds, to look at it
    try:
        findings = 0
        for source in sources:
            analyzer = Analyzer(config, catalog)
            findings += len(analyzer.analyze(source).diagnostics)
            del analyzer
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if isinstance(o, HEAVY)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was_enabled:
            gc.enable()
    assert findings > len(sources)  # the examples were analysed, detectors ran
    assert left == []


def test_an_index_pickles_with_its_semantics_and_their_weak_links() -> None:
    import pickle

    from tflsp.analysis.facts import semantics_of

    index = NodeIndex(ast.parse("import tensorflow as tf\ndef f(x):\n    return tf.abs(x)\n"))
    facts = semantics_of(index).facts
    copy = pickle.loads(pickle.dumps(index))
    semantics = copy.memo["semantics"]
    assert semantics.index is copy and semantics.terms.index is copy
    assert semantics.facts == facts
