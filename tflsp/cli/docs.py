"""``tflsp docs [CODE]``: open a pattern's page in the locally built documentation."""

from __future__ import annotations

import argparse
import sys
import webbrowser
from pathlib import Path

from tflsp.catalog import CatalogError, load_catalog
from tflsp.cli import links
from tflsp.cli.links import local_site, site_candidates
from tflsp.settings import Settings, SettingsError

BUILD_COMMANDS = (
    'pip install -e ".[docs]"',
    "sphinx-build -b html docs docs/_build/html",
    "sphinx-build -b html docs/ja docs/_build/html/ja",
)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "docs",
        help="open a pattern's documentation page",
        description="Open the documentation page of a pattern (or the start page) in a browser. "
        "Exit status: 0 opened, 1 the local build is missing, 2 unknown pattern.",
    )
    parser.add_argument("code", nargs="?", help="a code (TFL101) or a name (print-in-graph)")
    parser.add_argument("--lang", choices=["en", "ja"], help="default: from the locale")
    parser.add_argument(
        "--online", action="store_true", help="open the page under the docs-base-url setting"
    )
    parser.add_argument(
        "--print",
        dest="print_only",
        action="store_true",
        help="print the location instead of starting a browser",
    )
    parser.add_argument(
        "--build-dir",
        type=Path,
        help="the built HTML site (default: $TFLSP_DOCS_DIR, else docs/_build/html of this "
        "checkout once built, else the copy installed with tflsp)",
    )
    parser.set_defaults(handler=run)


def default_build_dir() -> Path:
    """The site diagnostics link to (see :mod:`tflsp.cli.links`): ``$TFLSP_DOCS_DIR``, a built
    ``docs/_build/html`` of this checkout, or the site installed with the wheel; when none is
    built, the checkout's ``docs/_build/html`` (the error message says how to build it)."""
    return local_site() or site_candidates()[0]


def page_path(code: str | None, lang: str) -> str | None:
    """The page's path relative to the site root; ``None`` for an unknown pattern."""
    return links.page_path(load_catalog(), code, lang)


def run(args: argparse.Namespace) -> int:
    try:
        settings = Settings.discover(Path.cwd())
    except SettingsError as exc:
        print(f"tflsp: warning: {exc}", file=sys.stderr)
        settings = Settings()
    lang = args.lang or settings.resolved_lang()
    try:
        relative = page_path(args.code, lang)
    except CatalogError as exc:
        print(f"tflsp: error: {exc}", file=sys.stderr)
        return 2
    if relative is None:
        print(f"tflsp: error: no pattern {args.code!r}; see 'tflsp rules'", file=sys.stderr)
        return 2
    if args.online:
        if not settings.docs_base_url:
            print(
                "tflsp: error: no site is published yet; set docs-base-url to read the "
                "documentation online",
                file=sys.stderr,
            )
            return 2
        return _show(settings.docs_base_url + relative, args.print_only)
    site = args.build_dir or default_build_dir()
    page = site / relative
    if not page.is_file():
        pattern = load_catalog().get(args.code) if args.code is not None else None
        explanation = pattern.folder / f"explanation.{lang}.md" if pattern is not None else None
        _explain_missing(site, relative, settings.docs_base_url, explanation)
        return 1
    return _show(page.resolve().as_uri(), args.print_only)


def _show(location: str, print_only: bool) -> int:
    print(location)
    if not print_only and not webbrowser.open(location):
        print("tflsp: no browser found; open the address above yourself", file=sys.stderr)
    return 0


def _explain_missing(site: Path, relative: str, base_url: str, explanation: Path | None) -> None:
    lines = [
        f"tflsp: the documentation is not built at {site} (missing {relative}).",
        "Build it from a source checkout:",
        *(f"    {command}" for command in BUILD_COMMANDS),
        "or pass --build-dir (or set TFLSP_DOCS_DIR) if it is built elsewhere.",
    ]
    if base_url:
        lines.append(f"Or read it online with --online ({base_url + relative}).")
    if explanation is not None and explanation.is_file():
        lines.append(f"The explanation is also in {explanation}.")
    print("\n".join(lines), file=sys.stderr)
