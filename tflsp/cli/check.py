"""``tflsp check``: lint files, directories or stdin; optionally fix them."""

from __future__ import annotations

import argparse
import difflib
import gc
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from tflsp.analysis.engine import Analyzer, LintConfig
from tflsp.analysis.fixes import fix_source
from tflsp.analysis.registry import all_detectors
from tflsp.catalog import Catalog, load_catalog
from tflsp.cli.cache import CheckCache, content_digest, resolve_directory, shared_workspace
from tflsp.cli.formats import FileReport, render_json, render_text, summary_line
from tflsp.cli.notebooks import check_notebook, is_notebook
from tflsp.cli.sarif import render_sarif
from tflsp.cli.sources import SourceError, decode, discover, read_bytes, write_source
from tflsp.codecache import generated_code
from tflsp.settings import Settings, SettingsError

# Below this many files, starting worker processes costs more than it saves.
_PARALLEL_THRESHOLD = 8
_COLLECT_EVERY = 50


def add_rule_selection_arguments(parser: argparse.ArgumentParser) -> None:
    """Flags that mirror the ``[tool.tflsp]`` keys (see :data:`tflsp.settings.SETTINGS`)."""
    parser.add_argument(
        "--select", help="comma-separated codes, prefixes or names (replaces the default set)"
    )
    parser.add_argument(
        "--extend-select", help="codes to enable in addition (e.g. off-by-default rules)"
    )
    parser.add_argument("--ignore", help="comma-separated codes, prefixes or names to disable")
    parser.add_argument(
        "--per-file-ignores",
        action="append",
        default=[],
        metavar="GLOB:CODES",
        help="disable codes in matching files, e.g. 'tests/*:TFL108' (repeatable)",
    )
    parser.add_argument(
        "--target-keras", choices=["auto", "3", "2"], help="Keras version the code runs with"
    )
    parser.add_argument(
        "--severity",
        action="append",
        default=[],
        metavar="CODE=LEVEL",
        help="override a rule's severity (repeatable)",
    )
    parser.add_argument(
        "--config", help="pyproject.toml to read [tool.tflsp] from (default: nearest)"
    )
    parser.add_argument("--isolated", action="store_true", help="ignore every configuration file")


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "check",
        help="find TensorFlow/Keras pitfalls in files",
        description="Check Python files for TensorFlow/Keras pitfalls. "
        "Exit status: 0 clean, 1 problems found, 2 usage or I/O error.",
    )
    parser.add_argument(
        "paths", nargs="*", default=["."], help="files, directories, or - for stdin"
    )
    parser.add_argument("--format", choices=["text", "json", "sarif"], default="text")
    parser.add_argument("--fix", action="store_true", help="apply safe fixes in place")
    parser.add_argument(
        "--unsafe-fixes", action="store_true", help="also apply unsafe fixes (with --fix or --diff)"
    )
    parser.add_argument(
        "--diff", action="store_true", help="print the fixes as a diff instead of writing them"
    )
    parser.add_argument(
        "--lang", choices=["en", "ja"], help="message language (default: from the locale)"
    )
    parser.add_argument(
        "--jobs", "-j", type=int, default=0, help="files checked in parallel (default: all cores)"
    )
    parser.add_argument(
        "--stdin-filename", help="path to report (and match per-file-ignores) for stdin input"
    )
    parser.add_argument(
        "--exit-zero", action="store_true", help="exit 0 even when problems are found"
    )
    parser.add_argument(
        "--quiet", "-q", action="store_true", help="print diagnostics only, no summary"
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="analyse every file; neither read nor write the cache",
    )
    parser.add_argument(
        "--cache-dir",
        metavar="DIR",
        help="where the cache lives (default: .tflsp_cache in the project root)",
    )
    add_rule_selection_arguments(parser)
    parser.set_defaults(handler=run)


def settings_from_args(args: argparse.Namespace, start: Path) -> Settings:
    if args.isolated:
        settings = Settings()
    elif args.config:
        settings = Settings.load(Path(args.config))
    else:
        settings = Settings.discover(start)
    overrides: dict[str, object] = {}
    for key in ("select", "extend_select", "ignore"):
        value = getattr(args, key, None)
        if value is not None:
            overrides[key.replace("_", "-")] = value
    if getattr(args, "per_file_ignores", None):
        table: dict[str, list[str]] = {}
        for item in args.per_file_ignores:
            glob, sep, codes = item.rpartition(":")
            if not sep or not glob:
                raise SettingsError(f"--per-file-ignores expects GLOB:CODES, got {item!r}")
            table.setdefault(glob, []).extend(c for c in codes.split(",") if c)
        overrides["per-file-ignores"] = {**dict(settings.per_file_ignores), **table}
    if getattr(args, "target_keras", None):
        overrides["target-keras"] = args.target_keras
    if getattr(args, "severity", None):
        table2 = dict(settings.severity)
        for item in args.severity:
            code, sep, level = item.partition("=")
            if not sep:
                raise SettingsError(f"--severity expects CODE=LEVEL, got {item!r}")
            table2[code.upper()] = level
        overrides["severity"] = table2
    if getattr(args, "lang", None):
        overrides["lang"] = args.lang
    return settings.layered(overrides)


