"""The pattern catalog: one folder per pattern under ``patterns/``.

Everything user-facing about a pattern (titles, messages, explanations, examples, fix
metadata, references, runtime expectations) lives in its folder; code reads it from here.
"""

from tflsp.catalog.loader import CatalogError, load_catalog, load_pattern
from tflsp.catalog.markers import parse_markers
from tflsp.catalog.schema import (
    FAMILIES,
    LANGUAGES,
    SECTION_HEADINGS,
    SECTIONS,
    Catalog,
    Explanation,
    FixInfo,
    Pattern,
    Reference,
)

__all__ = [
    "FAMILIES",
    "LANGUAGES",
    "SECTIONS",
    "SECTION_HEADINGS",
    "Catalog",
    "CatalogError",
    "Explanation",
    "FixInfo",
    "Pattern",
    "Reference",
    "load_catalog",
    "load_pattern",
    "parse_markers",
]
