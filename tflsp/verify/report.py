"""Turning probe results into something people read, with pointers into the catalog.  Stdlib only."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
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
    """Give each finding the one catalog code its cause matches (``patterns``, a list of at
    most one code): the probe's own when it knows the cause, else the best symptom match of
    its text; and add a ``catalog`` list (code, name, title, fix) for them.  Returns ``result``."""
    patterns = list(catalog)
    by_code = {p.code: p for p in patterns}
    seen: dict[str, Pattern] = {}
    for finding in result.get("findings", []):
        given = [by_code[c] for c in finding.get("patterns", []) if c in by_code]
        # No "patterns" key: the probe does not know the cause; an empty list: it does, and no
        # pattern describes it.
        if "patterns" not in finding:
            text = f"{finding['message']}\n{finding.get('detail', '')}"
            given = patterns_for(text, patterns)
        matched = given[:1]
        finding["patterns"] = [p.code for p in matched]
        for pattern in matched:
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
    if result.get("reason"):
        lines.append(f"  skipped: {result['reason']}")
    plan = (result.get("details") or {}).get("plan") or {}
    for note in plan.get("notes", [])[:1]:
        lines.append(f"  ran: {note}")
    if plan.get("call") and plan.get("call_from") not in (None, "given"):
        lines.append(f"  inputs: {plan['call']} ({plan['call_from']})")
    for finding in result.get("findings", []):
        where = (
            f"{result.get('path')}:{finding['line']}"
            if finding.get("line")
            else str(result.get("path"))
        )
        codes = f" [{', '.join(finding['patterns'])}]" if finding.get("patterns") else ""
        lines.append(f"  {where}: {finding['severity']}: {finding['message']}{codes}")
        if finding.get("detail"):
            lines.extend(f"      | {line}" for line in str(finding["detail"]).splitlines())
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


# -- messages and Markdown for editors -------------------------------------------------------
_LABELS = {
    "en": {
        "title": "tflsp verification",
        "pass": "passed",
        "fail": "FAILED",
        "error": "could not run",
        "skip": "does not apply",
        "findings": "Findings",
        "observed": "Observed",
        "steps": "Steps",
        "catalog": "What the catalog says",
        "read_more": "Full explanation",
        "output": "Output of your code",
        "line": "line",
        "fix": "Fix",
        "catalog_title": "tflsp catalog verification",
        "expected": "expected",
        "observed_short": "observed",
        "failures": "Failures and errors",
    },
    "ja": {
        "title": "tflsp の検証",
        "pass": "成功",
        "fail": "失敗",
        "error": "実行できず",
        "skip": "対象外",
        "findings": "見つかったこと",
        "observed": "観測値",
        "steps": "手順",
        "catalog": "カタログの解説",
        "read_more": "詳しい解説",
        "output": "コードの出力",
        "line": "行",
        "fix": "直し方",
        "catalog_title": "tflsp カタログの検証",
        "expected": "期待",
        "observed_short": "観測",
        "failures": "失敗とエラー",
    },
}


def _label(lang: str, key: str) -> str:
    return (_LABELS.get(lang) or _LABELS["en"])[key]


def _first_paragraph(text: str) -> str:
    """The fix's opening sentence(s), without the code block it may introduce."""
    first = text.strip().split("\n\n", 1)[0]
    return " ".join(first.split()).rstrip(":").strip()


def catalog_hint(result: Mapping[str, Any], codes: Iterable[str], lang: str = "en") -> str:
    """``"\\nTFLxxx name: title\\nFix: ..."`` for the first of ``codes`` that :func:`annotate`
    found in the catalog, or ``""``."""
    entries = {entry["code"]: entry for entry in result.get("catalog", [])}
    for code in codes:
        entry = entries.get(code)
        if entry is None:
            continue
        hint = f"\n{entry['code']} {entry['name']}: {entry['title']}"
        if entry.get("fix"):
            hint += f"\n{_label(lang, 'fix')}: {_first_paragraph(entry['fix'])}"
        return hint
    return ""


def finding_message(result: Mapping[str, Any], finding: Mapping[str, Any], lang: str = "en") -> str:
    """One finding as a diagnostic message: the probe, what happened, and (when a catalog
    pattern matched, see :func:`annotate`) the pattern and the first line of its fix."""
    message = f"{result.get('probe')}: {finding['message']}"
    return message + catalog_hint(result, finding.get("patterns") or [], lang)


def error_summary(error: str) -> str:
    """The line of a probe error that says what went wrong.  TensorFlow's errors from graph
    code start with ``ValueError: in user code:`` and end with the actual message."""
    lines = [line.strip() for line in error.splitlines() if line.strip()]
    if not lines:
        return error.strip()
    first = lines[0]
    if first.endswith(":") and len(lines) > 1:
        kind = first.split(":", 1)[0]
        last = lines[-1]
        return last if last.startswith(kind) else f"{kind}: {last}"
    return first


