"""How fast does ``tflsp serve`` answer?  A raw JSON-RPC client times it against references.

Servers, all driven by the same client over stdio:

- ``tflsp``: ``python -m tflsp serve``;
- ``bare``: a pygls server that does nothing (publishes empty diagnostics): the floor;
- ``naive``: a pygls server that re-parses the whole file with ``ast.parse`` on every change;
- ``ruff``: ``ruff server`` (Rust), the bar set by the issue.

Measured on real code -- 5,000- and 20,000-line modules made of the top-level statements of
files from ``../shared/corpus`` (``benchmarks/realcode.py``; skipped with a message when the
corpus is absent) -- and on a generated 5,000-line module (``benchmarks/generate.py``):

- cold start: process spawn -> ``initialize`` result;
- ``didOpen`` -> diagnostics, right after ``initialized`` (so it includes loading the catalog
  and the detectors), and for a second file once the process is warm; as a ratio to
  ``ast.parse`` of the same text in this process;
- typing a statement character by character (incremental sync, every intermediate state, most
  of which do not parse, waiting for each version's diagnostics) at three places: inside the
  longest function, inside a class method, and as a new statement at module level;
- hover request -> answer, on API names in calls and on flagged words.

It also replays the same keystrokes through the analyzer in-process and counts how many
changed module-wide facts (the summary fingerprint), which makes every block re-run its
detectors.  Not a test: it prints medians and p95s.  The machine may be shared; rerun before
trusting a number, and compare servers within one run.

Usage: ``python benchmarks/lsp_latency.py [--real 5000 20000] [--lines 5000]
[--servers tflsp,bare,naive,ruff]``
"""

from __future__ import annotations

import argparse
import ast
import gc
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from bytecode import ensure_bytecode  # noqa: E402
from generate import generate  # noqa: E402


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
    def __init__(
        self,
        command: list[str],
        stderr: Any = subprocess.DEVNULL,
        env: dict[str, str] | None = None,
        cwd: Path = ROOT,
    ) -> None:
        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            cwd=str(cwd),
            env=env,
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
@dataclass(frozen=True)
class Place:
    """Where a statement is typed: a new line inserted after 0-based line ``after``."""

    name: str
    after: int
    indent: str
    statement: str


# What is typed at each place: a realistic statement of about fifty characters.
TYPED = {
    "function": "scaled = tf.reduce_sum(tf.constant(values)) * 2.0",
    "method": "outputs = tf.concat([inputs, self.bias], axis=-1)",
    "module": "train_ds = tf.data.Dataset.range(100).map(lambda x: x * 2).batch(8)",
}


