"""``tflsp docs [CODE]``: open the locally built page, or say how to build it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.helpers import copy_patterns, load
from tflsp.catalog import Catalog
from tflsp.cli import docs as docs_cli
from tflsp.cli.main import main


@pytest.fixture
def catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Catalog:
    loaded = load(copy_patterns(tmp_path / "catalog"))
    monkeypatch.setattr(docs_cli, "load_catalog", lambda: loaded)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TFLSP_DOCS_DIR", raising=False)
    return loaded


@pytest.fixture
def site(tmp_path: Path, catalog: Catalog) -> Path:
    root = tmp_path / "html"
    for relative in ("index.html", "ja/index.html"):
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text("<html></html>", encoding="utf-8")
    for pattern in catalog:
        for prefix in ("", "ja/"):
            page = root / f"{prefix}patterns/{pattern.slug}.html"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text("<html></html>", encoding="utf-8")
    return root


def test_prints_the_local_page_of_a_code_or_a_name(
    site: Path, catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    pattern = next(iter(catalog))
    assert main(["docs", pattern.code, "--print", "--build-dir", str(site)]) == 0
    assert capsys.readouterr().out.strip() == (site / f"patterns/{pattern.slug}.html").as_uri()
    assert main(["docs", pattern.name, "--lang", "ja", "--print", "--build-dir", str(site)]) == 0
    assert capsys.readouterr().out.strip().endswith(f"/ja/patterns/{pattern.slug}.html")


def test_without_a_code_opens_the_start_page_in_a_browser(
    site: Path, catalog: Catalog, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened: list[str] = []
    monkeypatch.setattr(docs_cli.webbrowser, "open", lambda url: opened.append(url) or True)
    monkeypatch.setenv("TFLSP_DOCS_DIR", str(site))
    assert main(["docs", "--lang", "en"]) == 0
    assert opened == [(site / "index.html").as_uri()]


def test_a_missing_build_explains_how_to_build(
    tmp_path: Path, catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    pattern = next(iter(catalog))
    assert main(["docs", pattern.code, "--print", "--build-dir", str(tmp_path / "none")]) == 1
    err = capsys.readouterr().err
    assert "not built" in err
    assert "sphinx-build -b html docs docs/_build/html" in err
    assert "sphinx-build -b html docs/ja docs/_build/html/ja" in err
    # No site is published: no --online to offer, but the explanation file is named.
    assert "--online" not in err
    assert str(pattern.folder / "explanation.en.md") in err


def test_online_without_a_docs_base_url_is_a_usage_error(
    catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["docs", next(iter(catalog)).code, "--online", "--print"]) == 2
    assert "docs-base-url" in capsys.readouterr().err


def test_unknown_pattern_is_a_usage_error(
    site: Path, catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["docs", "TFL999", "--print", "--build-dir", str(site)]) == 2
    assert "TFL999" in capsys.readouterr().err


def test_online_uses_the_docs_base_url_setting(
    tmp_path: Path, catalog: Catalog, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[tool.tflsp]\ndocs-base-url = "https://example.invalid/tflsp"\n', encoding="utf-8"
    )
    pattern = next(iter(catalog))
    assert main(["docs", pattern.code, "--online", "--print", "--lang", "ja"]) == 0
    assert capsys.readouterr().out.strip() == (
        f"https://example.invalid/tflsp/ja/patterns/{pattern.slug}.html"
    )


def test_no_browser_still_prints_where_the_page_is(
    site: Path,
    catalog: Catalog,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(docs_cli.webbrowser, "open", lambda url: False)
    assert main(["docs", "--build-dir", str(site), "--lang", "en"]) == 0
    captured = capsys.readouterr()
    assert captured.out.strip() == (site / "index.html").as_uri()
    assert "no browser" in captured.err