class _Checker:
    """One per process: checks files one by one with the rule set that applies to each."""

    def __init__(self, settings: Settings, fix: bool, unsafe: bool, diff: bool) -> None:
        self.settings = settings
        self.fix = fix
        self.unsafe = unsafe
        self.diff = diff
        self.catalog = load_catalog()
        # Files of one run share the summaries of the workspace files they import.
        self.workspace = shared_workspace()
        self._checked = 0
        # Analysis allocates many short-lived objects that form no cycles; the cyclic collector
        # running during it costs about a third of a cold run.  Collect between files instead.
        gc.disable()
        # What start-up made (modules, the catalog, the detectors) lives as long as the run:
        # frozen, the collections between files do not walk it again and again.
        with generated_code("analysis"):
            all_detectors()
        gc.freeze()

    def analyzer_for(self, path: str) -> Analyzer:
        """A fresh analyzer for each file: what one file leaves behind (the facts kept for a
        block with a syntax error) must not change the results of the next."""
        config = self.settings.lint_config(self.catalog, None if path == "-" else path)
        return Analyzer(config, self.catalog)

    def check_text(self, path: str, text: str) -> tuple[FileReport, str]:
        analyzer = self.analyzer_for(path)
        if path != "-" and not is_notebook(path):
            analyzer.set_imported(self.workspace.imports_for(Path(path), text))
        if is_notebook(path):
            return check_notebook(
                analyzer, path, text, fix=self.fix, unsafe=self.unsafe, diff=self.diff
            )
        report = FileReport(path)
        fixed_text = text
        if self.fix or self.diff:
            outcome = fix_source(analyzer, text, unsafe=self.unsafe)
            fixed_text = outcome.source
            report.fixed = outcome.applied
            if self.diff and fixed_text != text:
                report.diff = "".join(
                    difflib.unified_diff(
                        text.splitlines(keepends=True),
                        fixed_text.splitlines(keepends=True),
                        fromfile=f"a/{path}",
                        tofile=f"b/{path}",
                    )
                )
        result = analyzer.analyze(fixed_text)
        if result.skipped:
            report.notice = result.skipped
        report.diagnostics = result.diagnostics
        return report, fixed_text

    def check_file(self, path: str) -> tuple[FileReport, str | None]:
        """The file's report, and the digest of its bytes when the report's findings are those
        of the file as it is on disk (not when fixes changed it, nor when it was unreadable)."""
        self._checked += 1
        if self._checked % _COLLECT_EVERY == 0:
            gc.collect()
        try:
            data = read_bytes(path)
            source = decode(data)
        except SourceError as exc:
            return FileReport(path, error=str(exc)), None
        report, fixed_text = self.check_text(path, source.text)
        if report.error:
            return report, None
        if fixed_text != source.text:
            if self.fix and not self.diff:
                try:
                    write_source(path, source, fixed_text)
                except OSError as exc:
                    report.error = f"cannot write fixes: {exc.strerror or exc}"
                    report.fixed = 0
            return report, None
        return report, content_digest(data)


_worker: _Checker | None = None


def _init_worker(settings: Settings, fix: bool, unsafe: bool, diff: bool) -> None:
    global _worker
    _worker = _Checker(settings, fix, unsafe, diff)


def _check_in_worker(path: str) -> tuple[FileReport, str | None]:
    assert _worker is not None
    return _worker.check_file(path)


class _Rules:
    """The rule set of each path, resolved once when no per-file ignores make them differ."""

    def __init__(self, settings: Settings, catalog: Catalog) -> None:
        self.settings = settings
        self.catalog = catalog
        self._shared = None if settings.per_file_ignores else settings.lint_config(catalog)

    def __call__(self, path: str) -> LintConfig:
        if self._shared is not None:
            return self._shared
        return self.settings.lint_config(self.catalog, path)


