"""``tflsp verify``: prove catalog claims and probe user code by running TensorFlow.

TensorFlow runs only in worker processes (:mod:`tflsp.verify.worker`); this module stays
stdlib-only.  Exit status: 0 everything passed, 1 a check or probe failed, 2 usage error or
the verifier could not run (TensorFlow missing, worker start failure).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from tflsp.catalog import CatalogError, load_catalog, load_pattern
from tflsp.catalog.loader import PATTERNS_DIR

KERAS_CHOICES = {"3": ("3",), "2": ("2",), "both": ("3", "2")}
PROBES = ("tracking", "modes", "saveload")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "verify",
        help="run TensorFlow to verify the catalog or probe your code",
        description="Verify the catalog's runtime claims (--catalog) or probe a class or "
        "function in your code (FILE::NAME).  TensorFlow runs in a separate worker process. "
        "Exit status: 0 all passed, 1 something failed, 2 usage error or verifier unavailable.",
    )
    parser.add_argument(
        "targets", nargs="*", metavar="FILE::NAME", help="class or function to probe"
    )
    parser.add_argument(
        "--catalog", action="store_true", help="run every pattern's bad.py and good.py"
    )
    parser.add_argument(
        "--validate", action="store_true", help="only check the [runtime] sections (no TensorFlow)"
    )
    parser.add_argument("--select", help="with --catalog: comma-separated codes, prefixes or names")
    parser.add_argument(
        "--keras",
        choices=sorted(KERAS_CHOICES),
        default="3",
        help="Keras version(s) to run (default: 3)",
    )
    parser.add_argument(
        "--probe",
        choices=[*PROBES, "all"],
        default="all",
        help="probe for FILE::NAME (default: all)",
    )
    parser.add_argument("--args", help='constructor arguments as JSON: {"units": 5} or [5]')
    parser.add_argument("--input-shape", help="sample input shape with the batch axis, e.g. 4,3")
    parser.add_argument("--format", choices=["text", "json"], default="text")
    parser.add_argument(
        "--record",
        nargs="?",
        const="docs/verification.json",
        metavar="PATH",
        help="with --catalog: write the verification record (default path: docs/verification.json)",
    )
    parser.add_argument(
        "--jobs", "-j", type=int, default=1, help="workers per Keras version (default: 1)"
    )
    parser.add_argument(
        "--fresh", action="store_true", help="run every example in a fresh worker (slow)"
    )
    parser.add_argument(
        "--timeout",
        type=float,
        help="seconds per request before the worker is killed (default: 60)",
    )
    parser.add_argument("--memory-limit", help="worker address-space limit, e.g. 6G (0: none)")
    parser.add_argument("--python", help="interpreter that has TensorFlow (default: this one)")
    parser.add_argument(
        "--lang", choices=["en", "ja"], default="en", help="language of catalog hints"
    )
    parser.set_defaults(handler=run)


def _config(args: argparse.Namespace, keras: str, **extra: Any) -> Any:
    from tflsp.verify.config import WorkerConfig, parse_size

    options: dict[str, Any] = {"keras": keras, **extra}
    if args.timeout:
        options["timeout"] = args.timeout
    if args.memory_limit is not None:
        options["memory_limit"] = parse_size(args.memory_limit)
    if args.python:
        options["python"] = args.python
    return WorkerConfig(**options)


def _error(message: str) -> int:
    print(f"tflsp verify: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    if args.catalog and args.targets:
        return _error("give either --catalog or FILE::NAME targets, not both")
    if args.validate:
        return run_validate(args)
    if args.catalog:
        return run_catalog(args)
    if not args.targets:
        return _error("nothing to verify: give FILE::NAME, --catalog or --validate")
    return run_probes(args)


# -- --validate ----------------------------------------------------------------------------------
def run_validate(args: argparse.Namespace) -> int:
    from tflsp.verify.expectations import validate_catalog

    patterns = _selected(args)
    if patterns is None:
        return 2
    problems = validate_catalog(patterns)
    for problem in problems:
        print(problem)
    print(f"{len(patterns)} runtime section(s) checked, {len(problems)} malformed")
    return 1 if problems else 0


def _patterns() -> list[Any]:
    """Every pattern that loads.  A folder another contributor is still writing is reported and
    left out instead of stopping the verification of all the others."""
    try:
        return list(load_catalog())
    except CatalogError:
        pass
    found = []
    for folder in sorted(PATTERNS_DIR.iterdir()):
        if not folder.is_dir() or folder.name.startswith(("_", ".")):
            continue
        try:
            found.append(load_pattern(folder, check_examples=True))
        except CatalogError as exc:
            print(f"tflsp verify: skipping malformed pattern: {exc}", file=sys.stderr)
    return found


def _selected(args: argparse.Namespace) -> list[Any] | None:
    catalog = _patterns()
    if not args.select:
        return catalog
    chosen: list[Any] = []
    for selector in (s.strip() for s in args.select.split(",") if s.strip()):
        matched = [p for p in catalog if p.code.startswith(selector.upper())]
        matched += [
            p for p in catalog if selector.lower() in (p.name, p.slug.lower()) and p not in matched
        ]
        if not matched:
            _error(f"unknown pattern selector {selector!r}")
            return None
        chosen.extend(p for p in matched if p not in chosen)
    return sorted(chosen, key=lambda p: p.code)


# -- --catalog -------------------------------------------------------------------------------------
class _Progress:
    """A bar on a terminal, one line per finished pattern and Keras version otherwise."""

    def __init__(self, total: int, expected: dict[tuple[str, str], int], stream: TextIO, bar: bool):
        self.total = total
        self.done = 0
        self.expected = expected
        self.stream = stream
        self.bar = bar
        self.partial: dict[tuple[str, str], list[Any]] = {}
        self.started = time.monotonic()

    def __call__(self, result: Any) -> None:
        self.done += 1
        key = (result.pattern, result.keras)
        items = self.partial.setdefault(key, [])
        items.append(result)
        if self.bar:
            width = 30
            filled = int(width * self.done / max(1, self.total))
            self.stream.write(
                f"\r[{'#' * filled}{'.' * (width - filled)}] {self.done}/{self.total} "
                f"{result.pattern} keras{result.keras} {result.example}: {result.status}   "
            )
            self.stream.flush()
        elif len(items) == self.expected.get(key, 2):
            parts = "  ".join(
                f"{r.example}: {r.status}" for r in sorted(items, key=lambda r: r.example != "bad")
            )
            seconds = sum(r.seconds for r in items)
            self.stream.write(
                f"{result.pattern} {items[0].name:<32} keras{result.keras}  {parts}  ({seconds:.1f} s)\n"
            )
            self.stream.flush()

    def finish(self) -> None:
        if self.bar:
            self.stream.write("\n")
            self.stream.flush()


def run_catalog(args: argparse.Namespace) -> int:
    from tflsp import __version__
    from tflsp.verify.catalog_check import CatalogRun, plan
    from tflsp.verify.record import (
        Record,
        RecordError,
        load_record,
        merge,
        utc_now,
        write_record,
    )

    patterns = _selected(args)
    if patterns is None:
        return 2
    versions = KERAS_CHOICES[args.keras]
    tasks = plan(patterns, versions)
    expected: dict[tuple[str, str], int] = {}
    for task in tasks:
        expected[(task.pattern.code, task.keras)] = (
            expected.get((task.pattern.code, task.keras), 0) + 1
        )
    stream = sys.stdout if args.format == "text" else sys.stderr
    progress = _Progress(len(tasks), expected, stream, bar=stream.isatty())
    started = time.monotonic()
    runner = CatalogRun(
        lambda v: _config(args, v), jobs=args.jobs, fresh=args.fresh, on_result=progress
    )
    results = runner.run(tasks)
    progress.finish()
    elapsed = time.monotonic() - started
    if runner.fatal:
        return _error(runner.fatal[0])

    if args.record:
        previous: Record | None = None
        try:
            previous = load_record(args.record)
        except (OSError, RecordError):
            previous = None
        record = merge(
            previous,
            results,
            runner.runs,
            known_patterns={p.code for p in _patterns()},
            tflsp_version=__version__,
        )
        write_record(record, args.record)

    failed = [r for r in results if r.status in ("fail", "error")]
    counts = {
        status: sum(1 for r in results if r.status == status)
        for status in ("pass", "fail", "error", "skip")
    }
    if args.format == "json":
        # The same shape as the record file (schema 1), so redirecting this output also gives
        # the docs a record; "summary" and "seconds" are extras the record loader ignores.
        document = Record(
            generated=utc_now(), tflsp=__version__, runs=tuple(runner.runs), results=tuple(results)
        ).as_dict()
        document.update(summary=counts, seconds=round(elapsed, 2))
        print(json.dumps(document, ensure_ascii=False, indent=1))
    else:
        for result in failed:
            print(
                f"\n{result.pattern} {result.name} keras{result.keras} {result.example}.py: {result.status.upper()}"
            )
            if result.note:
                print(f"  {result.note}")
            for check in result.checks:
                if not check["ok"]:
                    print(f"  expected: {check['expect']}\n  observed: {check['observed']}")
        per_version = ", ".join(f"Keras {r['keras']} {r['seconds']:.0f} s" for r in runner.runs)
        print(
            f"\n{counts['pass']} passed, {counts['fail']} failed, {counts['error']} errors, "
            f"{counts['skip']} skipped in {elapsed:.1f} s ({per_version})"
            + (f"; record written to {args.record}" if args.record else "")
        )
    return 1 if failed else 0


# -- FILE::NAME probes -------------------------------------------------------------------------
def _parse_target(text: str) -> tuple[Path, str] | None:
    path, sep, name = text.rpartition("::")
    if not sep or not path or not name:
        return None
    return Path(path), name


def run_probes(args: argparse.Namespace) -> int:
    from tflsp.verify.client import VerifierClient
    from tflsp.verify.directives import DirectiveError, normalise
    from tflsp.verify.errors import TensorFlowMissing, VerifierError, WorkerStartError
    from tflsp.verify.report import annotate, render_text

    options: dict[str, Any] = {}
    try:
        if args.args:
            options["args"] = json.loads(args.args)
        if args.input_shape:
            options["input_shape"] = [
                int(n) for n in args.input_shape.replace("x", ",").split(",") if n.strip()
            ]
        options = normalise(options, "--args/--input-shape")
    except (ValueError, DirectiveError) as exc:
        return _error(f"bad --args or --input-shape: {exc}")

    requests = []
    for text in args.targets:
        parsed = _parse_target(text)
        if parsed is None:
            return _error(f"{text!r} is not FILE::NAME")
        file, name = parsed
        try:
            source = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            return _error(f"cannot read {file}: {exc}")
        requests.append((str(file), source, name))

    kinds = PROBES if args.probe == "all" else (args.probe,)
    try:
        catalog: list[Any] = list(load_catalog())
    except CatalogError as exc:
        # Hints are a bonus; a half-edited catalog must not stop a probe.
        print(
            f"tflsp verify: catalog hints unavailable: {str(exc).splitlines()[0]}", file=sys.stderr
        )
        catalog = []
    results = []
    for keras in KERAS_CHOICES[args.keras]:
        # A spare fresh process for save/load starts while the other probes run.
        config = _config(args, keras, prewarm_loader="saveload" in kinds)
        with VerifierClient(config) as client:
            for path, source, name in requests:
                for kind in kinds:
                    params = {
                        "kind": kind,
                        "path": path,
                        "source": source,
                        "target": name,
                        **options,
                    }
                    try:
                        result = client.probe(params)
                    except (TensorFlowMissing, WorkerStartError) as exc:
                        return _error(str(exc))
                    except VerifierError as exc:
                        result = {
                            "probe": kind,
                            "path": path,
                            "target": name,
                            "outcome": "error",
                            "error": str(exc),
                            "findings": [],
                            "observations": {"outcome": "error"},
                        }
                    result["keras_major"] = keras
                    annotate(result, catalog, args.lang)
                    results.append(result)
                    if args.format == "text":
                        sys.stdout.write(render_text(result))
                        sys.stdout.flush()
    if args.format == "json":
        print(json.dumps(results, ensure_ascii=False, indent=1, default=str))
    return 0 if all(r.get("outcome") == "pass" for r in results) else 1
