"""The page generator on small catalogs: determinism, incremental writes, failures, warnings."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from tests.docs.helpers import FIXABLE, build, copy_patterns, load, mini_project, record_for
from tflsp.catalog import CatalogError
from tflsp.sphinxext import generate_sources, snapshot
from tflsp.sphinxext.generate import render_site
from tflsp.sphinxext.pages import PageError
from tflsp.sphinxext.quickfix import quick_fix_diffs
from tflsp.sphinxext.record import load_record


@pytest.fixture
def catalog_dir(tmp_path: Path) -> Path:
    return copy_patterns(tmp_path / "catalog")


def _generate(srcdir: Path, catalog_dir: Path, lang: str = "en"):  # type: ignore[no-untyped-def]
    return generate_sources(
        srcdir, lang, record_path=srcdir / "verification.json", catalog_dir=catalog_dir
    )


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_rendering_is_deterministic(catalog_dir: Path, tmp_path: Path, lang: str) -> None:
    catalog = load(catalog_dir)
    first = render_site(catalog, lang, tmp_path / "src", None, "verification.json", "refresh")
    second = render_site(
        load(catalog_dir), lang, tmp_path / "src", None, "verification.json", "refresh"
    )
    assert first.files == second.files
    assert {f"patterns/{p.slug}.md" for p in catalog} <= set(first.files)


def test_files_are_rewritten_only_when_their_content_changes(
    catalog_dir: Path, tmp_path: Path
) -> None:
    src = tmp_path / "src"
    first = _generate(src, catalog_dir)
    assert sorted(first.written) == sorted(first.files)
    stamps = {path: os.stat(src / path).st_mtime_ns for path in first.files}

    again = _generate(src, catalog_dir)
    assert again.written == [] and again.removed == []
    assert {path: os.stat(src / path).st_mtime_ns for path in first.files} == stamps

    folder = catalog_dir / f"{FIXABLE}-{load(catalog_dir)[FIXABLE].name}"
    explanation = folder / "explanation.en.md"
    text = explanation.read_text(encoding="utf-8")
    explanation.write_text(
        text.replace("## Why is this bad?\n", "## Why is this bad?\n\nAn added sentence.\n"),
        encoding="utf-8",
    )
    changed = _generate(src, catalog_dir)
    assert changed.written == [f"patterns/{folder.name}.md"]
    assert "An added sentence." in (src / changed.written[0]).read_text(encoding="utf-8")


def test_stale_generated_files_are_removed_and_hand_written_ones_kept(
    catalog_dir: Path, tmp_path: Path
) -> None:
    src = tmp_path / "src"
    (src / "patterns").mkdir(parents=True)
    (src / "patterns" / "TFL999-renamed-away.md").write_text("old", encoding="utf-8")
    (src / "guide").mkdir()
    (src / "guide" / "page.md").write_text("# mine", encoding="utf-8")
    result = _generate(src, catalog_dir)
    assert result.removed == ["patterns/TFL999-renamed-away.md"]
    assert (src / "guide" / "page.md").read_text(encoding="utf-8") == "# mine"
    assert set(snapshot(src)) == set(result.files)


def test_a_missing_section_stops_generation(catalog_dir: Path, tmp_path: Path) -> None:
    folder = next(p for p in catalog_dir.iterdir() if p.is_dir())
    explanation = folder / "explanation.ja.md"
    text = explanation.read_text(encoding="utf-8")
    explanation.write_text(text.split("## バージョンによる違い")[0], encoding="utf-8")
    with pytest.raises(CatalogError, match=folder.name):
        _generate(tmp_path / "src", catalog_dir, "ja")


def test_a_top_level_heading_inside_a_section_stops_generation(
    catalog_dir: Path, tmp_path: Path
) -> None:
    folder = next(p for p in catalog_dir.iterdir() if p.is_dir())
    explanation = folder / "explanation.en.md"
    text = explanation.read_text(encoding="utf-8")
    explanation.write_text(
        text.replace("## How to fix\n", "## How to fix\n\n# A stray title\n"), encoding="utf-8"
    )
    with pytest.raises(PageError, match="stray title"):
        _generate(tmp_path / "src", catalog_dir)


def test_headings_inside_code_fences_are_fine(catalog_dir: Path, tmp_path: Path) -> None:
    folder = next(p for p in catalog_dir.iterdir() if p.is_dir())
    explanation = folder / "explanation.en.md"
    text = explanation.read_text(encoding="utf-8")
    explanation.write_text(
        text.replace("## How to fix\n", "## How to fix\n\n```python\n# a comment\n```\n"),
        encoding="utf-8",
    )
    result = _generate(tmp_path / "src", catalog_dir)
    assert "# a comment" in result.files[f"patterns/{folder.name}.md"]


def test_sphinx_build_fails_on_a_malformed_entry(catalog_dir: Path, tmp_path: Path) -> None:
    folder = next(p for p in catalog_dir.iterdir() if p.is_dir())
    (folder / "explanation.en.md").write_text("## What it does\n\nOnly this.\n", encoding="utf-8")
    src = mini_project(tmp_path, catalog_dir, record_for(load_ok(catalog_dir, folder)))
    result = build(src, tmp_path / "out")
    assert result.returncode != 0
    assert "tflsp: cannot generate the pattern pages" in result.stderr
    assert folder.name in result.stderr


def load_ok(catalog_dir: Path, broken: Path):  # type: ignore[no-untyped-def]
    """The catalog without ``broken`` (to build a record for the others)."""
    from tflsp.catalog import load_pattern
    from tflsp.catalog.schema import Catalog

    patterns = {}
    for folder in sorted(catalog_dir.iterdir()):
        if folder != broken:
            pattern = load_pattern(folder)
            patterns[pattern.code] = pattern
    return Catalog(patterns=patterns)


def test_unverified_patterns_warn_so_a_strict_build_fails(
    catalog_dir: Path, tmp_path: Path
) -> None:
    catalog = load(catalog_dir)
    first = next(iter(catalog))
    missing = f"{first.code}:{first.keras[0]}"
    src = mini_project(tmp_path, catalog_dir, record_for(catalog, skip=(missing,)))
    result = build(src, tmp_path / "out")
    assert result.returncode == 1
    warnings = [line for line in result.stderr.splitlines() if "WARNING" in line]
    assert len(warnings) == 1, result.stderr
    assert "tflsp.unverified" in warnings[0] and first.code in warnings[0]
    assert re.search(rf"patterns/{first.slug}\.md:\d+: WARNING", warnings[0])
    page = (tmp_path / "out" / "patterns" / f"{first.slug}.html").read_text(encoding="utf-8")
    text = re.sub(r"<[^>]+>", "", page)
    assert "Not verified on this version" in text and "tflsp verify --catalog" in text


def test_a_complete_record_builds_cleanly_and_is_shown(catalog_dir: Path, tmp_path: Path) -> None:
    catalog = load(catalog_dir)
    src = mini_project(tmp_path, catalog_dir, record_for(catalog))
    result = build(src, tmp_path / "out")
    assert result.returncode == 0, result.stderr
    for pattern in catalog:
        page = (tmp_path / "out" / "patterns" / f"{pattern.slug}.html").read_text(encoding="utf-8")
        assert page.count("tflsp-verified") == len(pattern.keras)
        assert "observed by the test" in page
        if "keras3" in pattern.keras:
            assert "Observed on TensorFlow 2.21.0 / Keras 3.15.1" in page


def test_a_failed_verification_warns_and_is_shown(catalog_dir: Path, tmp_path: Path) -> None:
    catalog = load(catalog_dir)
    src = mini_project(tmp_path, catalog_dir, record_for(catalog, passed=False), language="ja")
    result = build(src, tmp_path / "out")
    assert result.returncode == 1
    assert "tflsp.mismatch" in result.stderr
    first = next(iter(catalog))
    page = (tmp_path / "out" / "patterns" / f"{first.slug}.html").read_text(encoding="utf-8")
    assert "カタログと TensorFlow の動作が食い違っています" in page


def test_the_quick_fix_is_shown_as_a_diff(catalog_dir: Path) -> None:
    catalog = load(catalog_dir)
    diffs = quick_fix_diffs(catalog[FIXABLE], catalog)
    assert len(diffs) == 1
    _, diff = diffs[0]
    removed = [line for line in diff.splitlines() if line.startswith("-") and "print(" in line]
    added = [line for line in diff.splitlines() if line.startswith("+") and "tf.print(" in line]
    assert removed and added and len(removed) == len(added)
    assert "# [" not in diff, "markers are not part of the displayed program"


def test_patterns_without_a_fix_show_no_diff(catalog_dir: Path) -> None:
    catalog = load(catalog_dir)
    for pattern in catalog:
        if not pattern.fix.available:
            assert quick_fix_diffs(pattern, catalog) == []
            page = render_site(catalog, "en", Path("/src"), None, "r.json", "cmd").files
            assert "```diff" not in page[f"patterns/{pattern.slug}.md"]


def test_examples_are_included_by_relative_path(catalog_dir: Path, tmp_path: Path) -> None:
    result = _generate(tmp_path / "src", catalog_dir)
    includes = re.findall(r"^```\{tflsp-example\} (.+)$", "".join(result.files.values()), re.M)
    assert includes and all(not Path(p).is_absolute() for p in includes)
    for include in includes:
        assert (tmp_path / "src" / "patterns" / include).resolve().is_file()


def test_japanese_pages_use_the_japanese_catalog_text(catalog_dir: Path, tmp_path: Path) -> None:
    catalog = load(catalog_dir)
    files = render_site(catalog, "ja", tmp_path, None, "r.json", "cmd").files
    for pattern in catalog:
        page = files[f"patterns/{pattern.slug}.md"]
        assert "## 何が起きるか" in page and "## 実際の動作" in page
        first_sentence = pattern.explanation("ja")["what"].split("。")[0]
        assert "".join(first_sentence.split()) in "".join(page.split())


def test_record_loader_reads_the_documented_shapes(tmp_path: Path) -> None:
    nested = {
        "tensorflow": "2.21.0",
        "results": [
            {
                "code": "TFL101",
                "keras": "keras3",
                "keras_version": "3.15.1",
                "bad": {"passed": True, "observed": "x"},
                "good": {"passed": True},
            }
        ],
    }
    flat = [
        {
            "pattern": "tfl101",
            "keras": 3,
            "example": "bad.py",
            "status": "pass",
            "observed": "x",
            "tensorflow_version": "2.21.0",
            "keras_version": "3.15.1",
        },
        {"pattern": "TFL101", "keras": "3", "program": "good", "ok": True},
    ]
    keyed = {
        "tensorflow": {"version": "2.21.0"},
        "keras": "3.15.1",
        "patterns": {
            "TFL101": [
                {"example": "bad", "passed": True, "observed": "x"},
                {"example": "good", "passed": True},
            ]
        },
    }
    runs = []
    for index, data in enumerate((nested, flat, keyed)):
        path = tmp_path / f"record{index}.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        record = load_record(path)
        assert record is not None
        run = record.get("TFL101", "keras3")
        assert run is not None, data
        runs.append(run)
    for run in runs:
        assert (run.tensorflow_version, run.keras_version, run.passed) == ("2.21.0", "3.15.1", True)
        assert [p.program for p in run.programs] == ["bad", "good"]
        assert run.programs[0].observed == "x"


def test_record_loader_failures(tmp_path: Path) -> None:
    from tflsp.sphinxext.record import RecordError

    assert load_record(tmp_path / "absent.json") is None
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError):
        load_record(broken)
    other = tmp_path / "other.json"
    other.write_text('{"something": 1}', encoding="utf-8")
    with pytest.raises(RecordError):
        load_record(other)


def test_reads_the_record_the_verifier_writes(tmp_path: Path) -> None:
    """Contract with tflsp/verify/record.py: its writer's output is what the docs read."""
    verify_record = pytest.importorskip("tflsp.verify.record")
    results = [
        verify_record.Result(
            pattern="TFL101",
            name="print-in-graph",
            keras=keras,
            example=example,
            status=status,
            expected={"count": {"^x = ": 1}},
            observed={"outcome": "finished", "exception": None, "stdout": ["x = 1"]},
            checks=({"expect": "1 stdout line(s) match '^x = '", "observed": "0", "ok": False},)
            if status == "fail"
            else (),
            tensorflow="2.21.0",
            keras_version=version,
            timestamp="2026-01-01T00:00:00Z",
        )
        for keras, version in (("3", "3.15.1"), ("2", "2.21.0"))
        for example, status in (("bad", "pass"), ("good", "fail" if keras == "2" else "pass"))
    ]
    runs = [{"keras": "3", "tensorflow": "2.21.0", "keras_version": "3.15.1"}]
    record = verify_record.merge(
        None, results, runs, known_patterns={"TFL101"}, tflsp_version="0.1.0"
    )
    path = tmp_path / "verification.json"
    verify_record.write_record(record, path)

    loaded = load_record(path)
    assert loaded is not None
    keras3, keras2 = loaded.get("TFL101", "keras3"), loaded.get("TFL101", "keras2")
    assert keras3 is not None and keras2 is not None
    assert (keras3.tensorflow_version, keras3.keras_version, keras3.passed) == (
        "2.21.0",
        "3.15.1",
        True,
    )
    assert keras2.passed is False
    good = keras2.programs[1]
    assert (good.program, good.status, good.checks[0].ok) == ("good", "fail", False)
