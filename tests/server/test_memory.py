"""Memory while typing, over stdio: the short version of ``benchmarks/soak.py``.

Three hundred keystrokes in a 400-line method, each waited for, then ``didClose``.  Before
the fix of issue 12 the server grew by about 400 MB here (every analysis context was kept);
with the contexts freed but garbage collection starved by a client that never pauses, by
30-45 MB.  Now it grows by about 5 MB.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = [pytest.mark.timeout(300)]

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "soak.py"
KEYS = 300
BOUND_MB = 25.0


def load_soak() -> ModuleType:
    sys.path.insert(0, str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("soak", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="RSS is read from /proc")
def test_typing_then_closing_returns_the_memory() -> None:
    soak = load_soak()
    text = soak.generated_module()
    rows = soak.soak(text, 6, KEYS, every=0, cycles=1, echo=False)
    (cycle,) = rows["cycles"]
    grown_while_typing = cycle["typed"] - cycle["opened"]
    grown_after_close = cycle["closed"] - cycle["opened"]
    assert grown_while_typing <= BOUND_MB, cycle
    assert grown_after_close <= BOUND_MB, cycle
