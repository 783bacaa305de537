"""Turning probe results into something people read, with pointers into the catalog.  Stdlib only."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tflsp.catalog import Catalog, Pattern
from tflsp.verify.hints import patterns_for


def _fix_text(pattern: Pattern, lang: str) -> str:
    """The first paragraph of "How to fix", with the code block it introduces (if any)."""
    section = pattern.explanation(lang).sections.get("fix", "").strip()
    first, _, rest = section.partition("\n\n")
    if first.rstrip().endswith(":") and rest.lstrip().startswith("```"):
        fence_end = rest.find("```", rest.find("```") + 3)
        if fence_end > 0:
            return f"{first}\n\n{rest[: fence_end + 3]}"
    return first


def annotate(
    result: dict[str, Any], catalog: Catalog | Iterable[Pattern], lang: str = "en"
) -> dict[str, Any]:
    """Add ``patterns`` (codes) to each finding whose message matches a catalog symptom, and a
    ``catalog`` list (code, name, title, fix) for all of them.  Returns ``result``."""
    patterns = list(catalog)
    seen: dict[str, Pattern] = {}
    for finding in result.get("findings", []):
        matched = patterns_for(finding["message"], patterns)
        finding["patterns"] = [p.code for p in matched[:3]]
        for pattern in matched[:3]:
            seen.setdefault(pattern.code, pattern)
    exception = result.get("exception")
    if exception:
        for pattern in patterns_for(exception.get("message", ""), patterns)[:3]:
            seen.setdefault(pattern.code, pattern)
    result["catalog"] = [
        {"code": p.code, "name": p.name, "title": p.title_in(lang), "fix": _fix_text(p, lang)}
        for p in seen.values()
    ]
    return result


def _observations(observations: Mapping[str, Any]) -> str:
    return " ".join(f"{k}={v}" for k, v in observations.items() if k != "outcome" and v is not None)


def render_text(result: Mapping[str, Any]) -> str:
    """A probe result as a short report (the CLI's text output; the server's report body)."""
    versions = result.get("versions") or {}
    header = (
        f"{result.get('probe')} {result.get('path')}::{result.get('target')}: "
        f"{str(result.get('outcome', '?')).upper()}"
        f"  (TensorFlow {versions.get('tensorflow', '?')}, Keras {versions.get('keras', '?')}, "
        f"{float(result.get('seconds') or 0) * 1000:.0f} ms)"
    )
    lines = [header]
    if result.get("error"):
        lines.append(f"  error: {result['error']}")
    for finding in result.get("findings", []):
        where = (
            f"{result.get('path')}:{finding['line']}"
            if finding.get("line")
            else str(result.get("path"))
        )
        codes = f" [{', '.join(finding['patterns'])}]" if finding.get("patterns") else ""
        lines.append(f"  {where}: {finding['severity']}: {finding['message']}{codes}")
    if result.get("probe") == "saveload":
        for step in (result.get("details") or {}).get("steps", []):
            state = "ok" if step.get("ok") else "FAILED"
            extra = (
                f" max|diff|={step['max_diff']:.3g}"
                if isinstance(step.get("max_diff"), (int, float))
                else ""
            )
            lines.append(f"    step {step['step']}: {state}{extra}")
    observations = _observations(result.get("observations") or {})
    if observations:
        lines.append(f"  observed: {observations}")
    for entry in result.get("catalog", []):
        lines.append(f"  see {entry['code']} {entry['name']}: {entry['title']}")
        if entry.get("fix"):
            fix_lines = entry["fix"].splitlines()
            lines.append("    fix: " + fix_lines[0])
            lines.extend("      " + line if line.strip() else "" for line in fix_lines[1:])
    return "\n".join(lines) + "\n"


SEVERITY_RANK = {"error": 1, "warning": 2, "info": 3, "hint": 4}  # LSP DiagnosticSeverity values


def diagnostics(
    result: Mapping[str, Any], fallback_line: int | None = None
) -> list[dict[str, Any]]:
    """Findings as editor-neutral diagnostics (0-based lines, LSP severity numbers).

    The language server turns each into an LSP ``Diagnostic`` with source ``tflsp-verify``;
    findings without a line land on ``fallback_line`` (the class or function header), and
    ``info`` findings are kept so the server can show them as hints if it wants.
    """
    out = []
    for finding in result.get("findings", []):
        line = finding.get("line") or fallback_line
        if line is None:
            continue
        codes = finding.get("patterns") or []
        out.append(
            {
                "line": int(line) - 1,
                "severity": SEVERITY_RANK.get(finding.get("severity", "warning"), 2),
                "message": f"{result.get('probe')}: {finding['message']}",
                "source": "tflsp-verify",
                "code": codes[0] if codes else None,
            }
        )
    return out
