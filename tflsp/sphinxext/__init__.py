"""Sphinx extension: the documentation pages generated from the pattern catalog.

Add ``"tflsp.sphinxext"`` to ``extensions`` in ``conf.py``.  When the builder starts, the
extension writes, into the Sphinx source directory:

- ``patterns/<CODE>-<name>.md``: one page per pattern (the URL that diagnostics link to);
- ``patterns/index.md`` and ``patterns/symptoms.md``: the catalog by family and by symptom;
- ``_generated/settings.md`` and ``_generated/keras3.md``: fragments that guide pages include.

The language of the generated text follows the ``language`` setting (``en`` or ``ja``).
Both directories belong to the generator: files it did not produce are deleted.

Configuration values:

``tflsp_verification_record``
    Path (relative to the configuration directory) of the JSON record written by
    ``tflsp verify --catalog --record``.  A pattern without an entry gets a "not verified"
    note and a warning of type ``tflsp.unverified``, so ``sphinx-build -W`` fails until the
    record is refreshed.
``tflsp_refresh_command``
    The command shown to refresh that record.
``tflsp_catalog_dir``
    A catalog directory to document instead of the bundled one (used by tests).
``tflsp_language_links``
    ``{language: path from this site's root to that language's root}`` for the language
    switch; derived from ``language`` when empty.

Sphinx never imports TensorFlow through this extension: the record is read as JSON.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from tflsp import __version__
from tflsp.sphinxext.generate import Generated, render_site, snapshot, write_site
from tflsp.sphinxext.record import RecordError, VerificationRecord, load_record

if TYPE_CHECKING:
    from sphinx.application import Sphinx

DEFAULT_REFRESH_COMMAND = "tflsp verify --catalog --keras both --record"
LANGUAGE_NAMES = {"en": "English", "ja": "日本語"}

__all__ = [
    "DEFAULT_REFRESH_COMMAND",
    "Generated",
    "VerificationRecord",
    "generate_sources",
    "load_record",
    "render_site",
    "setup",
    "snapshot",
    "write_site",
]


def site_language(language: str | None) -> str:
    """The catalog language for a Sphinx ``language`` value (``ja``, ``ja_JP`` -> ``ja``)."""
    return "ja" if (language or "").lower().startswith("ja") else "en"


def generate_sources(
    srcdir: Path,
    language: str,
    *,
    record_path: Path,
    refresh_command: str = DEFAULT_REFRESH_COMMAND,
    catalog_dir: Path | None = None,
) -> Generated:
    """Render and write one site's generated sources; the core of the ``builder-inited`` hook."""
    from tflsp.catalog import load_catalog

    catalog = load_catalog(catalog_dir, check_examples=True)
    record = load_record(record_path)
    generated = render_site(
        catalog,
        site_language(language),
        srcdir,
        record,
        record_path.name,
        refresh_command,
    )
    return write_site(srcdir, generated)


def _on_builder_inited(app: Sphinx) -> None:
    from sphinx.util import logging

    from tflsp.catalog import CatalogError
    from tflsp.sphinxext.errors import CatalogPagesError
    from tflsp.sphinxext.pages import PageError

    logger = logging.getLogger(__name__)
    config = app.config
    confdir = Path(app.confdir)
    catalog_dir = (confdir / config.tflsp_catalog_dir) if config.tflsp_catalog_dir else None
    try:
        generated = generate_sources(
            Path(app.srcdir),
            config.language,
            record_path=confdir / config.tflsp_verification_record,
            refresh_command=config.tflsp_refresh_command,
            catalog_dir=catalog_dir,
        )
    except (CatalogError, PageError, RecordError) as exc:
        raise CatalogPagesError(str(exc)) from exc
    for docname, problems in sorted(generated.problems.items()):
        path = f"{docname}.md"
        line = _observed_line(generated.files[path], site_language(config.language))
        for problem in problems:
            logger.warning(
                problem.message,
                type="tflsp",
                subtype=problem.subtype,
                location=f"{Path(app.srcdir) / path}:{line}",
            )
    logger.info(
        "tflsp: %d generated sources, %d rewritten, %d removed",
        len(generated.files),
        len(generated.written),
        len(generated.removed),
    )


def _observed_line(content: str, lang: str) -> int:
    """The line of the page's observed-behaviour heading, where the warnings point."""
    from tflsp.sphinxext.labels import label

    heading = f"## {label(lang, 'observed')}"
    for number, line in enumerate(content.splitlines(), start=1):
        if line.strip() == heading:
            return number
    return 1


def _on_config_inited(app: Sphinx, config: Any) -> None:
    if site_language(config.language) == "ja" and (Path(app.srcdir) / "ja" / "conf.py").is_file():
        from sphinx.errors import ConfigError

        # `-D language=ja` on the English sources would mix English guide pages into the
        # Japanese site; the Japanese sources have their own directory.
        raise ConfigError(
            f"build the Japanese site from {Path(app.srcdir) / 'ja'} "
            "(sphinx-build -b html docs/ja docs/_build/html/ja), not with -D language=ja"
        )
    if not config.tflsp_language_links:
        lang = site_language(config.language)
        config.tflsp_language_links = {"en": "../"} if lang == "ja" else {"ja": "ja/"}


def _on_html_page_context(
    app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    """Give templates the same page in the other language(s): ``tflsp_language_links``."""
    to_root = "../" * pagename.count("/")
    target = app.builder.get_target_uri(pagename)
    context["tflsp_language_links"] = [
        {"lang": lang, "name": LANGUAGE_NAMES.get(lang, lang), "url": f"{to_root}{root}{target}"}
        for lang, root in sorted(app.config.tflsp_language_links.items())
    ]


def _on_source_read(app: Sphinx, docname: str, source: list[str]) -> None:
    """Japanese pages: join soft line breaks inside sentences (see ``join_cjk_lines``)."""
    if site_language(app.config.language) == "ja":
        from tflsp.sphinxext.markdown import join_cjk_lines

        source[0] = join_cjk_lines(source[0])


def setup(app: Sphinx) -> dict[str, Any]:
    from tflsp.sphinxext.directives import ExampleInclude

    app.add_config_value("tflsp_verification_record", "verification.json", "env", types=[str])
    app.add_config_value("tflsp_refresh_command", DEFAULT_REFRESH_COMMAND, "env", types=[str])
    app.add_config_value("tflsp_catalog_dir", None, "env", types=[str, type(None)])
    app.add_config_value("tflsp_language_links", {}, "html", types=[dict])
    app.add_directive("tflsp-example", ExampleInclude)
    app.connect("config-inited", _on_config_inited)
    app.connect("builder-inited", _on_builder_inited)
    app.connect("html-page-context", _on_html_page_context)
    app.connect("source-read", _on_source_read)
    return {
        "version": __version__,
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
