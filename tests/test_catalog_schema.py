"""The catalog's shape: every entry complete in both languages, and malformed entries refused."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import CATALOG
from tflsp.catalog import FAMILIES, LANGUAGES, SECTIONS, CatalogError, load_catalog, load_pattern
from tflsp.catalog.loader import PATTERNS_DIR


def test_every_entry_has_both_languages_all_sections_and_compiling_examples() -> None:
    catalog = load_catalog(check_examples=True)
    assert len(catalog) == len([p for p in PATTERNS_DIR.iterdir() if p.is_dir()])
    for pattern in catalog:
        for lang in LANGUAGES:
            assert pattern.title[lang].strip()
            assert pattern.messages["default"][lang].strip()
            explanation = pattern.explanation(lang)
            assert explanation.lang == lang
            for section in SECTIONS:
                assert explanation[section].strip(), f"{pattern.code} {lang} {section}"
            if pattern.fix.available:
                assert pattern.fix.title[lang].strip()
        assert pattern.references, pattern.code
        assert pattern.code.startswith(FAMILIES[pattern.family][0])


def test_japanese_text_is_japanese() -> None:
    # A copy-pasted English text in the Japanese file would pass the section check.
    kana = re.compile(r"[\u3040-\u30ff]")
    for pattern in CATALOG:
        assert kana.search(pattern.title["ja"]), pattern.code
        for section in ("what", "why", "fix"):
            assert kana.search(pattern.explanation("ja")[section]), (pattern.code, section)


def test_codes_and_names_are_unique_and_folders_match() -> None:
    names = [p.name for p in CATALOG]
    assert len(set(names)) == len(names)
    for pattern in CATALOG:
        assert pattern.folder.name == pattern.slug


@pytest.fixture
def entry(tmp_path: Path) -> Path:
    """A private copy of one well-formed entry to break."""
    source = CATALOG["TFL101"].folder
    target = tmp_path / source.name
    shutil.copytree(source, target)
    load_pattern(target, check_examples=True)  # the copy itself is fine
    return target


def _problems(folder: Path) -> str:
    with pytest.raises(CatalogError) as caught:
        load_pattern(folder, check_examples=True)
    return str(caught.value)


def test_missing_japanese_explanation_is_refused(entry: Path) -> None:
    (entry / "explanation.ja.md").unlink()
    assert "explanation.ja.md is missing" in _problems(entry)


def test_missing_or_reordered_section_is_refused(entry: Path) -> None:
    path = entry / "explanation.en.md"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("## Version notes", "## Versions"), encoding="utf-8")
    assert "sections must be exactly" in _problems(entry)


def test_every_problem_is_listed_at_once(entry: Path) -> None:
    meta = entry / "pattern.toml"
    text = meta.read_text(encoding="utf-8")
    text = text.replace('severity = "warning"', 'severity = "fatal"')
    text = text.replace('family = "graph"', 'family = "gpu"')
    text = text.replace(
        'ja = "グラフ化されるコードの print() はトレース時にしか実行されない"\n', "", 1
    )
    meta.write_text('colour = "red"\n' + text, encoding="utf-8")
    problems = _problems(entry)
    for expected in (
        "severity must be one of",
        "family 'gpu'",
        "title.ja",
        "unknown keys ['colour']",
    ):
        assert expected in problems


def test_bad_example_without_markers_and_broken_good_example_are_refused(entry: Path) -> None:
    bad = entry / "bad.py"
    bad.write_text(bad.read_text(encoding="utf-8").replace("  # [TFL101]", ""), encoding="utf-8")
    (entry / "good.py").write_text("def broken(:\n", encoding="utf-8")
    problems = _problems(entry)
    assert "bad.py has no '# [TFLxxx]' markers" in problems
    assert "good.py is not valid Python" in problems


def test_folder_name_must_match_code_and_name(entry: Path, tmp_path: Path) -> None:
    renamed = entry.rename(tmp_path / "TFL101-printing")
    assert "folder must be named TFL101-print-in-graph" in _problems(renamed)


def test_a_malformed_entry_stops_the_whole_catalog(entry: Path) -> None:
    (entry / "pattern.toml").write_text("code = [\n", encoding="utf-8")
    with pytest.raises(CatalogError, match=r"cannot read pattern\.toml"):
        load_catalog(entry.parent)
