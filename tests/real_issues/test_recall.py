"""Recall of the default rules on the real-issue case set, held to a committed baseline.

The cases (``cases/*.py``) are the project's own paraphrases of real GitHub issue and Q&A
threads; see README.md. A case that the baseline records as caught must stay caught, and a
clean look-alike must not gain a finding. Newly caught cases and newly clean look-alikes are
reported as warnings so the baseline can be raised with
``python -m tests.real_issues.recall --write-baseline``.
"""

from __future__ import annotations

import ast
import warnings
from collections import Counter

import pytest

from tests.helpers import CATALOG
from tests.real_issues.recall import BASELINE, HERE, Report, load_cases, read_baseline, run, tomllib

REFRESH = "python -m tests.real_issues.recall --write-baseline"

CASES = load_cases()


@pytest.fixture(scope="module")
def report() -> Report:
    result = Report(run(CASES))
    print("\n" + result.render())
    return result


def test_case_set_is_large_and_balanced_enough() -> None:
    pitfalls = [c for c in CASES if not c.clean]
    by_sampling = Counter(c.sampling for c in pitfalls)
    assert by_sampling["by-pattern"] >= 80, by_sampling
    assert by_sampling["by-symptom"] >= 50, by_sampling
    assert len(pitfalls) >= 130
    assert sum(c.clean for c in CASES) >= 12


def test_every_case_comes_from_its_own_thread() -> None:
    sources = Counter(c.source for c in CASES)
    assert [s for s, n in sources.items() if n > 1] == []


def test_threads_log_records_every_case_thread_once() -> None:
    log = tomllib.loads((HERE / "threads.toml").read_text(encoding="utf-8"))
    urls = Counter(t["url"] for t in log["thread"])
    assert [u for u, n in urls.items() if n > 1] == []
    used = {t["url"] for t in log["thread"] if t["status"] == "used"}
    assert sorted(c.source for c in CASES if c.source not in used) == []
    assert sorted(used - {c.source for c in CASES}) == []


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case_is_valid_python_with_known_expected_codes(case) -> None:  # type: ignore[no-untyped-def]
    ast.parse(case.text, filename=case.path.name)
    known = {p.code for p in CATALOG}
    assert set(case.expected) <= known, f"{case.id}: unknown codes {set(case.expected) - known}"


def test_recall_does_not_fall_below_the_baseline(report: Report) -> None:
    baseline_caught, _ = read_baseline()
    lost = sorted(baseline_caught - report.caught_ids)
    unknown = sorted(baseline_caught - {c.id for c in CASES})
    assert not unknown, f"{BASELINE.name} names cases that do not exist: {unknown}"
    gained = sorted(report.caught_ids - baseline_caught)
    if gained:
        warnings.warn(
            f"{len(gained)} case(s) newly caught, raise the baseline with `{REFRESH}`: {gained}",
            stacklevel=1,
        )
    assert not lost, f"cases the baseline records as caught are now missed: {lost}"


def test_clean_lookalikes_gain_no_finding(report: Report) -> None:
    _, baseline_fps = read_baseline()
    new = sorted(report.false_positive_ids - baseline_fps)
    fixed = sorted(baseline_fps - report.false_positive_ids)
    if fixed:
        warnings.warn(
            f"clean look-alike(s) no longer flagged, lower the baseline with `{REFRESH}`: {fixed}",
            stacklevel=1,
        )
    details = {
        o.case.id: [f"{code}@{line}" for line, code in o.findings]
        for o in report.false_positives
        if o.case.id in new
    }
    assert not new, f"clean look-alikes now get findings: {details}"
