"""``tflsp check`` on a whole tree of real code, against yardsticks measured in the same run.

The tree is ``../shared/corpus`` (559 files, 110k lines of code nobody on the team wrote;
``TFLSP_SHARED`` overrides the location, ``--tree`` names another folder).  Whole processes,
timed from outside; CPU is user + system of the process and every child it waited for (the
``--jobs`` workers), from ``getrusage``:

- ``tflsp check`` with no cache (``--jobs 1`` and the default), as a paired A/B run against a
  Python process that reads, ``ast.parse``-s and ``ast.walk``-s the same files (the issue's
  yardstick: CPU <= 3x), and against ``ruff check --select ALL --no-cache`` (pairs alternate
  A B A B, and the ratio is taken pair by pair, so a machine that slows down during the run
  moves both sides);
- ``ast.parse`` + ``ast.walk`` of the same files in this process, for reference;
- the persistent cache: a first run that fills it, then warm runs over the unchanged tree
  (target <= 0.5 s), against a process that only reads the files.

Each tflsp run gets its own ``--cache-dir`` in a temporary folder, so nothing is left behind.
Not a test: it prints medians and spreads.  The machine may be shared: rerun when the spread
is wide, and trust the paired ratios over the absolute times.

Usage: ``python benchmarks/corpus_check.py [--tree DIR] [--pairs 5] [--warm 7]``
"""

from __future__ import annotations

import argparse
import ast
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bytecode import ensure_bytecode  # noqa: E402
from realcode import corpus_dir, missing_corpus_message  # noqa: E402

# Read, parse and walk every .py file under a folder: what any Python linter must at least do.
PARSE_WALK = """
import ast, pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    for node in ast.walk(ast.parse(path.read_bytes())):
        pass
"""
READ_ONLY = """
import pathlib, sys
for path in sorted(pathlib.Path(sys.argv[1]).rglob("*.py")):
    path.read_bytes()
"""


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    status: int


def run(command: Sequence[str]) -> Run:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    proc = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(command)} failed:\n{proc.stderr.decode()[-2000:]}")
    return Run(wall, cpu, proc.returncode)


def spread(values: Sequence[float], unit: str = "s") -> str:
    return (
        f"median {statistics.median(values):7.3f}{unit}  "
        f"(min {min(values):.3f}, max {max(values):.3f})"
    )


def paired(label: str, a: Sequence[str], b: Sequence[str], pairs: int) -> None:
    """A B A B ...: CPU and wall of each, and the A/B CPU ratio taken pair by pair."""
    runs_a, runs_b = [], []
    for _ in range(pairs):
        runs_a.append(run(a))
        runs_b.append(run(b))
    ratios = [x.cpu / y.cpu for x, y in zip(runs_a, runs_b, strict=True)]
    wall_ratios = [x.wall / y.wall for x, y in zip(runs_a, runs_b, strict=True)]
    print(f"\n{label}")
    print(f"  A cpu  {spread([r.cpu for r in runs_a])}   wall {spread([r.wall for r in runs_a])}")
    print(f"  B cpu  {spread([r.cpu for r in runs_b])}   wall {spread([r.wall for r in runs_b])}")
    print(f"  A/B cpu  {spread(ratios, 'x')}   wall {spread(wall_ratios, 'x')}")


def parse_walk_in_process(files: list[Path], repeat: int = 3) -> list[float]:
    times = []
    for _ in range(repeat):
        began = time.process_time()
        for path in files:
            for _node in ast.walk(ast.parse(path.read_bytes())):
                pass
        times.append(time.process_time() - began)
    return times


def supports_cache() -> bool:
    out = subprocess.run(
        [sys.executable, "-m", "tflsp", "check", "--help"], capture_output=True, text=True
    )
    return "--no-cache" in out.stdout


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tree", type=Path, help="folder to check (default: the corpus)")
    parser.add_argument("--pairs", type=int, default=5, help="A/B pairs per comparison")
    parser.add_argument("--warm", type=int, default=7, help="warm cached runs")
    parser.add_argument("--jobs", default="1,0", help="--jobs values to measure (0: default)")
    args = parser.parse_args()
    ensure_bytecode()
    tree = args.tree or corpus_dir()
    if not tree.is_dir():
        sys.exit(missing_corpus_message("nothing to measure (--tree names another folder)"))
    files = sorted(tree.rglob("*.py"))
    lines = sum(p.read_bytes().count(b"\n") for p in files)
    print(
        f"tree: {tree} ({len(files)} files, {lines:,} lines); cpu count {os.cpu_count()}; "
        f"load {os.getloadavg()}"
    )
    in_process = parse_walk_in_process(files)
    print(f"ast.parse + ast.walk in this process: cpu {spread(in_process)}")

    cache = supports_cache()
    python = sys.executable
    parse_walk = [python, "-c", PARSE_WALK, str(tree)]
    ruff = shutil.which("ruff") or str(Path(python).parent / "ruff")
    with tempfile.TemporaryDirectory() as tmp:
        base = [python, "-m", "tflsp", "check", "--isolated", "--quiet", "--exit-zero"]
        no_cache = ["--no-cache"] if cache else []
        for jobs in args.jobs.split(","):
            command = [*base, *no_cache, "--jobs", jobs, str(tree)]
            shown = "default" if jobs == "0" else jobs
            paired(
                f"A = tflsp check --jobs {shown} (no cache), B = python: read + ast.parse + "
                "ast.walk of the same files",
                command,
                parse_walk,
                args.pairs,
            )
        if Path(ruff).exists():
            ruff_command = [
                ruff, "check", "--select", "ALL", "--no-cache", "--isolated", "--exit-zero",
                "--quiet", str(tree),
            ]  # fmt: skip
            paired(
                "A = tflsp check --jobs 1 (no cache), B = ruff check --select ALL --no-cache",
                [*base, *no_cache, "--jobs", "1", str(tree)],
                ruff_command,
                args.pairs,
            )
            paired(
                "A = ruff check --select ALL --no-cache, B = python: read + ast.parse + ast.walk",
                ruff_command,
                parse_walk,
                args.pairs,
            )
        if not cache:
            print("\nthis tflsp has no persistent cache (no --no-cache flag): warm runs skipped")
            return
        cache_dir = Path(tmp) / "cache"
        cached = [*base, "--cache-dir", str(cache_dir), str(tree)]
        shutil.rmtree(cache_dir, ignore_errors=True)
        fill = run(cached)
        print(f"\nfirst run, filling the cache: cpu {fill.cpu:.3f}s, wall {fill.wall:.3f}s")
        size = sum(p.stat().st_size for p in cache_dir.rglob("*") if p.is_file())
        print(f"  cache size on disk: {size / 1024:.0f} KiB")
        paired(
            "A = tflsp check, warm cache (unchanged tree), B = python: read the files only",
            cached,
            [python, "-c", READ_ONLY, str(tree)],
            args.warm,
        )
        floor = [python, "-c", "import tflsp.cli.check"]
        paired(
            "A = tflsp check, warm cache, B = python start + import tflsp.cli.check (floor)",
            cached,
            floor,
            args.warm,
        )


if __name__ == "__main__":
    main()
