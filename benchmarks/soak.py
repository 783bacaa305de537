"""Memory while typing: does ``tflsp serve`` stay bounded over a long editing session?

A raw JSON-RPC client opens a real file over stdio, types keystrokes inside its largest
top-level block (a 400-line class of the TensorFlow examples: every keystroke re-analyses that
block), waits for the diagnostics of every version, and prints the server's resident memory
(RSS) at the start, every ``--every`` keystrokes, after ``didClose``, and after a second
open/type/close cycle under another URI.  A bounded server grows by at most a few tens of
megabytes while typing and comes back near its start after ``didClose``.

The file is ``../shared/corpus/.../efficientdet/model_inspect.py`` when ``../shared`` exists
(the one the language-server audit measured); otherwise a generated module with one 400-line
method is used, and the script says so.  Linux only (RSS comes from ``/proc``).

Usage: ``python benchmarks/soak.py [--keys 5000] [--every 500] [--cycles 2] [--file F --line N]``
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from bytecode import ensure_bytecode  # noqa: E402
from lsp_latency import Client  # noqa: E402

SHARED = ROOT.parent / "shared"
CORPUS_FILE = (
    "corpus/tensorflow+examples/tensorflow_examples/lite/model_maker/third_party/"
    "efficientdet/model_inspect.py"
)
CORPUS_LINE = 100  # 0-based; inside ModelInspector.__init__, the 407-line class
# Statements typed one character at a time, an Enter after each (with the line's indent).
STATEMENTS = (
    "scaled_{k} = tf.reduce_mean(self.params['image_size']) * {k}",
    "print('step', {k}, scaled_{k})",
    "values_{k} = [x * 2 for x in range({k})]",
    "self.cache_{k} = tf.constant(values_{k}, dtype=tf.float32)",
)


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB (Linux ``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def generated_module(body_lines: int = 400) -> str:
    """A module whose second block is a class with one method of ``body_lines`` lines."""
    head = [
        "import tensorflow as tf",
        "",
        "",
        "class Inspector:",
        "    def __init__(self, params):",
    ]
    body = []
    for i in range(body_lines):
        kind = i % 4
        if kind == 0:
            body.append(f"        self.value_{i} = params.get('value_{i}', {i})")
        elif kind == 1:
            body.append(f"        weights_{i} = tf.ones([{i % 7 + 1}, 3]) * self.value_{i - 1}")
        elif kind == 2:
            body.append(f"        if self.value_{i - 2} > {i}:")
        else:
            body.append(f"            self.total_{i} = tf.reduce_sum(weights_{i - 2})")
    tail = ["", "", "def main():", "    return Inspector({}).value_0", ""]
    return "\n".join(head + body + tail)


def source_file(path: str | None, line: int | None) -> tuple[str, str, int]:
    """(description, text, 0-based line to type below)."""
    if path is not None:
        return path, Path(path).read_text(encoding="utf-8"), line if line is not None else 0
    corpus = SHARED / CORPUS_FILE
    if corpus.is_file():
        return str(corpus), corpus.read_text(encoding="utf-8"), CORPUS_LINE
    print(
        f"note: {corpus} is absent (no ../shared next to this checkout); "
        "typing into a generated module with a 400-line method instead",
        flush=True,
    )
    return "generated module (400-line method)", generated_module(), 6


def keystrokes(count: int, indent: str) -> Iterator[str]:
    """``count`` edits as typed: characters of the statements, then Enter plus indent."""
    typed = 0
    k = 0
    while True:
        for char in STATEMENTS[k % len(STATEMENTS)].format(k=k):
            if typed == count:
                return
            yield char
            typed += 1
        if typed == count:
            return
        yield "\n" + indent
        typed += 1
        k += 1


class Session:
    """One server process driven by :class:`lsp_latency.Client`."""

    def __init__(self, server_root: str | None = None) -> None:
        ensure_bytecode()
        command = [sys.executable, "-m", "tflsp", "serve"]
        if server_root is not None:  # another checkout's tflsp (e.g. an older commit)
            boot = (
                f"import runpy, sys; sys.path.insert(0, {server_root!r}); "
                "runpy.run_module('tflsp', run_name='__main__')"
            )
            command = [sys.executable, "-c", boot, "serve"]
        self.client = Client(command)
        self.client.initialize()
        self.pid = self.client.process.pid

    def rss(self) -> float:
        return rss_mb(self.pid)

    def open(self, uri: str, text: str) -> None:
        self.client.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}},
        )
        self.client.diagnostics(uri, 1)

    def type(
        self,
        uri: str,
        text: str,
        below: int,
        count: int,
        every: int = 0,
        report: Callable[[int, float], None] | None = None,
    ) -> float:
        """Open a new line below ``below`` and type ``count`` keystrokes there, waiting for the
        diagnostics of each version.  Returns the mean milliseconds per keystroke."""
        lines = text.split("\n")
        anchor = lines[below]
        indent = anchor[: len(anchor) - len(anchor.lstrip())]
        version = 1
        line, column = below, len(anchor)
        began = time.perf_counter()
        for done, typed in enumerate([f"\n{indent}", *keystrokes(count, indent)]):
            version += 1
            position = {"line": line, "character": column}
            self.client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [
                        {"range": {"start": position, "end": position}, "text": typed}
                    ],
                },
            )
            self.client.diagnostics(uri, version)
            if typed.startswith("\n"):
                line, column = line + 1, len(indent)
            else:
                column += len(typed)
            if report is not None and every and done and done % every == 0:
                report(done, self.rss())
        return (time.perf_counter() - began) * 1000 / max(1, count)

    def close(self, uri: str, settle: float = 2.0) -> None:
        self.client.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        # The server collects garbage when idle; give it time to do so.
        time.sleep(settle)

    def stop(self) -> None:
        self.client.close()


def soak(
    text: str,
    below: int,
    keys: int,
    every: int,
    cycles: int,
    echo: bool = True,
    server_root: str | None = None,
) -> dict[str, Any]:
    """Open / type ``keys`` keystrokes / close, ``cycles`` times; RSS figures in MB."""
    session = Session(server_root)
    rows: dict[str, Any] = {"keys": keys, "cycles": []}

    def say(message: str) -> None:
        if echo:
            print(message, flush=True)

    try:
        rows["initialized"] = round(session.rss(), 1)
        for cycle in range(cycles):
            uri = (ROOT / f"soak_{cycle}.py").as_uri()
            session.open(uri, text)
            start = session.rss()
            say(f"cycle {cycle + 1}: opened, RSS {start:.1f} MB")
            samples: list[tuple[int, float]] = []

            def report(
                done: int,
                rss: float,
                samples: list[tuple[int, float]] = samples,
                start: float = start,
            ) -> None:
                samples.append((done, rss))
                say(f"  {done:5d} keys  RSS {rss:7.1f} MB  ({rss - start:+.1f})")

            per_key = session.type(uri, text, below, keys, every, report)
            typed = session.rss()
            session.close(uri)
            closed = session.rss()
            say(
                f"  typed {keys} keys ({per_key:.1f} ms/key): RSS {typed:.1f} MB "
                f"({typed - start:+.1f}); after didClose {closed:.1f} MB ({closed - start:+.1f})"
            )
            rows["cycles"].append(
                {
                    "opened": round(start, 1),
                    "samples": [(n, round(r, 1)) for n, r in samples],
                    "typed": round(typed, 1),
                    "closed": round(closed, 1),
                    "peak_growth": round(max([typed, *(r for _, r in samples)]) - start, 1),
                    "ms_per_key": round(per_key, 2),
                }
            )
    finally:
        session.stop()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=5000)
    parser.add_argument("--every", type=int, default=500, help="print RSS every N keystrokes")
    parser.add_argument("--cycles", type=int, default=2, help="open/type/close cycles")
    parser.add_argument("--file", help="type into this file instead")
    parser.add_argument("--line", type=int, help="0-based line to type below (with --file)")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument(
        "--server-root", help="run the tflsp of this checkout (e.g. an older commit) instead"
    )
    args = parser.parse_args()
    what, text, below = source_file(args.file, args.line)
    print(f"{what}: typing below line {below + 1}: {text.split(chr(10))[below].strip()!r}")
    rows = soak(text, below, args.keys, args.every, args.cycles, server_root=args.server_root)
    first = rows["cycles"][0]
    last = rows["cycles"][-1]
    print(
        f"summary: start {first['opened']} MB, peak growth while typing "
        f"{max(c['peak_growth'] for c in rows['cycles'])} MB, after the last didClose "
        f"{last['closed']} MB ({last['closed'] - first['opened']:+.1f} from the first start)"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
