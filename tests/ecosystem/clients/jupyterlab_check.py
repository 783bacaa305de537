"""Open a notebook in JupyterLab with headless Chromium and report what tflsp shows there.

Run with the JupyterLab environment's interpreter (it has Playwright):

    python jupyterlab_check.py URL [SCREENSHOT]

Prints one JSON object: the flagged text, the index of the cell that holds it, and the
diagnostic's tooltip text (message and source), read after hovering like a user would.
Also passes on JupyterLab 4.1.8 with the same jupyterlab-lsp (checked by hand).
"""

from __future__ import annotations

import json
import sys

from playwright.sync_api import sync_playwright

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main(url: str, screenshot: str | None) -> int:
    report: dict[str, object] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=CHROMIUM_FLAGS
        )
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        try:
            page.goto(url)
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
            # jupyterlab-lsp draws diagnostics as CodeMirror lint ranges.
            mark = page.locator(".jp-Cell .cm-lintRange").first
            mark.wait_for(timeout=90_000)
            report["text"] = mark.inner_text()
            report["classes"] = mark.get_attribute("class")
            report["cell"] = page.locator(".jp-Notebook .jp-Cell").evaluate_all(
                "cells => cells.findIndex(c => c.querySelector('.cm-lintRange'))"
            )
            # As a user would: click into the cell, move away, then hover the underline
            # (older JupyterLab shows the lint tooltip only in the active editor).
            mark.click()
            page.mouse.move(0, 0)
            mark.hover()
            tooltip = page.locator(".cm-tooltip-lint").first
            tooltip.wait_for(timeout=20_000)
            report["tooltip"] = tooltip.inner_text()
            if screenshot:
                page.screenshot(path=screenshot)
        except Exception as exc:  # report what the page looked like instead of a bare timeout
            report["error"] = f"{exc.__class__.__name__}: {exc}".splitlines()[0]
            if screenshot:
                page.screenshot(path=screenshot)
        finally:
            browser.close()
    print(json.dumps(report))
    return 0 if "error" not in report else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None))
