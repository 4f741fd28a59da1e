"""The review page's HTML read as elements (`html.parser`), for the tests that check it holds
no inline script or style and labels every control."""

from dataclasses import dataclass
from html.parser import HTMLParser


@dataclass
class Element:
    tag: str
    attrs: dict[str, str]
    text: str = ""


class PageElements(HTMLParser):
    """Every start tag with its attributes, and the text inside `<script>`, `<style>`,
    `<label>`, `<button>` and `<option>` elements."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[Element] = []
        self._open: list[Element] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs})
        self.elements.append(element)
        if tag in {"script", "style", "label", "button", "option"}:
            self._open.append(element)

    def handle_endtag(self, tag: str) -> None:
        if self._open and self._open[-1].tag == tag:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        for element in self._open:
            element.text += data

    def all(self, tag: str) -> list[Element]:
        return [element for element in self.elements if element.tag == tag]


def parse_page(html: str) -> PageElements:
    page = PageElements()
    page.feed(html)
    page.close()
    return page
