"""Where a cold analysis spends its time: by stage and by detector family.

The stages are timed by wrapping, for the length of one measurement, the functions the engine
and the block cutter call (``tflsp.analysis.engine`` and ``tflsp.analysis.views`` look them up
as module globals), the detectors' ``run`` and the family module facts' ``extract``.  Nothing
in ``tflsp`` is changed for it.  A stage the engine no longer calls is simply reported as
absent.  Wrapping costs a clock read per call: the
total of the stages is compared with the same analysis unwrapped.

Also: what the first analysis in a fresh process pays (importing the analyzer, loading the
catalog, importing the detectors), measured in a child process.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from tflsp.analysis import engine, registry, views
from tflsp.analysis.engine import Analyzer, LintConfig
from tflsp.catalog import Catalog

# Globals of the cutter and the engine, in the order a block meets them.
STAGES = (
    ("resplit", "split into candidate blocks"),
    ("try_parse", "parse merge candidates"),
    ("parse_block", "parse blocks"),
    ("NodeIndex", "index nodes (parents, by type)"),
    ("find_suppressions", "find suppression comments"),
    ("extract_facts", "extract block facts (core)"),
    ("build_summary", "build module summary"),
    ("BlockContext", "make detector contexts"),
)


class Stopwatch:
    def __init__(self) -> None:
        self.totals: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)

    def wrap(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        totals, calls = self.totals, self.calls

        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.perf_counter()
            try:
                return fn(*args, **kwargs)
            finally:
                totals[label] += time.perf_counter() - began
                calls[label] += 1

        return timed


def _family(catalog: Catalog, codes: frozenset[str], name: str) -> str:
    for code in sorted(codes):
        if code in catalog:
            return f"detectors: {catalog[code].family}"
    return f"detectors: {name.rsplit('.', 2)[-2]}"


@contextmanager
def instrumented(watch: Stopwatch) -> Iterator[None]:
    saved_globals = {
        (module, name): getattr(module, name)
        for name, _ in STAGES
        for module in (views, engine)
        if hasattr(module, name)
    }
    saved_facts = dict(registry._MODULE_FACTS)
    try:
        for (module, name), fn in saved_globals.items():
            setattr(module, name, watch.wrap(name, fn))
        for key, fact in saved_facts.items():
            label = f"module fact: {key}"
            # A fact made method by method for a class being typed in runs part and whole.
            split = fact.by_method
            if split is not None:
                split = replace(
                    split, part=watch.wrap(label, split.part), whole=watch.wrap(label, split.whole)
                )
            registry._MODULE_FACTS[key] = replace(
                fact, extract=watch.wrap(label, fact.extract), by_method=split
            )
        yield
    finally:
        for (module, name), fn in saved_globals.items():
            setattr(module, name, fn)
        registry._MODULE_FACTS.clear()
        registry._MODULE_FACTS.update(saved_facts)


def cold_breakdown(source: str, config: LintConfig, catalog: Catalog) -> dict[str, float]:
    """Seconds per stage for one cold analysis (fresh analyzer), plus ``total``."""
    watch = Stopwatch()
    with instrumented(watch):
        analyzer = Analyzer(config, catalog)
        analyzer._detectors = [
            replace(d, run=watch.wrap(_family(catalog, d.codes, d.name), d.run))
            for d in analyzer._detectors
        ]
        began = time.perf_counter()
        analyzer.analyze(source)
        total = time.perf_counter() - began
    out = dict(watch.totals)
    facts = sum(v for k, v in out.items() if k.startswith("module fact: "))
    if "extract_facts" in out:
        out["extract_facts"] -= facts  # the family facts are listed on their own
    out["total"] = total
    out["blocks"] = watch.calls.get("parse_block", 0)
    return out


def typing_breakdown(
    source: str,
    config: LintConfig,
    catalog: Catalog,
    edits: list[tuple[int, int, str]],
) -> tuple[dict[str, float], list[float]]:
    """Replay keystrokes (``(line, column, text)``, as ``lsp_latency.keystrokes`` makes them)
    through one warm analyzer: seconds per keystroke for each stage (means), and the total
    time of each keystroke (instrumented)."""
    analyzer = Analyzer(config, catalog)
    analyzer.analyze(source)
    lines = source.split("\n")
    watch = Stopwatch()
    totals = []
    with instrumented(watch):
        analyzer._detectors = [
            replace(d, run=watch.wrap(_family(catalog, d.codes, d.name), d.run))
            for d in analyzer._detectors
        ]
        for line, column, text in edits:
            if text.endswith("\n"):
                lines.insert(line, text[:-1])
            else:
                lines[line] = lines[line][:column] + text + lines[line][column:]
            typed = "\n".join(lines)
            began = time.perf_counter()
            analyzer.analyze(typed)
            totals.append(time.perf_counter() - began)
    count = max(1, len(edits))
    out = {k: v / count for k, v in watch.totals.items()}
    facts = sum(v for k, v in out.items() if k.startswith("module fact: "))
    if "extract_facts" in out:
        out["extract_facts"] -= facts
    out["total"] = sum(totals) / count
    out["summaries"] = watch.calls.get("build_summary", 0) / count
    return out, totals


def median_breakdown(
    source: str, config: LintConfig, catalog: Catalog, repeat: int
) -> dict[str, float]:
    runs = [cold_breakdown(source, config, catalog) for _ in range(repeat)]
    keys = {k for run in runs for k in run}
    return {k: statistics.median(run.get(k, 0.0) for run in runs) for k in keys}


def print_breakdown(figures: dict[str, float], parse_ms: float, total_label: str = "total") -> None:
    total = figures["total"] * 1000
    print(f"  {'stage':<44}{'ms':>9}{'share':>8}{'/parse':>8}")
    labels = dict(STAGES)
    ordered = [k for k, _ in STAGES if k in figures]
    ordered += sorted(k for k in figures if k.startswith("module fact: "))
    ordered += sorted(
        (k for k in figures if k.startswith("detectors: ")), key=lambda k: -figures[k]
    )
    accounted = 0.0
    for key in ordered:
        value = figures[key] * 1000
        accounted += value  # no wrapped stage runs inside another (family facts are taken out)
        if value < 0.05 and key.startswith(("module fact: ", "detectors: ")):
            continue  # nothing to see (most rows of a keystroke)
        print(
            f"  {labels.get(key, key):<44}{value:>9.1f}{value / total:>7.0%}{value / parse_ms:>7.2f}x"
        )
    rest = total - accounted
    print(f"  {'engine (placing, dedupe, sort, rest)':<44}{rest:>9.1f}{rest / total:>7.0%}")
    print(f"  {total_label + ' (instrumented)':<44}{total:>9.1f}{'':>8}{total / parse_ms:>7.2f}x")


_FIRST_USE = """
import gc, json, sys, time
began = time.perf_counter()
from tflsp.analysis.engine import Analyzer
from tflsp.settings import Settings
imported = time.perf_counter()
from tflsp.catalog import load_catalog
catalog = load_catalog()
loaded = time.perf_counter()
from tflsp.analysis.registry import all_detectors
all_detectors()
detectors = time.perf_counter()
analyzer = Analyzer(Settings().lint_config(catalog), catalog)
gc.disable()  # as the CLI and the server analyse
source = sys.stdin.read()
read = time.perf_counter()
analyzer.analyze(source)
done = time.perf_counter()
print(json.dumps({
    "import analyzer and settings": imported - began,
    "load catalog": loaded - imported,
    "import detectors": detectors - loaded,
    "first analysis": done - read,
}))
"""


def first_use(source: str, repeat: int = 3) -> dict[str, float]:
    """Seconds for each step of a fresh process's first analysis (medians of ``repeat``)."""
    runs = []
    for _ in range(repeat):
        proc = subprocess.run(
            [sys.executable, "-c", _FIRST_USE],
            input=source,
            capture_output=True,
            text=True,
            check=True,
        )
        runs.append(json.loads(proc.stdout))
    return {k: statistics.median(run[k] for run in runs) for k in runs[0]}
