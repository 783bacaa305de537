"""Which cases to run: the targets of a set, bundled into modules, and their seeded copies."""

from __future__ import annotations

from pathlib import Path

from tests.verify.realcode.bundle import BundleError
from tests.verify.realcode.mutate import SEEDS, NotApplicable, mutate
from tests.verify.realcode.run import Case, make_bundle, write_case
from tests.verify.realcode.targets import AUDIT, OWN, SEEDED, Target


def targets(which: str) -> tuple[Target, ...]:
    return {"own": OWN, "audit": AUDIT, "all": OWN + AUDIT}[which]


def build_cases(
    corpus: Path,
    folder: Path,
    *,
    which: str = "all",
    seeds: bool = False,
    only: set[str] | None = None,
) -> tuple[list[Case], list[tuple[str, str]]]:
    """(cases, [(key, why it was skipped)])."""
    cases: list[Case] = []
    skipped: list[tuple[str, str]] = []
    chosen = [t for t in targets(which) if only is None or t.key in only]
    by_key = {t.key: t for t in OWN + AUDIT}
    sources: dict[str, str] = {}
    for target in chosen:
        try:
            source = make_bundle(target, corpus).source
        except BundleError as exc:
            skipped.append((target.key, str(exc)))
            continue
        sources[target.key] = source
        cases.append(write_case(target, source, folder))
    if seeds:
        for key, kind in SEEDED:
            if only is not None and key not in only:
                continue
            target = by_key[key]
            if key not in sources:
                try:
                    sources[key] = make_bundle(target, corpus).source
                except BundleError as exc:
                    skipped.append((f"{key}+{kind}", str(exc)))
                    continue
            try:
                mutated = mutate(sources[key], target.name, kind)
            except NotApplicable as exc:
                skipped.append((f"{key}+{kind}", str(exc)))
                continue
            cases.append(write_case(target, mutated, folder, SEEDS[kind]))
    return cases, skipped
