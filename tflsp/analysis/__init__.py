"""The static analyzer: pure ``ast``, no TensorFlow import.

Typical use::

    from tflsp.analysis import analyze_source
    result = analyze_source(text)
    for d in result.diagnostics: ...

Long-lived callers (the language server) keep an :class:`Analyzer` per document so that an
edit re-analyses only the blocks it touched.
"""

from __future__ import annotations

from tflsp.analysis.diagnostics import SYNTAX_ERROR_CODE, Diagnostic, Edit, Fix
from tflsp.analysis.engine import Analyzer, LintConfig, ModuleResult


def analyze_source(source: str, config: LintConfig | None = None) -> ModuleResult:
    """Analyse one module text with the given rule set (default: the default rules)."""
    if config is None:
        from tflsp.settings import Settings

        config = Settings().lint_config()
    return Analyzer(config).analyze(source)


__all__ = [
    "SYNTAX_ERROR_CODE",
    "Analyzer",
    "Diagnostic",
    "Edit",
    "Fix",
    "LintConfig",
    "ModuleResult",
    "analyze_source",
]
