"""The backbone test: every catalog entry's examples prove its detector, its fix and its text.

For each pattern and each Keras version it applies to:
- ``bad.py`` yields exactly the ``# [TFLxxx]`` markers (line and code, nothing more);
- ``good.py`` yields nothing;
- every fix offered on ``bad.py`` gives parseable code without that diagnostic, and applying
  all of them leaves no diagnostic of the pattern;
- every message renders in both languages with the arguments the detector passed.

Every rule that is on by default runs on every example; a rule that is off by default runs on
its own examples and on examples whose markers name it.
"""

from __future__ import annotations

import ast
from collections import Counter

import pytest

from tests.helpers import CATALOG, analyzer
from tflsp.analysis.fixes import apply_edits, fix_source
from tflsp.analysis.registry import registered_codes
from tflsp.catalog import LANGUAGES, Pattern, parse_markers

CASES = [
    pytest.param(pattern, version, id=f"{pattern.code}-{version}")
    for pattern in CATALOG
    for version in pattern.keras
]


def _analyzer(version: str, pattern: Pattern):  # type: ignore[no-untyped-def]
    """Every rule that is on by default, the pattern's own rule and the rules its markers name.

    Rules that are off by default (hints such as TFL702 unseeded-randomness) legitimately fire
    on many other patterns' examples; each of them is proved on its own examples instead.
    """
    marked = {code for _, code in parse_markers(pattern.bad_path.read_text(encoding="utf-8"))}
    chosen = {p.code for p in CATALOG if p.default_enabled} | {pattern.code} | marked
    return analyzer(tuple(sorted(chosen)), target_keras=version.removeprefix("keras"))


def _expected(pattern: Pattern, version: str) -> list[tuple[int, str]]:
    number = int(version.removeprefix("keras"))
    return [
        (line, code)
        for line, code in parse_markers(pattern.bad_path.read_text(encoding="utf-8"))
        if CATALOG[code].applies_to(number)
    ]


@pytest.mark.parametrize(("pattern", "version"), CASES)
def test_bad_example_yields_exactly_its_markers(pattern: Pattern, version: str) -> None:
    source = pattern.bad_path.read_text(encoding="utf-8")
    result = _analyzer(version, pattern).analyze(source)
    got = sorted((d.line, d.code) for d in result.diagnostics)
    assert got == _expected(pattern, version)
    assert any(code == pattern.code for _, code in got), "bad.py must show its own pattern"


@pytest.mark.parametrize(("pattern", "version"), CASES)
def test_good_example_is_clean(pattern: Pattern, version: str) -> None:
    result = _analyzer(version, pattern).analyze(pattern.good_path.read_text(encoding="utf-8"))
    assert [(d.line, d.code) for d in result.diagnostics] == []


@pytest.mark.parametrize(("pattern", "version"), CASES)
def test_fixes_remove_the_diagnostic(pattern: Pattern, version: str) -> None:
    source = pattern.bad_path.read_text(encoding="utf-8")
    lint = _analyzer(version, pattern)
    own = [d for d in lint.analyze(source).diagnostics if d.code == pattern.code]
    with_fix = [d for d in own if d.fix is not None]

    if pattern.fix.availability == "none":
        assert not with_fix, "the catalog says no fix, but the detector offers one"
        return
    assert with_fix, "the catalog promises a fix; bad.py must exercise it"
    if pattern.fix.availability == "always":
        assert len(with_fix) == len(own)
    for d in with_fix:
        assert d.fix is not None
        assert d.fix.safe == pattern.fix.safe, "fix safety must match the catalog"
        fixed = apply_edits(source, d.fix.edits)
        ast.parse(fixed)
        after = Counter(x.code for x in lint.analyze(fixed).diagnostics)
        assert after[pattern.code] < len(own), f"fix for line {d.line} did not remove it"
        before = Counter(x.code for x in lint.analyze(source).diagnostics)
        new_codes = {c for c in after if after[c] > before[c]}
        assert not new_codes, f"fix introduced {new_codes}"

    outcome = fix_source(lint, source, unsafe=True)
    ast.parse(outcome.source)
    remaining = [d for d in lint.analyze(outcome.source).diagnostics if d.code == pattern.code]
    assert [d for d in remaining if d.fix is not None] == []


@pytest.mark.parametrize(("pattern", "version"), CASES)
def test_messages_render_in_both_languages(pattern: Pattern, version: str) -> None:
    source = pattern.bad_path.read_text(encoding="utf-8")
    for d in _analyzer(version, pattern).analyze(source).diagnostics:
        owner = CATALOG[d.code]
        templates = owner.messages.get(d.message_id)
        assert templates is not None, f"{d.code} uses unknown message variant {d.message_id!r}"
        for lang in LANGUAGES:
            templates[lang].format_map(dict(d.args))  # raises KeyError on a missing argument
            if d.fix is not None:
                owner.fix.title[lang].format_map(dict(d.fix.args))


def test_every_pattern_has_a_detector_and_every_detector_a_pattern() -> None:
    assert registered_codes() == set(CATALOG.codes())
