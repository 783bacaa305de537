"""``tflsp-example``: ``literalinclude`` that can hide the ``# [TFLxxx]`` test markers.

Readers should see the example as a normal program; the flagged lines are highlighted with
``:emphasize-lines:`` instead.  Stripping a marker never removes a line, so line numbers and
highlighted lines still match the file (and the diagnostics' line numbers).
"""

from __future__ import annotations

from typing import ClassVar

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.directives.code import LiteralInclude
from sphinx.util.typing import OptionSpec

from tflsp.catalog.markers import strip_markers


class ExampleInclude(LiteralInclude):
    option_spec: ClassVar[OptionSpec] = {
        **LiteralInclude.option_spec,
        "strip-markers": directives.flag,
    }

    def run(self) -> list[nodes.Node]:
        strip = "strip-markers" in self.options
        self.options.pop("strip-markers", None)
        result = super().run()
        if strip:
            for node in result:
                if isinstance(node, nodes.Element):
                    for block in node.findall(nodes.literal_block):
                        _replace_text(block, strip_markers(block.astext()))
        return result


def _replace_text(block: nodes.literal_block, text: str) -> None:
    # The HTML writer highlights only when rawsource equals the text, so set both.
    block.rawsource = text
    block.children = []
    block += nodes.Text(text)
