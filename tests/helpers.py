"""Small helpers shared by the tests."""

from __future__ import annotations

import textwrap
from pathlib import Path

from tflsp.analysis.engine import Analyzer, ModuleResult
from tflsp.catalog import load_catalog
from tflsp.settings import Settings

CATALOG = load_catalog()
REPO = Path(__file__).resolve().parent.parent


def analyzer(
    select: str | tuple[str, ...] = "ALL", target_keras: str = "3", **settings: object
) -> Analyzer:
    selection = (select,) if isinstance(select, str) else select
    config = Settings(select=selection, target_keras=target_keras, **settings).lint_config(CATALOG)  # type: ignore[arg-type]
    return Analyzer(config, CATALOG, strict=True)


def analyze(
    source: str, select: str | tuple[str, ...] = "ALL", target_keras: str = "3"
) -> ModuleResult:
    return analyzer(select, target_keras).analyze(textwrap.dedent(source))


def lint(
    source: str, select: str | tuple[str, ...] = "ALL", target_keras: str = "3"
) -> list[tuple[int, str]]:
    """``(line, code)`` of every diagnostic for dedented ``source``."""
    return [(d.line, d.code) for d in analyze(source, select, target_keras).diagnostics]


def codes(source: str, select: str | tuple[str, ...] = "ALL", target_keras: str = "3") -> list[str]:
    return [code for _, code in lint(source, select, target_keras)]


def require(condition: bool, reason: str) -> None:
    """Skip when a tool a test drives is missing; fail instead under ``scripts/test.sh``.

    The test script installs every tool, so a skip there would hide a broken set-up.
    """
    import os

    import pytest

    if condition:
        return
    if os.environ.get("TFLSP_REQUIRE_ALL"):
        pytest.fail(f"required for the full suite: {reason}")
    pytest.skip(reason)


def shared_dir(*parts: str) -> Path:
    """A folder of ``../shared`` (real code and research nobody on the team wrote), or a skip.

    ``TFLSP_SHARED`` overrides the location.  A user's clone has no ``../shared``, so its
    absence skips the test with a clear message even under ``scripts/test.sh``.
    """
    import os

    import pytest

    root = Path(os.environ.get("TFLSP_SHARED") or REPO.parent / "shared")
    folder = root.joinpath(*parts)
    if not folder.exists():
        pytest.skip(
            f"{folder} is absent: this test reads real code that is not part of the project "
            "(set TFLSP_SHARED to the folder that has corpus/ and research/)"
        )
    return folder


def opens(url: str) -> bool:
    """A ``file://`` link names a file that exists (what a browser or editor would open)."""
    from urllib.parse import unquote, urlparse

    parsed = urlparse(url)
    return parsed.scheme == "file" and Path(unquote(parsed.path)).is_file()


def docs_link(code: str, lang: str = "en") -> str:
    """The link tflsp shows for a pattern with the default settings; it must open a page.

    That page is the built HTML site when there is one (``$TFLSP_DOCS_DIR``, the checkout's
    ``docs/_build/html``, or a wheel's copy), else the pattern's explanation file.
    """
    from tflsp.cli.links import docs_url

    url = docs_url("", CATALOG, code, lang)
    assert url is not None and opens(url), url
    pattern = CATALOG[code]
    assert pattern.slug in url or f"/{pattern.folder.name}/explanation." in url, url
    return url
