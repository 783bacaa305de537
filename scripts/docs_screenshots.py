"""Render a few pages of the built docs to PNG with headless Chromium, for a person to look at.

Usage::

    python scripts/docs_screenshots.py [--build] [--site docs/_build/html]
                                       [--out test-artifacts/docs-screenshots]

``--build`` first builds both sites (English and Japanese) with ``sphinx-build -W``.  The pages
shown are the start page, the pattern index, the symptom index, the configuration reference,
and the first pattern page in both languages (found in the built site, so the script keeps
working as patterns are added).  Needs Debian's ``chromium`` (or ``--chromium PATH``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
)


def pages(site: Path) -> list[tuple[str, str]]:
    """``(screenshot name, site-relative page)``; the pattern page is the first one built."""
    shown = [
        ("index", "index.html"),
        ("patterns-index", "patterns/index.html"),
        ("symptoms", "patterns/symptoms.html"),
        ("configuration", "guide/configuration.html"),
        ("index-ja", "ja/index.html"),
    ]
    built = sorted((site / "patterns").glob("TFL*.html"))
    if built:
        first = built[0].name
        code = first.split("-", 1)[0]
        shown += [(f"{code}-en", f"patterns/{first}"), (f"{code}-ja", f"ja/patterns/{first}")]
    return shown


def build(site: Path) -> None:
    for source, out in (("docs", site), ("docs/ja", site / "ja")):
        command = [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html"]
        subprocess.run([*command, str(ROOT / source), str(out)], check=True, cwd=ROOT)


def screenshot(chromium: str, page: Path, target: Path, size: str, profile: Path) -> float:
    started = time.perf_counter()
    subprocess.run(
        [
            chromium,
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={size}",
            f"--screenshot={target}",
            page.as_uri(),
        ],
        check=True,
        timeout=90,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - started


def _has_japanese_font() -> bool:
    found = subprocess.run(["fc-list", ":lang=ja"], capture_output=True, text=True, check=False)
    return bool(found.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", type=Path, default=ROOT / "docs/_build/html")
    parser.add_argument("--out", type=Path, default=ROOT / "test-artifacts/docs-screenshots")
    parser.add_argument("--build", action="store_true", help="build both sites first")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--window-size", default="1280,1800", help="WIDTH,HEIGHT in pixels")
    args = parser.parse_args(argv)

    if args.build:
        build(args.site)
    if not Path(args.chromium).exists():
        print(f"chromium not found at {args.chromium} (apt-get install chromium)", file=sys.stderr)
        return 2
    if shutil.which("fc-list") and not _has_japanese_font():
        print(
            "warning: no Japanese font found; Japanese pages will show boxes "
            "(apt-get install fonts-ipafont-gothic or fonts-noto-cjk)",
            file=sys.stderr,
        )
    args.out.mkdir(parents=True, exist_ok=True)
    missing = 0
    with tempfile.TemporaryDirectory(prefix="tflsp-chromium-") as profile:
        for name, relative in pages(args.site):
            page = args.site / relative
            if not page.is_file():
                print(f"missing: {page} (build the docs first, or pass --build)", file=sys.stderr)
                missing += 1
                continue
            target = args.out / f"{name}.png"
            seconds = screenshot(args.chromium, page, target, args.window_size, Path(profile))
            print(f"{target}  {target.stat().st_size:>8} bytes  {seconds:.1f} s")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
