"""Verifier results for the editor: diagnostics on the verified code, report files, progress.

Pure helpers for :mod:`tflsp.server.verification`: what a finished probe becomes
(:func:`diagnostics_for`, :func:`write_report`), where a lens's class or function is
(:func:`definition`), and one LSP work-done progress (:class:`WorkDone`).
"""

from __future__ import annotations

import itertools
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from tflsp.server.texts import text
from tflsp.server.verify_pins import PinnedDiagnostic

if TYPE_CHECKING:
    from tflsp.server.server import TflspServer
    from tflsp.server.workspace import Target

SEVERITY = {"error": 1, "warning": 2, "info": 3, "hint": 4}
REPORTS_KEPT = 50


class WorkDone:
    """One work-done progress, or nothing at all when the client has no token for it."""

    def __init__(self, server: TflspServer, token: Any) -> None:
        self.server = server
        self.token = token
        self._message = ""
        self._percentage = 0
        self._ended = token is None

    def begin(self, title: str) -> None:
        if self.token is None:
            return
        self.server.work_done_progress.begin(
            self.token, types.WorkDoneProgressBegin(title=title, cancellable=True, percentage=0)
        )

    def report(self, message: str, percentage: int | None = None) -> None:
        if self._ended:
            return
        # Percentages never go backwards; the same message twice is not news.
        if percentage is not None:
            percentage = max(self._percentage, min(100, percentage))
        if message == self._message and percentage in (None, self._percentage):
            return
        self._message = message
        if percentage is not None:
            self._percentage = percentage
        self.server.work_done_progress.report(
            self.token,
            types.WorkDoneProgressReport(message=message, percentage=self._percentage),
        )

    def on_cancel(self, callback: Callable[[], None]) -> None:
        future = self.server.work_done_progress.tokens.get(self.token)
        if future is not None:
            future.add_done_callback(lambda f: callback() if f.cancelled() else None)

    def end(self, message: str) -> None:
        if self._ended:
            return
        self._ended = True
        self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
        self.server.work_done_progress.tokens.pop(self.token, None)


def diagnostics_for(
    results: list[dict[str, Any]],
    header: int,
    lang: str,
    link: Callable[[str], str | None],
) -> list[PinnedDiagnostic]:
    """Probe results (annotated) -> diagnostics on the class or function's name.

    A finding's own line, when it has one, becomes related information.  Severity follows the
    outcome: each finding keeps its own, a probe that could not run is a warning, and a run
    where everything passed leaves one hint saying so.
    """
    from tflsp.verify.report import catalog_hint, error_summary, finding_message

    items: list[PinnedDiagnostic] = []
    for result in results:
        probe = str(result.get("probe"))
        if result.get("outcome") == "error":
            error = error_summary(str(result.get("error") or "unknown error"))
            # annotate() matched the exception against the catalog's symptoms.
            codes = [str(entry["code"]) for entry in result.get("catalog", [])]
            items.append(
                PinnedDiagnostic(
                    SEVERITY["warning"],
                    text("verify_could_not_run", lang, probe=probe, error=error)
                    + catalog_hint(result, codes, lang),
                    code=codes[0] if codes else None,
                    href=link(codes[0]) if codes else None,
                )
            )
        for finding in result.get("findings", []):
            codes = finding.get("patterns") or []
            code = codes[0] if codes else None
            line = finding.get("line")
            related = (
                ((int(line) - header, text("verify_related", lang, probe=probe)),)
                if isinstance(line, int) and line != header
                else ()
            )
            items.append(
                PinnedDiagnostic(
                    SEVERITY.get(str(finding.get("severity")), 2),
                    finding_message(result, finding, lang),
                    code=code,
                    href=link(code) if code else None,
                    related=related,
                )
            )
    ran = [r for r in results if r.get("outcome") != "skip"]
    if ran and all(r.get("outcome") == "pass" for r in ran):
        versions = next((r.get("versions") for r in results if r.get("versions")), None) or {}
        items.append(
            PinnedDiagnostic(
                SEVERITY["hint"],
                text(
                    "verify_passed",
                    lang,
                    tensorflow=versions.get("tensorflow", "?"),
                    keras=versions.get("keras", "?"),
                    probes=", ".join(str(r.get("probe")) for r in ran),
                ),
            )
        )
    return items


def definition(doc: Target, name: str, near: int, function: bool) -> tuple[int | None, str]:
    """(module line of the ``class``/``def`` named ``name`` nearest to ``near``, its kind)."""
    result = doc.result
    if result is None or result.summary is None:
        return None, "function" if function else ""
    summary = result.summary
    best: tuple[int, int, str] | None = None  # (distance, line, kind)
    for view in result.blocks:
        facts = view.analysis.facts
        offset = view.start_line - 1
        if function:
            candidates = [
                (fn.line + offset, "function") for fn in facts.functions if name in (fn.id, fn.name)
            ]
        else:
            candidates = [
                (cls.line + offset, summary.keras_classes.get(cls.id) or "")
                for cls in facts.classes
                if name in (cls.id, cls.name)
            ]
        for line, kind in candidates:
            distance = abs(line - near)
            if best is None or distance < best[0]:
                best = (distance, line, kind)
    if best is None:
        return near, "function" if function else ""
    return best[1], best[2]


_reports: Path | None = None
_report_ids = itertools.count(1)


def reports_dir() -> Path:
    """A private directory (mode 0700) for report files, shared by the user's servers so that
    pruning bounds it; a fresh one when that name is taken by something else."""
    global _reports
    if _reports is not None and _reports.is_dir():
        return _reports
    uid = os.getuid() if hasattr(os, "getuid") else None
    if uid is not None:
        folder = Path(tempfile.gettempdir()) / f"tflsp-reports-{uid}"
        try:
            folder.mkdir(mode=0o700, exist_ok=True)
            info = folder.lstat()  # not a symlink someone else planted
            if (
                stat.S_ISDIR(info.st_mode)
                and info.st_uid == uid
                and stat.S_IMODE(info.st_mode) == 0o700
            ):
                _reports = folder
                return folder
        except OSError:
            pass
    _reports = Path(tempfile.mkdtemp(prefix="tflsp-reports-"))
    return _reports


def write_report(markdown: str, name: str) -> Path:
    """Write a report as ``<name>-<time>-<n>.md``; only the newest few are kept."""
    folder = reports_dir()
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name) or "report"
    path = folder / f"{stem}-{time.strftime('%H%M%S')}-{os.getpid()}-{next(_report_ids)}.md"
    path.write_text(markdown, encoding="utf-8")
    reports = sorted(folder.glob("*.md"), key=_age, reverse=True)
    for stale in reports[REPORTS_KEPT:]:
        stale.unlink(missing_ok=True)
    return path


def _age(path: Path) -> int:
    try:
        return path.stat().st_mtime_ns
    except OSError:  # another server pruned it just now
        return 0
