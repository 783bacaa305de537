"""The error that stops a build when the catalog cannot become pages."""

from __future__ import annotations

from sphinx.errors import SphinxError


class CatalogPagesError(SphinxError):
    category = "tflsp: cannot generate the pattern pages"
