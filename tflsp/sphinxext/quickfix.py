"""The quick fix of a pattern, shown as a unified diff of its ``bad.py``."""

from __future__ import annotations

import difflib

from tflsp.analysis.engine import Analyzer
from tflsp.analysis.fixes import fix_source
from tflsp.catalog import Catalog, Pattern
from tflsp.catalog.markers import strip_markers
from tflsp.settings import Settings


def quick_fix_diffs(pattern: Pattern, catalog: Catalog) -> list[tuple[str, str]]:
    """``(keras variant, diff)`` for each Keras version the pattern applies to.

    Only this pattern's rule is selected, so a ``bad.py`` that also shows another pattern
    does not mix that pattern's fix into the diff.  Versions whose diff is identical to an
    earlier one are dropped, so the usual result is a single entry.
    """
    if not pattern.fix.available:
        return []
    source = strip_markers(pattern.bad_path.read_text(encoding="utf-8"))
    diffs: list[tuple[str, str]] = []
    for variant in pattern.keras:
        settings = Settings(select=(pattern.code,), target_keras=variant.removeprefix("keras"))
        analyzer = Analyzer(settings.lint_config(catalog), catalog)
        fixed = fix_source(analyzer, source, unsafe=True).source
        diff = "".join(
            difflib.unified_diff(
                source.splitlines(keepends=True),
                fixed.splitlines(keepends=True),
                fromfile="a/bad.py",
                tofile="b/bad.py",
            )
        )
        if diff and all(diff != seen for _, seen in diffs):
            diffs.append((variant, diff))
    return diffs
