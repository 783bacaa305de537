"""The quick fuzz run (the long one is ``benchmarks/fuzz_server.py``): generated modules,
every line-by-line truncation of the catalog examples and random mutations of them, through
the analyzer (strict, cold and warm) and through the real server, with zero crashes."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "fuzz_server.py"


def load_fuzzer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_server", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def fuzz() -> ModuleType:
    return load_fuzzer()


@pytest.fixture(scope="module")
def documents(fuzz: ModuleType) -> list[str]:
    docs = fuzz.documents(hypothesis=30, mutated=60, seed=7)
    assert len(docs) > 500  # the truncations alone are several hundred documents
    return docs


def test_analyzer_never_crashes(fuzz: ModuleType, documents: list[str]) -> None:
    report = fuzz.Report()
    fuzz.fuzz_analyzer(documents, report)
    assert report.documents == len(documents)
    assert report.failures == []


def test_server_never_crashes(fuzz: ModuleType, documents: list[str]) -> None:
    report = fuzz.Report()
    sample = documents[::3]
    fuzz.fuzz_server(sample, report, seed=7)
    assert report.documents == len(sample)
    assert report.requests == 3 * len(sample)
    assert report.failures == []
