"""Fuzz the analyzer and the language server with thousands of documents; any crash fails.

Documents come from three sources:

- hypothesmith: random valid Python (grammar- and libcst-based), prefixed with TensorFlow
  imports so the TF-aware rules have names to resolve;
- every line-by-line truncation of every catalog example (bad.py and good.py), in order, the
  way a file looks while it is typed from top to bottom;
- random character deletions, duplications and swaps in catalog examples.

The analyzer runs in strict mode (a detector crash raises) on each document, both cold and
warm (one analyzer fed the documents in sequence, as an editor would).  The server gets the
same documents through ``didOpen``/``didChange`` plus hover, code action and code lens
requests at random positions; any error response, a dead process or a logged traceback is a
failure.  ``tests/server/test_fuzz_quick.py`` runs a small version in the test suite.

Usage: ``python benchmarks/fuzz_server.py [--hypothesis 2000] [--mutations 1000] [--seed 1]``
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
import traceback
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from lsp_latency import Client  # noqa: E402

PRELUDE = "import tensorflow as tf\nfrom tensorflow import keras\n\n"


@dataclass
class Report:
    documents: int = 0
    requests: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def fail(self, what: str, document: str) -> None:
        self.failures.append(f"{what}\n--- document ---\n{document[:2000]}")


# -- documents ------------------------------------------------------------------------------------
def catalog_sources() -> list[str]:
    from tflsp.catalog import load_catalog

    out = []
    for pattern in load_catalog():
        for path in (pattern.bad_path, pattern.good_path):
            out.append(path.read_text(encoding="utf-8"))
    return out


def truncations(sources: list[str]) -> Iterator[str]:
    for source in sources:
        lines = source.split("\n")
        for end in range(1, len(lines) + 1):
            yield "\n".join(lines[:end])


def mutations(sources: list[str], count: int, seed: int) -> Iterator[str]:
    rng = random.Random(seed)
    for _ in range(count):
        text = rng.choice(sources)
        for _ in range(rng.randint(1, 5)):
            if not text:
                break
            at = rng.randrange(len(text))
            action = rng.randrange(3)
            if action == 0:
                text = text[:at] + text[at + 1 :]
            elif action == 1:
                text = text[:at] + text[at] + text[at:]
            else:
                other = rng.randrange(len(text))
                low, high = sorted((at, other))
                text = text[:low] + text[high:] + text[low:high]
        yield text


def hypothesis_modules(count: int, seed: int) -> list[str]:
    """``count`` random modules from hypothesmith (half grammar-based, half libcst-based)."""
    if count <= 0:
        return []
    import hypothesmith
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as fix_seed
    from hypothesis import strategies as st

    found: list[str] = []
    strategy = st.one_of(hypothesmith.from_grammar(), hypothesmith.from_node())

    @fix_seed(seed)
    @settings(
        max_examples=count,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(strategy)
    def collect(source: str) -> None:
        found.append(PRELUDE + source)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        collect()
    return found


def documents(hypothesis: int, mutated: int, seed: int, truncate: bool = True) -> list[str]:
    sources = catalog_sources()
    out = hypothesis_modules(hypothesis, seed)
    if truncate:
        out.extend(truncations(sources))
    out.extend(mutations(sources, mutated, seed))
    return out


# -- the analyzer -----------------------------------------------------------------------------------
def fuzz_analyzer(docs: list[str], report: Report) -> None:
    from tflsp.analysis.engine import Analyzer
    from tflsp.catalog import load_catalog
    from tflsp.settings import Settings

    catalog = load_catalog()
    config = Settings(select=("ALL",)).lint_config(catalog)
    warm = Analyzer(config, catalog, strict=True)
    for doc in docs:
        report.documents += 1
        for analyzer in (warm, Analyzer(config, catalog, strict=True)):
            try:
                analyzer.analyze(doc)
            except Exception:
                report.fail(f"analyzer crashed:\n{traceback.format_exc()}", doc)
                if analyzer is warm:
                    warm = Analyzer(config, catalog, strict=True)


# -- the server -------------------------------------------------------------------------------------
def _position(rng: random.Random, doc: str) -> dict[str, int]:
    lines = doc.split("\n")
    line = rng.randrange(len(lines) + 2)
    width = len(lines[line]) if line < len(lines) else 3
    return {"line": line, "character": rng.randrange(width + 3)}


def fuzz_server(docs: list[str], report: Report, seed: int) -> None:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as tmp:
        stderr = Path(tmp) / "stderr.log"
        with stderr.open("wb") as err:
            client = Client(
                [sys.executable, "-m", "tflsp", "serve", "--log-level", "WARNING"], stderr=err
            )
            try:
                client.initialize()
                client.notify(
                    "workspace/didChangeConfiguration", {"settings": {"tflsp": {"select": ["ALL"]}}}
                )
                uri = (Path(tmp) / "fuzzed.py").as_uri()
                version = 1
                client.notify(
                    "textDocument/didOpen",
                    {
                        "textDocument": {
                            "uri": uri,
                            "languageId": "python",
                            "version": 1,
                            "text": "",
                        }
                    },
                )
                for doc in docs:
                    report.documents += 1
                    version += 1
                    client.notify(
                        "textDocument/didChange",
                        {
                            "textDocument": {"uri": uri, "version": version},
                            "contentChanges": [{"text": doc}],
                        },
                    )
                    document = {"textDocument": {"uri": uri}}
                    position = _position(rng, doc)
                    rng_range = {"start": position, "end": _position(rng, doc)}
                    requests = [
                        ("textDocument/hover", {**document, "position": position}),
                        (
                            "textDocument/codeAction",
                            {**document, "range": rng_range, "context": {"diagnostics": []}},
                        ),
                        ("textDocument/codeLens", document),
                    ]
                    for method, params in requests:
                        report.requests += 1
                        answer = client.response(client.request(method, params))
                        if "error" in answer:
                            report.fail(f"{method} answered an error: {answer['error']}", doc)
                    client.diagnostics(uri, version)
            except (TimeoutError, EOFError, OSError) as exc:
                report.fail(f"server stopped answering: {exc!r}", "(see stderr)")
            finally:
                client.close()
        log = stderr.read_text(encoding="utf-8", errors="replace")
        if "Traceback" in log:
            report.fail(f"the server logged a traceback:\n{log[-4000:]}", "(see log)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--hypothesis", type=int, default=2000, help="hypothesmith modules")
    parser.add_argument("--mutations", type=int, default=1000, help="mutated catalog examples")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--skip-server", action="store_true")
    parser.add_argument("--json", help="write the failures to this file")
    args = parser.parse_args()

    began = time.perf_counter()
    docs = documents(args.hypothesis, args.mutations, args.seed)
    print(f"{len(docs)} documents generated in {time.perf_counter() - began:.1f}s")

    analyzer_report = Report()
    began = time.perf_counter()
    fuzz_analyzer(docs, analyzer_report)
    analyzer_report.seconds = time.perf_counter() - began
    print(
        f"analyzer: {analyzer_report.documents} documents (cold and warm) in "
        f"{analyzer_report.seconds:.1f}s, {len(analyzer_report.failures)} failures"
    )
    server_report = Report()
    if not args.skip_server:
        began = time.perf_counter()
        fuzz_server(docs, server_report, args.seed)
        server_report.seconds = time.perf_counter() - began
        print(
            f"server: {server_report.documents} documents, {server_report.requests} requests in "
            f"{server_report.seconds:.1f}s, {len(server_report.failures)} failures"
        )
    failures = analyzer_report.failures + server_report.failures
    for failure in failures[:5]:
        print("\n" + failure)
    if args.json:
        Path(args.json).write_text(json.dumps(failures, indent=1), encoding="utf-8")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    os.environ.setdefault("LANG", "C.UTF-8")
    main()