def _middle_statement(body: list[ast.stmt]) -> ast.stmt:
    return body[len(body) // 2]


def _nearest(nodes: list[Any], line: int) -> Any:
    return min(nodes, key=lambda n: abs(n.lineno - line))


def typing_places(source: str) -> list[Place]:
    """Three realistic places to type at, chosen from the module's own structure.

    - ``function``: the longest top-level function (the one nearest the middle of the module
      among equals), after the middle statement of its body;
    - ``method``: the longest method of the class nearest the middle of the module;
    - ``module``: a new top-level statement after the top-level statement nearest the middle.

    Returned bottom-up, so that typing at one place does not move the places still to come.
    """
    tree = ast.parse(source)
    middle = source.count("\n") // 2
    lines = source.split("\n")
    places = []

    def inside(node: ast.stmt) -> Place | None:
        body = getattr(node, "body", [])
        if len(body) < 2:
            return None
        stmt = _middle_statement(body)
        end = stmt.end_lineno or stmt.lineno
        return Place("", end - 1, lines[stmt.lineno - 1][: stmt.col_offset], "")

    functions = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if functions:
        longest = max((n.end_lineno or 0) - n.lineno for n in functions)
        pick = _nearest([n for n in functions if (n.end_lineno or 0) - n.lineno == longest], middle)
        found = inside(pick)
        if found:
            places.append(Place("function", found.after, found.indent, TYPED["function"]))
    classes = [
        n
        for n in tree.body
        if isinstance(n, ast.ClassDef)
        and any(isinstance(m, ast.FunctionDef) and len(m.body) >= 2 for m in n.body)
    ]
    if classes:
        cls = _nearest(classes, middle)
        methods = [m for m in cls.body if isinstance(m, ast.FunctionDef) and len(m.body) >= 2]
        method = max(methods, key=lambda m: (m.end_lineno or 0) - m.lineno)
        found = inside(method)
        if found:
            places.append(Place("method", found.after, found.indent, TYPED["method"]))
    stmt = _nearest(tree.body, middle)
    places.append(Place("module", (stmt.end_lineno or stmt.lineno) - 1, "", TYPED["module"]))
    return sorted(places, key=lambda p: -p.after)


def keystrokes(place: Place) -> list[tuple[int, int, str]]:
    """(line, column, text) edits typing ``place.statement`` on a new line, one character at a
    time.  The first edit opens the indented line, as Enter does in an editor."""
    line = place.after + 1
    edits: list[tuple[int, int, str]] = [(line, 0, place.indent + "\n")]
    column = len(place.indent)
    edits.extend((line, column + i, ch) for i, ch in enumerate(place.statement))
    return edits


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def hover_positions(source: str, count: int) -> list[tuple[int, int]]:
    """Spots spread over the module: API names in calls (``tf.keras.layers.Dense``), and the
    words detectors report on (``print(``, ``@tf.function``...)."""
    lines = source.split("\n")
    spots = []
    for i, text in enumerate(lines):
        for word in ("print(", "@tf.function", "add_weight", ".shuffle("):
            col = text.find(word)
            if col >= 0:
                spots.append((i, col + 2))
    calls = [
        node.func
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
    ]
    calls.sort(key=lambda f: (f.lineno, f.col_offset))
    for func in calls:
        end = func.end_col_offset or 0
        if func.end_lineno == func.lineno and end > 0:
            spots.append((func.lineno - 1, end - 1))  # on the last letter of the method name
    spots.sort()
    step = max(1, len(spots) // count)
    return spots[::step][:count]


def median_parse_ms(source: str, repeat: int = 7, collect: bool = False) -> float:
    """``ast.parse`` of the text; without the cyclic collector unless ``collect`` (the server
    runs without it, and on a 20,000-line tree it triples the time of a parse)."""
    was_enabled = gc.isenabled()
    if not collect:
        gc.disable()
    try:
        times = []
        for _ in range(repeat):
            began = time.perf_counter()
            ast.parse(source)
            times.append(time.perf_counter() - began)
    finally:
        if was_enabled:
            gc.enable()
    return statistics.median(times) * 1000


def run_session(
    name: str, source: str, path: Path, pause: float, places: list[Place]
) -> dict[str, Any]:
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

    version = 1
    out["edits"] = {}
    for place in places:
        edit_times = []
        for line, column, text in keystrokes(place):
            version += 1
            position = {"line": line, "character": column}
            began = time.perf_counter()
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [
                        {"range": {"start": position, "end": position}, "text": text}
                    ],
                },
            )
            client.diagnostics(uri, version)
            edit_times.append(time.perf_counter() - began)
            time.sleep(pause)
        out["edits"][place.name] = edit_times

    hover_times = []
    for line, column in hover_positions(source, 100):
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


def replay_in_process(source: str, places: list[Place]) -> dict[str, dict[str, float]]:
    """The same keystrokes through one Analyzer: time and module-wide (fingerprint) changes."""
    sys.path.insert(0, str(ROOT))
    from tflsp.analysis.engine import Analyzer
    from tflsp.catalog import load_catalog
    from tflsp.settings import Settings

    catalog = load_catalog()
    analyzer = Analyzer(Settings().lint_config(catalog), catalog)
    analyzer.analyze(source)
    lines = source.split("\n")
    out = {}
    for place in places:
        times, wide = [], 0
        for line, column, text in keystrokes(place):
            if text.endswith("\n"):  # a new line (with its indentation)
                lines.insert(line, text[:-1])
            else:
                lines[line] = lines[line][:column] + text + lines[line][column:]
            fingerprint = analyzer._summary.fingerprint if analyzer._summary else None
            began = time.perf_counter()
            analyzer.analyze("\n".join(lines))
            times.append(time.perf_counter() - began)
            if analyzer._summary is not None and analyzer._summary.fingerprint != fingerprint:
                wide += 1
        out[place.name] = {
            "keystrokes": len(times),
            "module_wide": wide,
            "median_ms": statistics.median(times) * 1000,
            "p95_ms": pct(times, 0.95) * 1000,
        }
    return out


