"""Where a pattern's documentation is: the one answer for every link tflsp shows.

Diagnostics (``codeDescription.href``), hovers, the "open the documentation" action, the CLI's
JSON and SARIF, and ``tflsp docs`` all link through :func:`docs_url`.  No site is published
yet, so by default (``docs-base-url`` empty) links go to the HTML documentation installed with
tflsp (``file://`` addresses):

1. ``$TFLSP_DOCS_DIR`` when set (a site built elsewhere);
2. ``docs/_build/html`` of a source checkout, once built (``tflsp docs`` explains how);
3. the site a release wheel carries (``tflsp/data/docs/html``, built with the wheel).

Without any of them (an editable checkout whose docs were never built) a link goes to the
pattern's explanation file in the catalog: a real page, in the same language, that every
install has.  A ``docs-base-url`` setting links to ``<base>patterns/<CODE>-<name>.html``.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

from tflsp.catalog import Catalog

PACKAGE_DIR = Path(__file__).resolve().parents[1]
# Where the wheel build puts the HTML site (see scripts/tflsp_build.py).
PACKAGED_SITE = PACKAGE_DIR / "data" / "docs" / "html"
CHECKOUT_SITE = PACKAGE_DIR.parent / "docs" / "_build" / "html"


def _prefix(lang: str) -> str:
    """The Japanese site sits inside the English one."""
    return "ja/" if lang == "ja" else ""


def page_path(catalog: Catalog, code: str | None, lang: str) -> str | None:
    """A page's path relative to the site root (``ja/patterns/TFL101-print-in-graph.html``);
    the start page for no code; ``None`` for an unknown pattern."""
    if code is None:
        return f"{_prefix(lang)}index.html"
    pattern = catalog.get(code)
    if pattern is None:
        return None
    return f"{_prefix(lang)}patterns/{pattern.slug}.html"


def site_candidates() -> list[Path]:
    """The HTML sites to look in, in order (see the module documentation)."""
    configured = os.environ.get("TFLSP_DOCS_DIR")
    if configured:
        return [Path(configured)]
    return [CHECKOUT_SITE, PACKAGED_SITE]


def local_site() -> Path | None:
    """The first built site (one with a start page), if any."""
    for site in site_candidates():
        if (site / "index.html").is_file():
            return site
    return None


@lru_cache(maxsize=512)
def _local_page(site: Path | None, relative: str) -> str | None:
    """``file://`` address of ``relative`` in ``site``, if the page exists."""
    if site is None:
        return None
    page = site / relative
    return page.resolve().as_uri() if page.is_file() else None


def local_url(catalog: Catalog, code: str, lang: str) -> str | None:
    """The installed page of a pattern, else its explanation file."""
    pattern = catalog.get(code)
    if pattern is None:
        return None
    site = local_site()
    for language in dict.fromkeys((lang, "en")):
        relative = page_path(catalog, pattern.code, language)
        found = _local_page(site, relative) if relative is not None else None
        if found is not None:
            return found
    explanation = pattern.folder / f"explanation.{lang}.md"
    if not explanation.is_file():
        explanation = pattern.folder / "explanation.en.md"
    return explanation.resolve().as_uri()


def docs_url(base: str, catalog: Catalog, code: str, lang: str = "en") -> str | None:
    """The link to a pattern's page: under ``base`` (the ``docs-base-url`` setting) when it is
    set, else the documentation installed with tflsp.  ``None`` for an unknown code."""
    if not base:
        return local_url(catalog, code, lang)
    relative = page_path(catalog, code, lang)
    return None if relative is None else base + relative


def site_url(base: str, lang: str) -> str | None:
    """The documentation's start page: under ``base``, else the installed one (if built)."""
    if base:
        return base + _prefix(lang)
    return _local_page(local_site(), f"{_prefix(lang)}index.html")
