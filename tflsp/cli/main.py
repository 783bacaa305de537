"""Entry point of the ``tflsp`` command."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from tflsp import __version__
from tflsp.codecache import generated_code

# Each module registers its own subcommand(s).  Only the module of the command being run is
# imported: `tflsp serve` must not pay for the analyzer before it answers `initialize`.
_SUBCOMMANDS = {
    "check": "tflsp.cli.check",
    "rule": "tflsp.cli.rules",
    "rules": "tflsp.cli.rules",
    "serve": "tflsp.cli.serve",
    "verify": "tflsp.cli.verify",
    "docs": "tflsp.cli.docs",
}


def _version() -> str:
    from tflsp.catalog import load_catalog

    return f"tflsp {__version__} (catalog: {len(load_catalog())} patterns)"


class _VersionAction(argparse.Action):
    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        print(_version())
        parser.exit()


def _command_in(argv: Sequence[str]) -> str | None:
    """The subcommand named in ``argv`` (the first argument that is not an option)."""
    for arg in argv:
        if not arg.startswith("-"):
            return arg if arg in _SUBCOMMANDS else None
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``command``, only that subcommand's module is imported."""
    parser = argparse.ArgumentParser(
        prog="tflsp",
        description="Find, explain and verify TensorFlow/Keras pitfalls.",
    )
    parser.add_argument(
        "--version", action=_VersionAction, nargs=0, help="print the version and exit"
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = [_SUBCOMMANDS[command]] if command else list(dict.fromkeys(_SUBCOMMANDS.values()))
    # `check` imports the analyzer here; `serve` imports nothing heavy yet (its own scopes).
    with generated_code("analysis"):
        for name in wanted:
            importlib.import_module(name).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_command_in(arguments))
    args = parser.parse_args(arguments)
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
