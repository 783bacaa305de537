"""A merge of candidate blocks that does not parse is not parsed again while other lines change."""

from __future__ import annotations

import pytest

from tests.helpers import analyzer
from tflsp.analysis import views

SOURCE = (
    "import tensorflow as tf\n\ndata = [1,\n\nvalue = 2\nother = 3\nmore = 4\nlast = 5\n\n"
    "def f(x):\n    return x\n"
)


def test_a_failed_merge_is_remembered_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[str] = []
    real = views.try_parse

    def counting(text: str) -> object:
        parsed.append(text)
        return real(text)

    monkeypatch.setattr(views, "try_parse", counting)
    warm = analyzer()
    first = warm.analyze(SOURCE)
    merges = [t for t in parsed if t.startswith("data = [")]
    assert merges, "the unclosed bracket should make the engine try a merge"
    for n in range(30):
        parsed.clear()
        edited = SOURCE.replace("return x", f"return x + {n}")
        result = warm.analyze(edited)
        assert not [t for t in parsed if t.startswith("data = [")]
        assert [d.code for d in result.diagnostics] == [d.code for d in first.diagnostics]
    assert len(warm._cutter._unparsable) <= 2 * len(merges)
