"""``tflsp verify``: prove catalog claims and probe user code by running TensorFlow.

TensorFlow runs only in worker processes (:mod:`tflsp.verify.worker`); this module stays
stdlib-only.  Exit status: 0 nothing wrong was found, 1 a catalog check failed or a probe
reported a finding at error severity, 2 usage error or the verifier could not run (TensorFlow
missing, worker start failure, or a target that could not be built or called).
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
        "Exit status: 0 nothing wrong, 1 a finding at error severity (or a failed catalog "
        "check), 2 usage error, verifier unavailable or a target it could not run.",
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
    parser.add_argument(
        "--input-shape",
        help="sample input shape with the batch axis, e.g. 4,3; several inputs: 2,5,4;2,4",
    )
    parser.add_argument(
        "--dtype", help="dtype of the sample input(s), e.g. int32; several inputs: int32;float32"
    )
    parser.add_argument(
        "--inputs",
        metavar="JSON|FILE",
        help="one call's arguments: a JSON list (positional) or object (keywords), a .json file, "
        'or a .npz file (arrays arg0, arg1... or by parameter name); {"shape": [2, 3], '
        '"dtype": "int32"} makes a sample tensor',
    )
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


def _probe_options(args: argparse.Namespace) -> dict[str, Any]:
    """--args, --input-shape, --dtype and --inputs as probe options (ValueError when bad)."""
    from tflsp.verify.directives import normalise

    options: dict[str, Any] = {}
    if args.args:
        options["args"] = json.loads(args.args)
    if args.input_shape:
        shapes = [
            [int(n) for n in part.replace("x", ",").split(",") if n.strip()]
            for part in args.input_shape.split(";")
            if part.strip()
        ]
        options["input_shape"] = shapes[0] if len(shapes) == 1 else shapes
    if args.dtype:
        dtypes = [d.strip() for d in args.dtype.split(";") if d.strip()]
        options["dtype"] = dtypes[0] if len(dtypes) == 1 else dtypes
    if args.inputs:
        text = args.inputs.strip()
        if text.endswith(".npz"):
            path = Path(text)
            if not path.is_file():
                raise ValueError(f"{text} does not exist")
            options["inputs"] = {"npz": str(path.resolve())}
        else:
            if text.endswith(".json") and Path(text).is_file():
                text = Path(text).read_text(encoding="utf-8")
            options["inputs"] = json.loads(text)
    return normalise(options, "--args/--input-shape/--dtype/--inputs")


def _failure(
    kind: str, path: str, name: str, message: str, outcome: str = "error"
) -> dict[str, Any]:
    result: dict[str, Any] = {
        "probe": kind,
        "path": path,
        "target": name,
        "outcome": outcome,
        "findings": [],
        "observations": {"outcome": outcome},
    }
    result["error" if outcome == "error" else "reason"] = message
    return result


def run_probes(args: argparse.Namespace) -> int:
    import uuid

    from tflsp.verify.client import VerifierClient
    from tflsp.verify.directives import DirectiveError
    from tflsp.verify.errors import (
        TensorFlowMissing,
        VerifierError,
        WorkerStartError,
        WorkerTimeout,
    )
    from tflsp.verify.report import annotate, render_text

    try:
        options = _probe_options(args)
    except (ValueError, DirectiveError) as exc:
        return _error(f"bad --args, --input-shape, --dtype or --inputs: {exc}")

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
        requests.append((str(file.resolve()) if file.exists() else str(file), source, name))

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
                # One session per target: its probes share one import of the module.
                session = uuid.uuid4().hex
                stuck = ""
                for kind in kinds:
                    if stuck:
                        result = _failure(kind, path, name, stuck, "skip")
                    else:
                        params = {
                            "kind": kind,
                            "path": path,
                            "source": source,
                            "target": name,
                            "session": session,
                            **options,
                        }
                        try:
                            result = client.probe(params)
                        except (TensorFlowMissing, WorkerStartError) as exc:
                            return _error(str(exc))
                        except VerifierError as exc:
                            result = _failure(kind, path, name, str(exc))
                            if isinstance(exc, WorkerTimeout) and exc.phase.startswith("importing"):
                                # The next probe would import the module again and hang again.
                                stuck = f"not run: importing the module did not finish (see {kind})"
                    result["keras_major"] = keras
                    annotate(result, catalog, args.lang)
                    results.append(result)
                    if args.format == "text":
                        sys.stdout.write(render_text(result))
                        sys.stdout.flush()
    if args.format == "json":
        print(json.dumps(results, ensure_ascii=False, indent=1, default=str))
    return exit_status(results)


def exit_status(results: list[dict[str, Any]]) -> int:
    """1 when a finding is at error severity; else 2 when a probe could not run; else 0."""
    if any(f.get("severity") == "error" for r in results for f in r.get("findings", [])):
        return 1
    if any(r.get("outcome") == "error" for r in results):
        return 2
    return 0
