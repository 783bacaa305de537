"""How fast does ``tflsp serve`` answer?  A raw JSON-RPC client times it against references.

Servers, all driven by the same client over stdio:

- ``tflsp``: ``python -m tflsp serve``;
- ``bare``: a pygls server that does nothing (publishes empty diagnostics): the floor;
- ``naive``: a pygls server that re-parses the whole file with ``ast.parse`` on every change;
- ``ruff``: ``ruff server`` (Rust), the bar set by the issue.

Measured on generated 1,000- and 5,000-line modules (``benchmarks/generate.py``):

- cold start: process spawn -> ``initialize`` result;
- ``didOpen`` -> diagnostics, right after ``initialized`` (so it includes loading the catalog
  and the detectors), and for a second file once the process is warm;
- typing two statements character by character inside functions in the middle of the module
  (every intermediate state, most of which do not parse) -> diagnostics for that version;
- hover request -> answer.

It also replays the same keystrokes through the analyzer in-process and counts how many
changed module-wide facts (the summary fingerprint), which makes every block re-run its
detectors.  Not a test: it prints medians and p95s.  The machine may be shared; rerun before
trusting a number.

Usage: ``python benchmarks/lsp_latency.py [--lines 1000 5000] [--servers tflsp,bare,naive,ruff]``
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from bytecode import ensure_bytecode  # noqa: E402
from generate import generate  # noqa: E402

# Typed into the middle of the module: a plain assignment from a TF call inside a helper, then
# a print() inside a tf.function (which makes a TFL101 diagnostic appear).
STATEMENTS = (
    ("def summarize_", "    scaled = tf.reduce_sum(tf.constant(values)) * 2.0"),
    ("def train_step_", '    print("loss", loss, grads)'),
)


# -- the reference servers ------------------------------------------------------------------------
def serve_reference(naive: bool) -> None:
    import ast

    from lsprotocol import types
    from pygls.lsp.server import LanguageServer

    server = LanguageServer("reference", "1")

    def publish(uri: str, version: int | None) -> None:
        diagnostics = []
        if naive:
            source = server.workspace.get_text_document(uri).source
            try:
                ast.parse(source)
            except SyntaxError as exc:
                line = max(0, (exc.lineno or 1) - 1)
                position = types.Position(line=line, character=0)
                diagnostics.append(
                    types.Diagnostic(
                        range=types.Range(start=position, end=position), message=str(exc.msg)
                    )
                )
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)
        )

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: types.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(params: types.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri, params.text_document.version)

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(params: types.HoverParams) -> None:
        return None

    server.start_io()


def server_command(name: str) -> list[str] | None:
    if name == "tflsp":
        return [sys.executable, "-m", "tflsp", "serve"]
    if name in ("bare", "naive"):
        return [sys.executable, str(Path(__file__).resolve()), f"--serve-{name}"]
    if name == "ruff":
        ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
        return [ruff, "server"] if Path(ruff).exists() else None
    raise ValueError(name)


# -- a raw JSON-RPC client ------------------------------------------------------------------------
class Client:
    def __init__(self, command: list[str], stderr: Any = subprocess.DEVNULL) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=str(ROOT),
        )
        self.buffer = b""
        self.next_id = 0
        self.pending: list[dict[str, Any]] = []

    def send(self, payload: dict[str, Any]) -> None:
        body = json.dumps(payload).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: Any) -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.next_id

    def read(self, timeout: float = 60) -> dict[str, Any]:
        assert self.process.stdout is not None
        deadline = time.perf_counter() + timeout
        while True:
            end = self.buffer.find(b"\r\n\r\n")
            if end >= 0:
                length = next(
                    int(line.split(b":")[1])
                    for line in self.buffer[:end].split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                if len(self.buffer) >= end + 4 + length:
                    body = self.buffer[end + 4 : end + 4 + length]
                    self.buffer = self.buffer[end + 4 + length :]
                    message = json.loads(body)
                    if "method" in message and "id" in message:  # a server->client request
                        self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
                    return message  # type: ignore[no-any-return]
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                raise TimeoutError("the server did not answer in time")
            ready, _, _ = select.select([self.process.stdout], [], [], remaining)
            if ready:
                chunk = os.read(self.process.stdout.fileno(), 1 << 20)
                if not chunk:
                    raise EOFError("the server closed its output")
                self.buffer += chunk

    def wait(self, predicate: Any) -> dict[str, Any]:
        for message in self.pending:
            if predicate(message):
                self.pending.remove(message)
                return message
        while True:
            message = self.read()
            if predicate(message):
                return message
            self.pending.append(message)

    def response(self, msg_id: int) -> dict[str, Any]:
        return self.wait(lambda m: m.get("id") == msg_id and "method" not in m)

    def diagnostics(self, uri: str, version: int) -> dict[str, Any]:
        def match(message: dict[str, Any]) -> bool:
            params = message.get("params") or {}
            return (
                message.get("method") == "textDocument/publishDiagnostics"
                and params.get("uri") == uri
                and params.get("version") == version
            )

        return self.wait(match)

    def initialize(self) -> float:
        msg_id = self.request(
            "initialize",
            {"processId": os.getpid(), "rootUri": None, "capabilities": {}, "locale": "en"},
        )
        self.response(msg_id)
        elapsed = time.perf_counter() - self.started
        self.notify("initialized", {})
        return elapsed

    def close(self) -> None:
        try:
            self.response(self.request("shutdown", None))
            self.notify("exit", None)
            self.process.wait(timeout=10)
        except (TimeoutError, EOFError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self.pending.clear()


# -- scenario ------------------------------------------------------------------------------------
def keystrokes(source: str) -> list[tuple[int, int, str]]:
    """(line, column, text) edits typing each statement into a function mid-module.

    The first edit of a statement inserts a new line after the function's first body line;
    each following edit adds one character to that line.
    """
    lines = source.split("\n")
    edits: list[tuple[int, int, str]] = []
    # Each statement typed before adds one line above the next insertion point.
    for inserted, (prefix, statement) in enumerate(STATEMENTS):
        candidates = [i for i, text in enumerate(lines) if text.startswith(prefix)]
        index = candidates[len(candidates) // 2] + 1 + inserted
        edits.append((index + 1, 0, "\n"))  # an empty new line after the body's first line
        edits.extend((index + 1, col, ch) for col, ch in enumerate(statement))
    return edits


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def hover_positions(source: str, count: int) -> list[tuple[int, int]]:
    lines = source.split("\n")
    spots = []
    for i, text in enumerate(lines):
        for word in ("print(", "@tf.function", "add_weight", ".shuffle("):
            col = text.find(word)
            if col >= 0:
                spots.append((i, col + 2))
    step = max(1, len(spots) // count)
    return spots[::step][:count]


def run_session(name: str, source: str, path: Path, pause: float) -> dict[str, Any]:
    command = server_command(name)
    assert command is not None
    client = Client(command)
    out: dict[str, Any] = {"start": client.initialize()}
    uri = path.as_uri()
    began = time.perf_counter()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": source}},
    )
    opened = client.diagnostics(uri, 1)
    out["open"] = time.perf_counter() - began
    out["open_count"] = len(opened["params"]["diagnostics"])
    time.sleep(0.5)

    edit_times = []
    version = 1
    for line, column, text in keystrokes(source):
        version += 1
        position = {"line": line, "character": column}
        began = time.perf_counter()
        client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": position, "end": position}, "text": text}],
            },
        )
        client.diagnostics(uri, version)
        edit_times.append(time.perf_counter() - began)
        time.sleep(pause)
    out["edits"] = edit_times

    hover_times = []
    for line, column in hover_positions(source, 60):
        began = time.perf_counter()
        msg_id = client.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": line, "character": column}},
        )
        client.response(msg_id)
        hover_times.append(time.perf_counter() - began)
    out["hover"] = hover_times

    # A second file with the same text: the process is warm (catalog, detectors loaded), the
    # document's analyzer is not.
    second = path.with_name("second_" + path.name).as_uri()
    began = time.perf_counter()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": second, "languageId": "python", "version": 1, "text": source}},
    )
    client.diagnostics(second, 1)
    out["reopen"] = time.perf_counter() - began
    client.close()
    return out


def cold_starts(name: str, repeat: int) -> list[float]:
    command = server_command(name)
    assert command is not None
    times = []
    for _ in range(repeat):
        client = Client(command)
        times.append(client.initialize())
        client.close()
    return times


def replay_in_process(source: str) -> dict[str, float]:
    """The same keystrokes through one Analyzer: time and module-wide (fingerprint) changes."""
    sys.path.insert(0, str(ROOT))
    from tflsp.analysis.engine import Analyzer
    from tflsp.catalog import load_catalog
    from tflsp.settings import Settings

    catalog = load_catalog()
    analyzer = Analyzer(Settings().lint_config(catalog), catalog)
    analyzer.analyze(source)
    lines = source.split("\n")
    times, wide = [], 0
    for line, column, text in keystrokes(source):
        if text == "\n":
            lines.insert(line, "")
        else:
            lines[line] = lines[line][:column] + text + lines[line][column:]
        fingerprint = analyzer._summary.fingerprint if analyzer._summary else None
        began = time.perf_counter()
        analyzer.analyze("\n".join(lines))
        times.append(time.perf_counter() - began)
        if analyzer._summary is not None and analyzer._summary.fingerprint != fingerprint:
            wide += 1
    return {
        "keystrokes": len(times),
        "module_wide": wide,
        "median_ms": statistics.median(times) * 1000,
        "p95_ms": pct(times, 0.95) * 1000,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lines", type=int, nargs="+", default=[1000, 5000])
    parser.add_argument("--servers", default="tflsp,bare,naive,ruff")
    parser.add_argument("--starts", type=int, default=5, help="cold starts per server")
    parser.add_argument("--pause-ms", type=float, default=40, help="pause between keystrokes")
    parser.add_argument("--json", help="also write the raw numbers to this file")
    parser.add_argument("--serve-bare", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--serve-naive", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    ensure_bytecode()
    if args.serve_bare or args.serve_naive:
        serve_reference(naive=args.serve_naive)
        return

    servers = [s for s in args.servers.split(",") if server_command(s) is not None]
    print(f"servers: {', '.join(servers)}; cpu count {os.cpu_count()}; load {os.getloadavg()}")
    raw: dict[str, Any] = {"servers": {}, "replay": {}}
    starts = {name: cold_starts(name, args.starts) for name in servers}
    print(f"\n{'cold start -> initialize result':<40}{'median':>10}{'p95':>10}")
    for name in servers:
        print(
            f"  {name:<38}{statistics.median(starts[name]) * 1000:>8.0f}ms"
            f"{pct(starts[name], 0.95) * 1000:>8.0f}ms"
        )
    if "tflsp" in starts and "bare" in starts:
        ratio = statistics.median(starts["tflsp"]) / statistics.median(starts["bare"])
        print(f"  ratio tflsp / bare pygls: {ratio:.2f}x (target <= 1.2x)")

    with tempfile.TemporaryDirectory() as tmp:
        for size in args.lines:
            source = generate(size)
            path = Path(tmp) / f"module_{size}.py"
            path.write_text(source, encoding="utf-8")
            print(
                f"\n== {source.count(chr(10))}-line module ({len(keystrokes(source))} keystrokes)"
            )
            print(
                f"{'':<12}{'open':>10}{'2nd open':>10}{'edit p50':>11}{'edit p95':>11}"
                f"{'edit max':>11}{'hover p50':>11}{'hover p95':>11}"
            )
            for name in servers:
                result = run_session(name, source, path, args.pause_ms / 1000)
                raw["servers"].setdefault(name, {})[size] = {**result, "starts": starts[name]}
                edits, hovers = result["edits"], result["hover"]
                print(
                    f"  {name:<10}{result['open'] * 1000:>8.1f}ms{result['reopen'] * 1000:>8.1f}ms"
                    f"{statistics.median(edits) * 1000:>9.1f}ms{pct(edits, 0.95) * 1000:>9.1f}ms"
                    f"{max(edits) * 1000:>9.1f}ms"
                    f"{statistics.median(hovers) * 1000:>9.2f}ms{pct(hovers, 0.95) * 1000:>9.2f}ms"
                )
            replay = replay_in_process(source)
            raw["replay"][size] = replay
            print(
                f"  analyzer alone, same keystrokes: median {replay['median_ms']:.2f}ms, "
                f"p95 {replay['p95_ms']:.2f}ms; {replay['module_wide']:.0f} of "
                f"{replay['keystrokes']:.0f} changed module-wide facts"
            )
    print("\ntargets (5,000 lines): edit p95 <= 15 ms, open <= 150 ms, hover p95 <= 5 ms")
    if args.json:
        Path(args.json).write_text(json.dumps(raw, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