def render_markdown(
    results: Iterable[Mapping[str, Any]],
    *,
    target: str,
    path: str | None = None,
    lang: str = "en",
    docs_url: Callable[[str], str | None] | None = None,
) -> str:
    """Probe results (annotated) as one Markdown report, as the editor shows it."""
    results = list(results)
    outcomes = [str(r.get("outcome")) for r in results if r.get("outcome") != "skip"]
    overall = (
        "pass"
        if all(o == "pass" for o in outcomes)
        else ("fail" if "fail" in outcomes else "error")
    )
    lines = [f"# {_label(lang, 'title')}: `{target}` — {_label(lang, overall)}", ""]
    versions = next((r.get("versions") for r in results if r.get("versions")), None) or {}
    facts = [f"`{path}`" if path else None]
    if versions:
        facts += [f"TensorFlow {versions.get('tensorflow')}", f"Keras {versions.get('keras')}"]
    seconds = sum(float(r.get("seconds") or 0) for r in results)
    facts.append(f"{seconds:.2f} s")
    lines += [" · ".join(f for f in facts if f), ""]
    catalog: dict[str, Mapping[str, Any]] = {}
    outputs: list[str] = []
    for result in results:
        outcome = str(result.get("outcome"))
        ms = float(result.get("seconds") or 0) * 1000
        lines += [f"## {result.get('probe')}: {_label(lang, outcome)} ({ms:.0f} ms)", ""]
        if result.get("error"):
            lines += [f"> {_md_line(str(result['error']))}", ""]
        if result.get("reason"):
            lines += [f"> {_md_line(str(result['reason']))}", ""]
        plan = (result.get("details") or {}).get("plan") or {}
        if plan.get("notes"):
            lines += [f"- {_md_line(str(note))}" for note in plan["notes"]] + [""]
        findings = result.get("findings") or []
        if findings:
            lines += [f"**{_label(lang, 'findings')}**", ""]
            for finding in findings:
                where = (
                    f" ({_label(lang, 'line')} {finding['line']})" if finding.get("line") else ""
                )
                codes = ", ".join(finding.get("patterns") or [])
                suffix = f" — {codes}" if codes else ""
                lines.append(
                    f"- **{finding.get('severity', 'warning')}**{where}: "
                    f"{_md_line(str(finding['message']))}{suffix}"
                )
                if finding.get("detail"):
                    # The whole exception text: the cause is often at its end.
                    detail = str(finding["detail"]).replace("```", "'''")
                    lines += ["", "  ```text", *(f"  {x}" for x in detail.splitlines()), "  ```"]
            lines.append("")
        if result.get("probe") == "saveload":
            steps = (result.get("details") or {}).get("steps") or []
            if steps:
                lines += [f"**{_label(lang, 'steps')}**", ""]
                for step in steps:
                    mark = "✓" if step.get("ok") else "✗"
                    lines.append(f"- {mark} {step.get('step')}")
                lines.append("")
        observed = _observations(result.get("observations") or {})
        if observed:
            lines += [f"{_label(lang, 'observed')}: `{observed}`", ""]
        for entry in result.get("catalog", []):
            catalog.setdefault(entry["code"], entry)
        output = (result.get("output") or {}).get("stdout") or ""
        if output.strip():
            outputs.append(f"{result.get('probe')}:\n{output.rstrip()}")
    if catalog:
        lines += [f"## {_label(lang, 'catalog')}", ""]
        for code, entry in catalog.items():
            lines += [f"### {code} `{entry['name']}`: {entry['title']}", ""]
            if entry.get("fix"):
                lines += [str(entry["fix"]).strip(), ""]
            url = docs_url(code) if docs_url is not None else None
            if url:
                lines += [f"[{_label(lang, 'read_more')}]({url})", ""]
    if outputs:
        text = "\n\n".join(outputs)
        if len(text) > 4000:
            text = text[-4000:]
        lines += [
            f"## {_label(lang, 'output')}",
            "",
            "```text",
            text.replace("```", "'''"),
            "```",
            "",
        ]
    return "\n".join(lines)


def render_catalog_markdown(
    results: Iterable[Mapping[str, Any]], *, summary: str, lang: str = "en"
) -> str:
    """Catalog verification results (``Result.as_dict()``) as a Markdown report."""
    results = list(results)
    lines = [f"# {_label(lang, 'catalog_title')}", "", summary, ""]
    lines += ["| pattern | example | Keras | status | s |", "|---|---|---|---|---|"]
    for r in results:
        status = str(r.get("status"))
        shown = f"**{status}**" if status in ("fail", "error") else status
        lines.append(
            f"| {r.get('pattern')} `{r.get('name')}` | {r.get('example')}.py | {r.get('keras')} "
            f"| {shown} | {float(r.get('seconds') or 0):.1f} |"
        )
    lines.append("")
    failed = [r for r in results if r.get("status") in ("fail", "error")]
    if failed:
        lines += [f"## {_label(lang, 'failures')}", ""]
        for r in failed:
            lines += [f"### {r.get('pattern')} {r.get('name')} {r.get('example')}.py", ""]
            if r.get("note"):
                lines += [f"> {_md_line(str(r['note']))}", ""]
            for check in r.get("checks") or []:
                if not check.get("ok"):
                    lines.append(
                        f"- {_label(lang, 'expected')}: {_md_line(str(check.get('expect')))}; "
                        f"{_label(lang, 'observed_short')}: {_md_line(str(check.get('observed')))}"
                    )
            lines.append("")
    return "\n".join(lines)


def _md_line(text: str) -> str:
    """One line of Markdown: newlines folded, nothing that would open a code block."""
    return " ".join(text.split()).replace("```", "'''")
