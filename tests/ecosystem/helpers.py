"""Shared by the ecosystem tests: run the real ``tflsp`` command, write notebooks."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
_CELL_IDS = itertools.count(1)


def run_tflsp(
    *args: str, cwd: Path, stdin: str | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": "C.UTF-8"}
    env.pop("LC_ALL", None)
    return subprocess.run(
        [sys.executable, "-m", "tflsp", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
    )


def code_cell(source: str | Sequence[str], **extra: Any) -> dict[str, Any]:
    lines = source if not isinstance(source, str) else source.splitlines(keepends=True)
    cell: dict[str, Any] = {
        "id": f"cell-{next(_CELL_IDS)}",  # nbformat 4.5 wants cell ids
        "cell_type": "code",
        "execution_count": None,
        "metadata": {},
        "outputs": [],
        "source": list(lines),
    }
    cell.update(extra)
    return cell


def markdown_cell(text: str) -> dict[str, Any]:
    return {
        "id": f"cell-{next(_CELL_IDS)}",
        "cell_type": "markdown",
        "metadata": {},
        "source": text.splitlines(keepends=True),
    }


def notebook(cells: list[dict[str, Any]], language: str = "python") -> dict[str, Any]:
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": language, "name": "python3"},
            "language_info": {"name": language},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def write_notebook(path: Path, data: dict[str, Any], **dump: Any) -> str:
    """Write as Jupyter does (indent 1, UTF-8, final newline) unless ``dump`` says otherwise."""
    options: dict[str, Any] = {"indent": 1, "ensure_ascii": False}
    options.update(dump)
    final_newline = options.pop("final_newline", True)
    text = json.dumps(data, **options) + ("\n" if final_newline else "")
    path.write_text(text, encoding="utf-8")
    return text
