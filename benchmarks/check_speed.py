"""How fast is the analyzer?  Prints medians and ratios; not a test.

Measures, on a real 5,000-line module made from ``../shared/corpus`` (``benchmarks/realcode.py``;
left out with a message when the corpus is absent), on a generated 5,000-line module
(``benchmarks/generate.py``) and on ``examples/``:

- a cold analysis (fresh caches) against a bare ``ast.parse`` of the same text, and where it
  goes: splitting, parsing, indexing, fact extraction, summary, each detector family
  (``benchmarks/breakdown.py``);
- what the first analysis in a fresh process pays: imports, catalog, detectors;
- with ``--typing``: the same breakdown per keystroke, typing at the three places of
  ``lsp_latency.py`` (in a function, in a method, at module level);
- the whole ``tflsp check`` command as a process (start-up included);
- re-analysing after a one-line edit inside one function (the block cache at work), and after
  an edit that changes a module-wide fact (a new import), which invalidates every block's
  findings but not their parse.

Usage: ``python benchmarks/check_speed.py [--real 5000] [--lines 5000] [--repeat 15] [--typing]``
"""

from __future__ import annotations

import argparse
import ast
import gc
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from breakdown import first_use, median_breakdown, print_breakdown, typing_breakdown
from bytecode import ensure_bytecode
from generate import generate
from lsp_latency import keystrokes, typing_places
from realcode import missing_corpus_message, real_module

from tflsp.analysis.engine import Analyzer
from tflsp.catalog import load_catalog
from tflsp.settings import Settings

ROOT = Path(__file__).resolve().parent.parent


def timed(fn: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def report(label: str, values: list[float]) -> float:
    median = statistics.median(values)
    print(f"{label:<52} median {median:8.2f} ms   p95 {pct(values, 0.95):8.2f} ms")
    return median


def edit_positions(lines: list[str], count: int) -> list[int]:
    """Lines inside function bodies spread over the module."""
    candidates = [i for i, line in enumerate(lines) if line.startswith("        ") and line.strip()]
    step = max(1, len(candidates) // count)
    return candidates[::step][:count]


def modules(real: list[int], generated: list[int]) -> list[tuple[str, str]]:
    out = []
    for size in real:
        module = real_module(size)
        if module is None:
            print(missing_corpus_message())
            break
        out.append((f"real-{size} ({len(module.files)} corpus files)", module.text))
    out.extend((f"generated-{size}", generate(size)) for size in generated)
    return out


def measure_module(label: str, source: str, args: argparse.Namespace) -> None:
    catalog = load_catalog()
    config = Settings(select=("ALL",)).lint_config(catalog)
    print(f"\n== {label}: {source.count(chr(10))} lines, {len(source):,} characters")

    parse_ms = report("ast.parse (whole module)", timed(lambda: ast.parse(source), args.repeat))
    cold_ms = report(
        "analyze, cold caches",
        timed(lambda: Analyzer(config, catalog).analyze(source), args.repeat),
    )
    print(f"{'  ratio cold analyze / ast.parse':<52} {cold_ms / parse_ms:8.2f}x")
    print("  cold analysis, by stage (medians, instrumented):")
    print_breakdown(median_breakdown(source, config, catalog, args.repeat), parse_ms)

    analyzer = Analyzer(config, catalog)
    result = analyzer.analyze(source)
    print(f"  {len(result.diagnostics)} diagnostics in {len(result.blocks)} blocks")
    report(
        "analyze, unchanged text (all caches warm)",
        timed(lambda: analyzer.analyze(source), args.repeat),
    )

    lines = source.split("\n")
    edits = []
    for n, index in enumerate(edit_positions(lines, max(args.repeat, 60))):
        changed = list(lines)
        changed[index] = changed[index] + f"  # edit {n}"
        edits.append("\n".join(changed))
    iterator = iter(edits)
    edit_ms = report(
        "re-analyze after a one-line edit in a function",
        timed(lambda: analyzer.analyze(next(iterator)), len(edits)),
    )
    print(f"{'  ratio one-line edit / ast.parse':<52} {edit_ms / parse_ms:8.3f}x")

    wide = [f"import module_{n} as m{n}\n" + source for n in range(args.repeat)]
    iterator = iter(wide)
    report(
        "re-analyze after a new import (module-wide change)",
        timed(lambda: analyzer.analyze(next(iterator)), len(wide)),
    )

    if args.typing:
        for place in typing_places(source):
            edits = keystrokes(place)
            figures, totals = typing_breakdown(source, config, catalog, edits)
            print(
                f"  typing {place.name} (line {place.after + 2}, {len(edits)} keystrokes): "
                f"median {statistics.median(totals) * 1000:.1f} ms, p95 "
                f"{pct([t * 1000 for t in totals], 0.95):.1f} ms; summary rebuilt on "
                f"{figures.pop('summaries'):.0%} of keystrokes; mean per keystroke by stage:"
            )
            print_breakdown(figures, parse_ms, "mean keystroke")

    first = first_use(source)
    print("  first analysis in a fresh process (medians of 3):")
    for step, seconds in first.items():
        print(f"    {step:<48} {seconds * 1000:8.1f} ms")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big_module.py"
        path.write_text(source)
        command = [
            sys.executable,
            "-m",
            "tflsp",
            "check",
            "--quiet",
            "--no-cache",
            "--select",
            "ALL",
            str(path),
        ]
        report(
            "tflsp check (process) on this module",
            timed(lambda: subprocess.run(command, capture_output=True), 5),
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--real", type=int, nargs="*", default=[5000], help="real-code module sizes"
    )
    parser.add_argument(
        "--lines", type=int, nargs="*", default=[5000], help="generated module sizes"
    )
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument(
        "--typing",
        action="store_true",
        help="also break down keystrokes typed at three places (see lsp_latency.py)",
    )
    args = parser.parse_args()
    ensure_bytecode()
    # The CLI and the server run the analyzer with the cyclic collector off; so does every
    # measurement here, ast.parse included.
    gc.disable()
    print(f"catalog: {len(load_catalog())} patterns; load {os.getloadavg()}")
    for label, source in modules(args.real, args.lines):
        measure_module(label, source, args)

    print()
    command = [
        sys.executable,
        "-m",
        "tflsp",
        "check",
        "--quiet",
        "--no-cache",
        str(ROOT / "examples"),
    ]
    report(
        "tflsp check (process) on examples/",
        timed(lambda: subprocess.run(command, capture_output=True), 5),
    )
    baseline = [sys.executable, "-c", "import tflsp.cli.main"]
    report(
        "  python start + import tflsp.cli.main (floor)",
        timed(lambda: subprocess.run(baseline, capture_output=True), 5),
    )


if __name__ == "__main__":
    main()
