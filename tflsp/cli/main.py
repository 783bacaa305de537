"""Entry point of the ``tflsp`` command."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tflsp import __version__

# Each module registers its own subcommand; heavy imports stay inside the handlers.
_SUBCOMMANDS = (
    "tflsp.cli.check",
    "tflsp.cli.rules",
    "tflsp.cli.serve",
    "tflsp.cli.verify",
    "tflsp.cli.docs",
)


def _version() -> str:
    from tflsp.catalog import load_catalog

    return f"tflsp {__version__} (catalog: {len(load_catalog())} patterns)"


class _VersionAction(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        print(_version())
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tflsp",
        description="Find, explain and verify TensorFlow/Keras pitfalls.",
    )
    parser.add_argument(
        "--version", action=_VersionAction, nargs=0, help="print the version and exit"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _SUBCOMMANDS:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue  # a face that has not landed yet
        module.register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # Output piped into `head`: not an error worth a traceback.
        return 0
