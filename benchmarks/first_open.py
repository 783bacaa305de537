"""Start-up and the first file: ``tflsp serve`` from spawn to the first diagnostics.

What an editor waits for when it opens a file: the process starts, answers ``initialize``,
then gets ``didOpen`` of the real 5,000-line module (``benchmarks/realcode.py``; the generated
module when ``../shared/corpus`` is absent) and publishes its diagnostics.  Each run is a
fresh process; the figures are wall times and the server's own CPU time (read from
``/proc/<pid>/stat`` at each step, so a busy machine disturbs it less), and the ratio of
``didOpen -> diagnostics`` to ``ast.parse`` of the same text in this process.

``--base DIR`` runs a second checkout (e.g. a detached worktree of main) in turn with this
one, run for run, for A/B pairs taken under the same load.  ``--profile FILE`` runs this
checkout once under cProfile instead (spawn to the first diagnostics, then exit).

Usage: ``python benchmarks/first_open.py [--runs 7] [--real 5000] [--base DIR | --profile FILE]``
"""

from __future__ import annotations

import argparse
import ast
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from bytecode import ensure_bytecode  # noqa: E402
from generate import generate  # noqa: E402
from lsp_latency import Client  # noqa: E402
from realcode import missing_corpus_message, real_module  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a running process (Linux); NaN elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / TICKS


def one_run(
    checkout: Path, path: Path, source: str, profile: Path | None = None
) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    command = [sys.executable, "-m", "tflsp", "serve"]
    if profile is not None:
        command[1:1] = ["-m", "cProfile", "-o", str(profile)]
    client = Client(command, env=env, cwd=checkout)
    pid = client.process.pid
    started = client.initialize()
    cpu_started = cpu_seconds(pid)
    uri = path.as_uri()
    began = time.perf_counter()
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": source}},
    )
    client.diagnostics(uri, 1)
    opened = time.perf_counter() - began
    cpu_opened = cpu_seconds(pid) - cpu_started
    client.close()
    return {"start": started, "start_cpu": cpu_started, "open": opened, "open_cpu": cpu_opened}


def parse_ms(source: str) -> float:
    times = []
    for _ in range(7):
        began = time.perf_counter()
        ast.parse(source)
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--real", type=int, default=5000, help="real-code module size")
    parser.add_argument("--base", type=Path, help="a second checkout to compare, run for run")
    parser.add_argument("--profile", type=Path, help="one run under cProfile, stats to this file")
    args = parser.parse_args()
    checkouts = {"this": ROOT}
    if args.base is not None:
        checkouts["base"] = args.base.resolve()
    for checkout in checkouts.values():
        ensure_bytecode(checkout)
    module = real_module(args.real)
    if module is None:
        print(missing_corpus_message())
        source, label = generate(args.real), f"generated-{args.real}"
    else:
        source, label = module.text, f"real-{args.real}"
    results: dict[str, list[dict[str, float]]] = {name: [] for name in checkouts}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"{label.replace('-', '_')}.py"
        path.write_text(source, encoding="utf-8")
        if args.profile is not None:
            one_run(ROOT, path, source, args.profile.resolve())
            print(f"profile of one run (spawn to the first diagnostics) in {args.profile}")
            return
        for _ in range(args.runs):
            for name, checkout in checkouts.items():
                results[name].append(one_run(checkout, path, source))
    parsed = parse_ms(source)
    print(f"{label}: ast.parse {parsed:.1f} ms; load {os.getloadavg()}; {args.runs} runs")
    print(f"{'':<8}{'start':>9}{'cpu':>9}{'open':>9}{'cpu':>9}{'/parse':>8}{'total cpu':>11}")
    for name, runs in results.items():

        def med(key: str, runs: list[dict[str, float]] = runs) -> float:
            return statistics.median(r[key] for r in runs) * 1000

        total = statistics.median(r["start_cpu"] + r["open_cpu"] for r in runs) * 1000
        print(
            f"{name:<8}{med('start'):>7.0f}ms{med('start_cpu'):>7.0f}ms{med('open'):>7.0f}ms"
            f"{med('open_cpu'):>7.0f}ms{med('open') / parsed:>7.1f}x{total:>9.0f}ms"
        )


if __name__ == "__main__":
    main()
