"""The real documentation, built with ``sphinx-build -W`` in both languages from the catalog."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.conftest import ROOT, Sites, run_parallel, sphinx_command
from tests.docs.htmlcheck import broken_links, captioned_code_blocks, has_class, read_page
from tflsp.catalog import load_catalog, parse_markers
from tflsp.catalog.markers import strip_markers
from tflsp.cli.links import docs_url, page_path

LANGS = ("en", "ja")


def _distinctive_lines(path: Path) -> list[str]:
    """Code lines of an example as the page shows them (markers stripped, no blank lines)."""
    text = strip_markers(path.read_text(encoding="utf-8"))
    return [line.strip() for line in text.splitlines() if len(line.strip()) > 6]


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("lang", LANGS)
def test_build_passes_with_warnings_as_errors(sites: Sites, lang: str) -> None:
    build = sites.builds[lang]
    assert build.returncode == 0, "sphinx-build -W failed:\n" + "\n".join(build.warnings)


def test_building_never_imports_tensorflow(sites: Sites) -> None:
    assert all(b.outdir.joinpath("index.html").is_file() for b in sites.builds.values())
    log = sites.import_log.read_text(encoding="utf-8") if sites.import_log.exists() else ""
    assert log == "", log


@pytest.mark.parametrize("lang", LANGS)
def test_every_pattern_page_shows_both_examples_and_what_tensorflow_did(
    sites: Sites, lang: str
) -> None:
    catalog = load_catalog()
    assert len(catalog) > 0
    for pattern in catalog:
        relative = page_path(catalog, pattern.code, lang)
        assert relative is not None
        page = read_page(sites.html / relative)
        text = _flat(page.text)
        assert pattern.title_in(lang) in text
        for example in (pattern.bad_path, pattern.good_path):
            for line in _distinctive_lines(example):
                assert _flat(line) in text, f"{pattern.code}: {example.name} line missing: {line}"
        examples = captioned_code_blocks(sites.html / relative)
        assert len(examples) == 2, f"{pattern.code}: expected bad.py and good.py blocks"
        assert not any("# [TFL" in block for block in examples), "markers must be hidden"
        flagged = {line for line, code in parse_markers(pattern.bad_path.read_text()) if code}
        assert has_class(page, "hll") or not flagged, "flagged lines must be highlighted"
        verified = sum(1 for c in page.classes if {"tflsp-observed", "tflsp-verified"} <= c)
        assert verified == len(pattern.keras), (
            f"{pattern.code}: {verified} verified observation(s) for {pattern.keras}; "
            "refresh docs/verification.json"
        )


@pytest.mark.parametrize("lang", LANGS)
def test_every_docs_url_resolves_to_a_built_page(sites: Sites, lang: str) -> None:
    """The links the CLI and the language server put on diagnostics (codeDescription.href)."""
    catalog = load_catalog()
    base = sites.html.as_uri() + "/"
    for code in catalog.codes():
        url = docs_url(base, catalog, code, lang)
        assert url is not None and url.startswith(base)
        assert (sites.html / url[len(base) :]).is_file(), url


def test_no_internal_link_is_broken(sites: Sites) -> None:
    assert broken_links(sites.html) == []


def test_both_languages_have_the_same_pages_and_link_to_each_other(sites: Sites) -> None:
    english = {p.relative_to(sites.html) for p in sites.html.rglob("*.html")}
    english = {p for p in english if p.parts[0] != "ja"}
    japanese = {p.relative_to(sites.html / "ja") for p in (sites.html / "ja").rglob("*.html")}
    assert english == japanese
    for relative in sorted(english):
        for page, other in (
            (sites.html / relative, sites.html / "ja" / relative),
            (sites.html / "ja" / relative, sites.html / relative),
        ):
            switch = [
                link
                for link in read_page(page).links
                if (page.parent / link).resolve() == other.resolve()
            ]
            assert switch, f"{page} has no link to {other}"


def test_symptom_index_lists_every_symptom(sites: Sites) -> None:
    catalog = load_catalog()
    page = _flat(read_page(sites.html / "patterns/symptoms.html").text)
    for pattern in catalog:
        for symptom in pattern.symptoms:
            assert _flat(symptom) in page, symptom


def test_pattern_index_lists_every_pattern_with_its_facts(sites: Sites) -> None:
    catalog = load_catalog()
    for lang in LANGS:
        root = sites.html if lang == "en" else sites.html / "ja"
        page = read_page(root / "patterns/index.html")
        text = _flat(page.text)
        for pattern in catalog:
            assert f"{pattern.code} {pattern.name}" in text
            assert f"patterns/{pattern.slug}.html" in " ".join(page.links) or any(
                link.endswith(f"{pattern.slug}.html") for link in page.links
            )


def test_configuration_reference_covers_every_setting(sites: Sites) -> None:
    from tflsp.settings import SETTINGS

    for lang in LANGS:
        root = sites.html if lang == "en" else sites.html / "ja"
        page = read_page(root / "guide/configuration.html")
        for spec in SETTINGS:
            assert f"setting-{spec.key}" in page.ids
            description = spec.description_ja if lang == "ja" else spec.description_en
            words = re.sub(r"`", "", description).split()[:3]
            assert _flat(" ".join(words)) in _flat(page.text).replace("`", "")


def test_linkcheck_passes_for_internal_links(sites: Sites) -> None:
    base = sites.root.parent
    commands = {
        lang: [
            *sphinx_command(
                "linkcheck", build.srcdir, base / f"linkcheck-{lang}", base / "doctrees" / lang
            ),
            # Only links count here; the record is checked by the HTML build.
            "-D",
            "suppress_warnings=tflsp.unverified,tflsp.mismatch",
        ]
        for lang, build in sites.builds.items()
    }
    for lang, (code, output) in run_parallel(commands).items():
        report = (base / f"linkcheck-{lang}" / "output.txt").read_text(encoding="utf-8")
        assert "broken" not in report, report
        assert code == 0, output


def test_a_second_build_generates_identical_sources(sites: Sites, tmp_path: Path) -> None:
    """Determinism: wipe what the first build generated, build again, compare byte for byte."""
    from tflsp.sphinxext import snapshot
    from tflsp.sphinxext.generate import OWNED_DIRS

    for build in sites.builds.values():
        for owned in OWNED_DIRS:
            shutil.rmtree(build.srcdir / owned)
        assert snapshot(build.srcdir) == {}
    # The dummy builder reads every page but writes none: generation is all that matters here.
    commands = {
        lang: sphinx_command(
            "dummy", build.srcdir, tmp_path / "out" / lang, tmp_path / "doctrees" / lang
        )
        for lang, build in sites.builds.items()
    }
    run_parallel(commands)
    for lang, build in sites.builds.items():
        assert snapshot(build.srcdir) == sites.generated[lang]


@pytest.mark.e2e
def test_screenshot_script_renders_pages_in_chromium(sites: Sites) -> None:
    out = ROOT / "test-artifacts" / "docs-screenshots"
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "scripts/docs_screenshots.py"),
            "--site",
            str(sites.html),
            "--out",
            str(out),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stderr
    shots = sorted(out.glob("*.png"))
    assert len(shots) >= 5
    for shot in shots:
        data = shot.read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000, shot


@pytest.mark.parametrize("lang", LANGS)
def test_every_href_the_language_server_emits_resolves(sites: Sites, lang: str) -> None:
    """Open every bad example in the real server; follow each diagnostic's codeDescription."""
    from tests.server.raw import RawServer

    catalog = load_catalog()
    base = sites.html.as_uri() + "/"
    seen: set[str] = set()
    for keras in ("3", "2"):
        server = RawServer()
        try:
            server.initialize(
                initializationOptions={
                    "select": ["ALL"],
                    "target-keras": keras,
                    "lang": lang,
                    "docs-base-url": base,
                }
            )
            for pattern in catalog:
                if not pattern.applies_to(int(keras)):
                    continue
                uri = pattern.bad_path.as_uri()
                server.open(uri, pattern.bad_path.read_text(encoding="utf-8"))
                for diagnostic in server.diagnostics(uri, 1):
                    href = diagnostic["codeDescription"]["href"]
                    assert href.startswith(base), href
                    assert (sites.html / href[len(base) :]).is_file(), href
                    seen.add(diagnostic["code"])
        finally:
            server.shutdown()
    assert seen >= set(catalog.codes())
