"""The "Observed on TensorFlow X / Keras Y" block of a pattern page."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tflsp.catalog import Pattern
from tflsp.sphinxext import markdown as md
from tflsp.sphinxext.labels import keras_name, label
from tflsp.sphinxext.record import PROGRAMS, ProgramRun, RunRecord, VerificationRecord
from tflsp.verify.expectations import EXAMPLE_KEYS, KERAS_KEYS

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
_MAX_LINES = 40


@dataclass(frozen=True)
class Problem:
    """Something the page shows that must also fail a ``-W`` build."""

    subtype: str  # "unverified" | "mismatch"
    message: str


def render_observed(
    pattern: Pattern,
    lang: str,
    record: VerificationRecord | None,
    record_name: str,
    refresh_command: str,
) -> tuple[str, list[Problem]]:
    """Markdown for every Keras version the pattern applies to, and the problems found."""
    parts = [f"## {label(lang, 'observed')}\n", f"{label(lang, 'observed_intro')}.\n"]
    problems: list[Problem] = []
    for variant in pattern.keras:
        run = record.get(pattern.code, variant) if record is not None else None
        if run is None:
            parts.append(_unverified(pattern, lang, variant, record_name, refresh_command))
            problems.append(
                Problem(
                    "unverified",
                    f"{pattern.code} is not verified on {keras_name('en', variant)}: "
                    f"{record_name} has no entry for it; refresh the record with "
                    f"`{refresh_command}`",
                )
            )
            continue
        parts.append(_verified(pattern, lang, run))
        if run.passed is None:
            problems.append(
                Problem(
                    "unverified",
                    f"{pattern.code} on {keras_name('en', variant)}: the verification record "
                    f"has no verdict for it (skipped?); refresh the record with "
                    f"`{refresh_command}`",
                )
            )
        elif run.passed is False:
            problems.append(
                Problem(
                    "mismatch",
                    f"{pattern.code} on {keras_name('en', variant)}: the verification record "
                    "says the examples did not behave as the catalog expects",
                )
            )
    return "\n".join(parts), problems


def _unverified(pattern: Pattern, lang: str, variant: str, record: str, command: str) -> str:
    body = label(
        lang,
        "unverified_body",
        record=md.code(record),
        code=pattern.code,
        keras=keras_name(lang, variant),
    )
    return (
        f"### {keras_name(lang, variant)}\n\n"
        f":::{{admonition}} {label(lang, 'unverified_title')}\n"
        ":class: warning tflsp-observed tflsp-unverified\n\n"
        f"{body}\n\n{md.fenced(command, 'bash')}:::\n"
    )


def _verified(pattern: Pattern, lang: str, run: RunRecord) -> str:
    tf_version = run.tensorflow_version or "?"
    keras_version = run.keras_version or keras_name(lang, run.keras).removeprefix("Keras ")
    title = label(lang, "observed_on", tf=tf_version, keras=keras_version)
    if run.keras == "keras2":
        title += " (tf-keras)"
    # The container's fence is longer than the admonition's inside it, so that closing the
    # admonition cannot close the container too.
    state = "tflsp-verified" if run.passed is not None else "tflsp-unverified"
    lines = [f"### {title}\n", f"::::{{container}} tflsp-observed {state}\n"]
    if run.timestamp:
        lines.append(label(lang, "checked_at", when=md.escape(run.timestamp)) + "\n")
    if run.passed is False:
        lines.append(
            f":::{{admonition}} {label(lang, 'mismatch_title')}\n:class: danger\n\n"
            f"{label(lang, 'mismatch_body')}\n:::\n"
        )
    by_name = {p.program: p for p in run.programs}
    for program in PROGRAMS:
        found = by_name.get(program)
        expected_spec = _expected_spec(pattern, program, run.keras)
        lines.append(_program_block(lang, program, found, expected_spec))
    lines.append("::::\n")
    return "\n".join(lines)


def _program_block(lang: str, program: str, run: ProgramRun | None, spec: Any) -> str:
    mark = _mark(lang, run)
    if run is not None and run.note:
        mark += f" ({md.escape(run.note)})"
    out = [f"**{program}.py**: {mark}\n"]
    expected = run.expected if run is not None and run.expected else spec
    sentences = describe_expectation(expected, lang) if expected is not None else []
    if sentences:
        out.append(f"{label(lang, 'expected')}:\n")
        out.extend(f"- {sentence}" for sentence in sentences)
        out.append("")
    failed = [check for check in run.checks if check.ok is False] if run is not None else []
    if failed:
        out.append(f"{label(lang, 'failed_checks')}:\n")
        out.extend(
            f"- {md.code(check.expect)}: {md.code(check.observed)}"
            if check.observed
            else f"- {md.code(check.expect)}"
            for check in failed
        )
        out.append("")
    observed = _shown(run.observed) if run is not None else None
    if observed not in (None, "", [], {}):
        out.append(f"{label(lang, 'observed_label')}:\n")
        out.append(md.fenced(plain(observed), "text"))
    return "\n".join(out)


def _mark(lang: str, run: ProgramRun | None) -> str:
    if run is None:
        return label(lang, "unknown")
    if run.status in ("skip", "skipped"):
        return label(lang, "skipped")
    if run.status == "error":
        return "✘ " + label(lang, "error")
    if run.passed is None:
        return label(lang, "unknown")
    return "✔ " + label(lang, "pass") if run.passed else "✘ " + label(lang, "fail")


def _shown(observed: Any) -> Any:
    """The observation without empty fields (``exception: null``, ``stderr: []``)."""
    if isinstance(observed, Mapping):
        return {k: v for k, v in observed.items() if v not in (None, "", [], {})}
    return observed


def _expected_spec(pattern: Pattern, program: str, variant: str) -> Any:
    spec = pattern.runtime.get(program)
    if not isinstance(spec, Mapping):
        return None
    override = spec.get(variant)
    if isinstance(override, Mapping):
        return override
    return {k: v for k, v in spec.items() if k not in ("keras2", "keras3")}


# The runtime schema lives with the verifier (stdlib only: importing it starts no TensorFlow).
_KNOWN_KEYS = EXAMPLE_KEYS | set(KERAS_KEYS)


def describe_expectation(spec: Any, lang: str) -> list[str]:
    """Readable sentences for a ``[runtime.bad]``-style expectation (other shapes verbatim)."""
    if not isinstance(spec, Mapping):
        return [md.code(plain(spec))] if spec not in (None, "", [], {}) else []
    sentences: list[str] = []
    raises = spec.get("raises")
    if isinstance(raises, str):
        sentence = label(lang, "raises", exc=md.code(raises))
        if isinstance(spec.get("match"), str):
            sentence += " " + label(lang, "matching", pattern=md.code(spec["match"]))
        sentences.append(sentence)
    else:
        sentences.append(label(lang, "finishes"))
    for key, text in (
        ("stdout", "stdout_has"),
        ("stdout_not", "stdout_not"),
        ("stderr", "stderr_has"),
        ("stderr_not", "stderr_not"),
    ):
        for pattern in _strings(spec.get(key)):
            sentences.append(label(lang, text, pattern=md.code(pattern)))
    for key, text in (("count", "count"), ("stderr_count", "stderr_count")):
        counts = spec.get(key)
        if isinstance(counts, Mapping):
            for pattern, count in counts.items():
                sentences.append(label(lang, text, pattern=md.code(str(pattern)), count=count))
    probe = spec.get("probe")
    if isinstance(probe, Mapping):
        expect = probe.get("expect")
        wanted = (
            ", ".join(f"{name} {value}" for name, value in expect.items())
            if isinstance(expect, Mapping)
            else ""
        )
        sentences.append(
            label(
                lang,
                "probe",
                kind=md.code(str(probe.get("kind", "?"))),
                target=md.code(str(probe.get("target", "?"))),
                expect=md.code(wanted) if wanted else "",
            )
        )
    for key, value in spec.items():
        if key not in _KNOWN_KEYS:
            sentences.append(f"{md.escape(str(key))}: {md.code(plain(value))}")
    return sentences


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def plain(value: Any, indent: str = "") -> str:
    """Any JSON value as readable, indented plain text (ANSI escapes removed, long output cut)."""
    lines = _plain_lines(value, indent)
    if len(lines) > _MAX_LINES:
        cut = len(lines) - _MAX_LINES
        lines = [*lines[:_MAX_LINES], f"{indent}… ({cut} more lines)"]
    return "\n".join(lines)


def _plain_lines(value: Any, indent: str) -> list[str]:
    if isinstance(value, str):
        return [indent + line for line in _ANSI.sub("", value).splitlines()] or [indent]
    if isinstance(value, Mapping):
        out: list[str] = []
        for key, item in value.items():
            if _is_scalar(item):
                out.append(f"{indent}{key}: {_scalar(item)}")
            else:
                out.append(f"{indent}{key}:")
                out.extend(_plain_lines(item, indent + "  "))
        return out or [indent + "{}"]
    if isinstance(value, list):
        out = []
        for item in value:
            if _is_scalar(item):
                out.append(f"{indent}- {_scalar(item)}")
            else:
                out.append(f"{indent}-")
                out.extend(_plain_lines(item, indent + "  "))
        return out or [indent + "[]"]
    return [indent + _scalar(value)]


def _is_scalar(value: Any) -> bool:
    return not isinstance(value, (Mapping, list)) and not (isinstance(value, str) and "\n" in value)


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    return _ANSI.sub("", str(value))