def check_paths(
    paths: Sequence[str],
    settings: Settings,
    *,
    fix: bool,
    unsafe: bool,
    diff: bool,
    jobs: int,
    cache: CheckCache | None = None,
) -> list[FileReport]:
    """Check files and directories; with a cache, unchanged files are not analysed again.

    Fixing always analyses (the cache holds findings, not fixed texts); what it finds in files
    it left unchanged is cached for the next run.
    """
    files: list[str] = []
    reports: dict[str, FileReport] = {}
    for path, error in discover(paths):
        if error:
            reports[path] = FileReport(path, error=error)
        elif path not in reports:
            files.append(path)
    done: dict[str, FileReport] = {}
    rules = _Rules(settings, load_catalog()) if cache is not None else None
    if cache is not None and rules is not None and not (fix or diff):
        for path in files:
            try:
                data = read_bytes(path)
            except SourceError:
                continue  # analysed below, where the error is reported
            hit = cache.get(cache.entry_key(path, content_digest(data), rules(path)), path)
            if hit is not None:
                done[path] = hit
    todo = [path for path in files if path not in done]
    for report, digest in _analyse(todo, settings, fix=fix, unsafe=unsafe, diff=diff, jobs=jobs):
        done[report.path] = report
        if cache is not None and rules is not None and digest is not None:
            cache.put(cache.entry_key(report.path, digest, rules(report.path)), report)
    # Discovery order: arguments as given, directories sorted.
    for path in files:
        reports[path] = done[path]
    return list(reports.values())


def _analyse(
    files: list[str], settings: Settings, *, fix: bool, unsafe: bool, diff: bool, jobs: int
) -> Iterator[tuple[FileReport, str | None]]:
    jobs = jobs if jobs > 0 else (os.cpu_count() or 1)
    if jobs > 1 and len(files) >= _PARALLEL_THRESHOLD:
        # Imported here: a warm cached run starts no worker and should not pay for the import.
        from concurrent.futures import ProcessPoolExecutor

        # Once here rather than in every worker: forked workers inherit the detectors.
        with generated_code("analysis"):
            all_detectors()

        with ProcessPoolExecutor(
            max_workers=min(jobs, len(files)),
            initializer=_init_worker,
            initargs=(settings, fix, unsafe, diff),
        ) as pool:
            yield from pool.map(_check_in_worker, files, chunksize=max(1, len(files) // (jobs * 4)))
    elif files:
        checker = _Checker(settings, fix, unsafe, diff)
        for path in files:
            yield checker.check_file(path)


def run(args: argparse.Namespace) -> int:
    catalog = load_catalog()
    stdin_mode = args.paths == ["-"]
    start = (
        Path(args.stdin_filename or ".")
        if stdin_mode
        else Path(args.paths[0] if args.paths else ".")
    )
    try:
        settings = settings_from_args(args, start.resolve())
    except SettingsError as exc:
        print(f"tflsp: error: {exc}", file=sys.stderr)
        return 2
    if settings.unknown:
        print(
            f"tflsp: warning: unknown [tool.tflsp] keys: {', '.join(settings.unknown)}",
            file=sys.stderr,
        )
    lang = settings.resolved_lang()
    if stdin_mode:
        try:
            text = decode(sys.stdin.buffer.read()).text
        except SourceError as exc:
            print(f"-: error: {exc}", file=sys.stderr)
            return 2
        name = args.stdin_filename or "-"
        checker = _Checker(settings, args.fix, args.unsafe_fixes, args.diff)
        report, fixed_text = checker.check_text(name, text)
        reports = [report]
        if args.fix and not args.diff:
            # With stdin, --fix prints the fixed source (as ruff does) instead of writing a file.
            sys.stdout.write(fixed_text)
            return 1 if report.diagnostics and not args.exit_zero else 0
    else:
        cache = None
        if not args.no_cache:
            directory = resolve_directory(
                args.cache_dir, settings.cache_dir, settings.root, start.resolve()
            )
            cache = CheckCache(directory)
        try:
            reports = check_paths(
                args.paths,
                settings,
                fix=args.fix,
                unsafe=args.unsafe_fixes,
                diff=args.diff,
                jobs=args.jobs,
                cache=cache,
            )
        except SettingsError as exc:
            print(f"tflsp: error: {exc}", file=sys.stderr)
            return 2
        problem = cache.save() if cache is not None else None
        if problem:
            print(f"tflsp: warning: {problem}", file=sys.stderr)

    for report in reports:
        if report.error:
            print(f"{report.path}: error: {report.error}", file=sys.stderr)
        elif report.notice:
            print(f"{report.path}: skipped: {report.notice}", file=sys.stderr)

    if args.diff:
        sys.stdout.write("".join(r.diff for r in reports))
    elif args.format == "json":
        sys.stdout.write(render_json(catalog, reports, lang, settings.docs_base_url))
    elif args.format == "sarif":
        sys.stdout.write(render_sarif(catalog, reports, lang, settings.docs_base_url))
    else:
        sys.stdout.write(render_text(catalog, reports, lang))
        if not args.quiet:
            print(summary_line(reports, lang, args.fix))

    if any(r.error for r in reports):
        return 2
    if args.diff:
        return 1 if any(r.diff for r in reports) and not args.exit_zero else 0
    found = any(r.diagnostics for r in reports)
    return 1 if found and not args.exit_zero else 0