def modules(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(label, text) of the modules to measure: real code first, then generated."""
    sys.path.insert(0, str(HERE))
    from realcode import missing_corpus_message, real_module

    out = []
    for size in args.real:
        module = real_module(size)
        if module is None:
            print(missing_corpus_message())
            break
        out.append((f"real-{size}", module.text))
    out.extend((f"generated-{size}", generate(size)) for size in args.lines)
    return out


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--real", type=int, nargs="*", default=[5000, 20000], help="real-code module sizes"
    )
    parser.add_argument(
        "--lines", type=int, nargs="*", default=[5000], help="generated module sizes"
    )
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
    raw: dict[str, Any] = {"servers": {}, "replay": {}, "parse_ms": {}}
    starts = {name: cold_starts(name, args.starts) for name in servers}
    print(f"\n{'cold start -> initialize result':<40}{'median':>10}{'p95':>10}")
    for name in servers:
        print(
            f"  {name:<38}{statistics.median(starts[name]) * 1000:>8.0f}ms"
            f"{pct(starts[name], 0.95) * 1000:>8.0f}ms"
        )
    if "tflsp" in starts and "bare" in starts:
        ratio = statistics.median(starts["tflsp"]) / statistics.median(starts["bare"])
        print(f"  ratio tflsp / bare pygls: {ratio:.2f}x")

    with tempfile.TemporaryDirectory() as tmp:
        for label, source in modules(args):
            path = Path(tmp) / f"{label.replace('-', '_')}.py"
            path.write_text(source, encoding="utf-8")
            places = typing_places(source)
            parse_ms = median_parse_ms(source)
            raw["parse_ms"][label] = parse_ms
            print(
                f"\n== {label}: {source.count(chr(10))} lines, ast.parse {parse_ms:.1f} ms "
                f"({median_parse_ms(source, collect=True):.1f} ms with the cyclic GC on); typing "
                + ", ".join(
                    f"{p.name} (line {p.after + 2}, {len(keystrokes(p))} keys)" for p in places
                )
            )
            print(
                f"{'':<12}{'open':>9}{'/parse':>8}{'2nd open':>10}{'hover p50':>11}{'p95':>8}"
                + "".join(f"{p.name + ' p50':>15}{'p95':>8}" for p in places)
                + f"{'all p50':>10}{'p95':>8}"
            )
            results = {}
            for name in servers:
                result = run_session(name, source, path, args.pause_ms / 1000, places)
                results[name] = result
                raw["servers"].setdefault(name, {})[label] = {**result, "starts": starts[name]}
                hovers = result["hover"]
                typed = [t for times in result["edits"].values() for t in times]
                print(
                    f"  {name:<10}{ms(result['open']):>7}ms{result['open'] * 1000 / parse_ms:>7.1f}x"
                    f"{ms(result['reopen']):>8}ms"
                    # (a tiny generated module has nothing to hover)
                    + (
                        f"{statistics.median(hovers) * 1000:>9.2f}ms{pct(hovers, 0.95) * 1000:>6.2f}ms"
                        if hovers
                        else f"{'-':>11}{'-':>8}"
                    )
                    + "".join(
                        f"{ms(statistics.median(result['edits'][p.name])):>13}ms"
                        f"{ms(pct(result['edits'][p.name], 0.95)):>6}ms"
                        for p in places
                    )
                    + f"{ms(statistics.median(typed)):>8}ms{ms(pct(typed, 0.95)):>6}ms"
                )
            if "tflsp" in results and "ruff" in results:
                ours = [t for times in results["tflsp"]["edits"].values() for t in times]
                theirs = [t for times in results["ruff"]["edits"].values() for t in times]
                print(
                    f"  typing p95 tflsp / ruff server: {pct(ours, 0.95) / pct(theirs, 0.95):.2f}x "
                    f"(target <= 1); open tflsp / ast.parse: "
                    f"{results['tflsp']['open'] * 1000 / parse_ms:.1f}x (target <= 3); "
                    + (
                        f"hover p95 {pct(results['tflsp']['hover'], 0.95) * 1000:.2f} ms (target <= 2)"
                        if results["tflsp"]["hover"]
                        else "no hover spot"
                    )
                )
            replay = replay_in_process(source, places)
            raw["replay"][label] = replay
            for place_name, figures in replay.items():
                print(
                    f"  analyzer alone, {place_name}: median {figures['median_ms']:.2f}ms, "
                    f"p95 {figures['p95_ms']:.2f}ms; {figures['module_wide']:.0f} of "
                    f"{figures['keystrokes']:.0f} keystrokes changed module-wide facts"
                )
    if args.json:
        Path(args.json).write_text(json.dumps(raw, indent=1), encoding="utf-8")


if __name__ == "__main__":
    main()
