"""``tflsp serve`` starts and lints with TensorFlow and Keras unimportable."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from tests.server.raw import RawServer

pytestmark = pytest.mark.timeout(120)

SHIM = Path(__file__).resolve().parent / "no_tensorflow"

SOURCE = textwrap.dedent(
    """\
    import tensorflow as tf
    from tensorflow import keras


    class Scale(keras.layers.Layer):
        def call(self, x):
            print("x", x)
            return x


    @tf.function
    def step(x):
        return x.numpy()
    """
)


def test_server_works_without_tensorflow(tmp_path: Path) -> None:
    report = tmp_path / "modules.json"
    python_path = os.pathsep.join(filter(None, [str(SHIM), os.environ.get("PYTHONPATH")]))
    raw = RawServer(env={"PYTHONPATH": python_path, "TFLSP_MODULES_REPORT": str(report)})
    try:
        raw.initialize()
        uri = (tmp_path / "model.py").as_uri()
        raw.open(uri, SOURCE)
        codes = sorted(d["code"] for d in raw.diagnostics(uri, 1))
        assert "TFL101" in codes and "TFL102" in codes
        hover = raw.request(
            "textDocument/hover",
            {"textDocument": {"uri": uri}, "position": {"line": 6, "character": 10}},
        )
        assert "TFL101" in hover["result"]["contents"]["value"]
        lenses = raw.request("textDocument/codeLens", {"textDocument": {"uri": uri}})
        assert len(lenses["result"]) == 2
        verify = raw.request(
            "workspace/executeCommand",
            {"command": "tflsp.verifyClass", "arguments": [uri, "Scale", 4]},
        )
        assert "error" in verify
        assert raw.shutdown() == 0
    finally:
        raw.close()
    data = json.loads(report.read_text(encoding="utf-8"))
    assert data["attempts"] == [], f"the server tried to import {data['attempts']}"
    loaded = [m for m in data["modules"] if m.split(".")[0] in ("tensorflow", "keras", "tf_keras")]
    assert loaded == []
    # The shim really was active (otherwise this test proves nothing).
    assert "sitecustomize" in data["modules"]
