"""Read built HTML pages with the standard library: links, element ids, classes and text."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit


@dataclass
class Page:
    path: Path
    links: list[str] = field(default_factory=list)  # href and src values
    ids: set[str] = field(default_factory=set)
    classes: list[set[str]] = field(default_factory=list)  # class sets of every element
    text: str = ""


class _Reader(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.chunks: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for key in ("href", "src"):
            if values.get(key) and not (tag == "link" and values.get("rel") == "preconnect"):
                self.page.links.append(values[key] or "")
        for key in ("id", "name"):
            if values.get(key):
                self.page.ids.add(values[key] or "")
        self.page.classes.append(set((values.get("class") or "").split()))
        if tag in ("script", "style"):
            self.skip += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.chunks.append(data)


def read_page(path: Path) -> Page:
    page = Page(path)
    reader = _Reader(page)
    reader.feed(path.read_text(encoding="utf-8"))
    page.text = "".join(reader.chunks)
    return page


def has_class(page: Page, *names: str) -> bool:
    wanted = set(names)
    return any(wanted <= classes for classes in page.classes)


def broken_links(site: Path) -> list[str]:
    """Every internal link (file and #fragment) in every page under ``site`` that misses."""
    pages = {path.resolve(): read_page(path) for path in sorted(site.rglob("*.html"))}
    problems = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("//"):
                continue  # external: never fetched
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if not target.exists():
                problems.append(f"{path.relative_to(site.resolve())}: {link} (no file)")
                continue
            fragment = unquote(parts.fragment)
            if fragment and target.suffix == ".html":
                other = pages.get(target) or read_page(target)
                if fragment not in other.ids:
                    problems.append(f"{path.relative_to(site.resolve())}: {link} (no #{fragment})")
    return problems


_WRAPPED_CODE = re.compile(
    r'<div class="literal-block-wrapper[^"]*"[^>]*>.*?<pre>(.*?)</pre>', re.DOTALL
)
_TAG = re.compile(r"<[^>]+>")


def captioned_code_blocks(path: Path) -> list[str]:
    """The text of every code block that has a caption (the examples on a pattern page)."""
    raw = path.read_text(encoding="utf-8")
    return [html.unescape(_TAG.sub("", block)) for block in _WRAPPED_CODE.findall(raw)]
