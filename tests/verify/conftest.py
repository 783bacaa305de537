"""Shared workers for the verifier tests: one per Keras version for the whole session.

Starting a worker costs a TensorFlow import (2-10 s), so tests that only need *a* working
worker share these; tests that kill or recycle workers start their own.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.helpers import require
from tflsp.verify import VerifierClient, WorkerConfig

HERE = Path(__file__).parent
PROGRAMS = HERE / "programs"

HAVE_TF = importlib.util.find_spec("tensorflow") is not None
HAVE_TF_KERAS = importlib.util.find_spec("tf_keras") is not None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_tf = pytest.mark.skip(reason="TensorFlow is not installed (pip install 'tflsp[tf]')")
    for item in items:
        if "tf" in item.keywords and not HAVE_TF:
            item.add_marker(skip_tf)


@pytest.fixture(scope="session")
def keras3() -> Iterator[VerifierClient]:
    with VerifierClient(WorkerConfig(keras="3", timeout=120)) as client:
        yield client


@pytest.fixture(scope="session")
def keras2() -> Iterator[VerifierClient]:
    require(HAVE_TF_KERAS, "tf-keras is not installed")
    with VerifierClient(WorkerConfig(keras="2", timeout=120)) as client:
        yield client


def source_of(name: str) -> str:
    return (PROGRAMS / name).read_text(encoding="utf-8")
