"""The real server reads workspace files a document imports, even when they are not open."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.server.lsp import (
    config,
    diagnostics_for,
    open_document,
    push_capabilities,
    replace_all,
)
from tflsp.server.imports import RECHECK

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.timeout(60)]

STEPS = textwrap.dedent(
    """\
    import tensorflow as tf


    @tf.function
    def step(x):
        return x * 2
    """
)

TRAIN = textwrap.dedent(
    """\
    from .steps import step


    for i in range(10):
        step(i)
    """
)


@pytest_lsp.fixture(scope="module", config=config())
async def client(lsp_client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    root = tmp_path_factory.mktemp("workspace")
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=push_capabilities(), root_uri=root.as_uri(), locale="en"
        )
    )
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_unopened_sibling_makes_a_tf_function(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    pkg = root / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "steps.py").write_text(STEPS)  # on disk only: never opened
    uri = (pkg / "train.py").as_uri()
    diagnostics = await open_document(client, uri, TRAIN)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("TFL106", 4)]

    # The sibling opened in the editor wins over the disk: without the decorator, step() is
    # plain and calling it with loop numbers is fine.
    steps_uri = (pkg / "steps.py").as_uri()
    await open_document(client, steps_uri, STEPS.replace("@tf.function\n", ""))
    await asyncio.sleep(RECHECK + 0.1)
    replace_all(client, uri, 2, TRAIN + "\n")
    assert await diagnostics_for(client, uri, 2) == []
