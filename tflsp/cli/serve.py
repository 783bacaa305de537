"""``tflsp serve``: run the language server (stdio by default, or TCP)."""

from __future__ import annotations

import argparse
import logging
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the language server",
        description="Run the tflsp language server. It speaks LSP on stdin/stdout unless --tcp "
        "is given; TensorFlow is never imported.",
    )
    parser.add_argument(
        "--stdio", action="store_true", help="use stdin/stdout (the default; editors pass it)"
    )
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP port instead")
    parser.add_argument(
        "--log-level",
        default="WARNING",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="log level (logs go to stderr or --log-file)",
    )
    parser.add_argument("--log-file", help="write logs to this file instead of stderr")
    parser.set_defaults(handler=run)


def _address(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        raise SystemExit(f"tflsp serve: --tcp expects HOST:PORT, got {value!r}")
    return host or "127.0.0.1", int(port)


def run(args: argparse.Namespace) -> int:
    handler: logging.Handler = (
        logging.FileHandler(args.log_file) if args.log_file else logging.StreamHandler(sys.stderr)
    )
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logging.basicConfig(level=getattr(logging, args.log_level), handlers=[handler])
    from tflsp.server import serve_stdio, serve_tcp

    if args.tcp:
        host, port = _address(args.tcp)

        def listening(bound: int) -> None:
            print(f"tflsp: listening on {host}:{bound}", file=sys.stderr, flush=True)

        return serve_tcp(host, port, on_listening=listening)
    return serve_stdio()
