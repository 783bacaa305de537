"""Entry point of the verifier worker: ``python -m tflsp.verify.worker --keras 3``.

The worker is the only process that imports TensorFlow.  It talks newline-delimited JSON-RPC
(:mod:`tflsp.verify.protocol`) over its original stdin/stdout, which it keeps as private
duplicates before anything else runs:

- fd 1 is pointed at stderr, so ``print`` in user code, ``tf.print`` and C++ logging can never
  corrupt the protocol stream;
- fd 0 is pointed at ``/dev/null``, so ``input()`` in user code cannot swallow requests;
- the address space is limited (RLIMIT_AS) before TensorFlow reserves any of it;
- ``TF_USE_LEGACY_KERAS`` is settled before ``import tensorflow`` (Keras 2 needs it set first).

TensorFlow itself is imported by the ``initialize`` request, so a client learns exactly when
the worker becomes ready and how long the import took.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
from typing import BinaryIO


def isolate_stdio() -> tuple[BinaryIO, BinaryIO]:
    """Keep private copies of fd 0/1 for the protocol; point fd 1 at stderr, fd 0 at null."""
    protocol_out = os.dup(1)
    protocol_in = os.dup(0)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    # os.dup() makes non-inheritable descriptors, so child processes never see the protocol.
    return os.fdopen(protocol_in, "rb", buffering=0), os.fdopen(protocol_out, "wb", buffering=0)


def apply_memory_limit(limit: int) -> None:
    if limit <= 0:
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tflsp.verify.worker")
    parser.add_argument("--keras", choices=["3", "2"], default="3")
    parser.add_argument("--memory-limit", type=int, default=0, help="RLIMIT_AS in bytes; 0: none")
    args = parser.parse_args(argv)

    reader, writer = isolate_stdio()
    apply_memory_limit(args.memory_limit)
    if args.keras == "2":
        os.environ["TF_USE_LEGACY_KERAS"] = "1"
    else:
        os.environ.pop("TF_USE_LEGACY_KERAS", None)

    from tflsp.verify.agent.server import Agent

    agent = Agent(reader, writer, keras=args.keras, memory_limit=args.memory_limit)
    return agent.serve()


if __name__ == "__main__":
    sys.exit(main())
