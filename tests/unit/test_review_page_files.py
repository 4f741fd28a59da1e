"""The review page's files: no inline script or style for the Content-Security-Policy to
forbid, a label on every control, the reasons the API knows, and shipped by a non-editable
install (the package data globs cover every file)."""

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path
from typing import get_args

from castlegraph.api.http.review_page import ASSETS, FILES
from castlegraph.resolver.entity_model import ReviewReason
from tests.support.review_page import parse_page

ROOT = Path(__file__).resolve().parents[2]
IMPORTS = re.MULTILINE | re.DOTALL
PAGE = parse_page((FILES / "index.html").read_text("utf-8"))


def test_scripts_and_styles_are_the_pages_own_files() -> None:
    scripts = PAGE.all("script")
    assert [(s.attrs["src"], s.attrs["type"]) for s in scripts] == [
        ("/review/assets/review.js", "module")
    ]
    assert all(not script.text.strip() for script in scripts)  # no inline script
    assert PAGE.all("style") == []
    sheets = [link.attrs["href"] for link in PAGE.all("link") if link.attrs["rel"] == "stylesheet"]
    assert sheets == ["/review/assets/review.css"]


def test_the_assets_served_are_the_files_beside_the_page_and_import_only_each_other() -> None:
    assert set(ASSETS) == {p.name for p in FILES.iterdir()} - {"index.html"}
    imports = {}
    for name in (name for name in ASSETS if name.endswith(".js")):
        text = (FILES / name).read_text("utf-8")
        imports[name] = set(re.findall(r'^import .*? from "\./([^"]+)";$', text, IMPORTS))
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text, name
        assert "eval(" not in text and "new Function" not in text, name
    assert imports["review.js"] == {"common.js", "links.js", "duplicates.js"}
    assert set().union(*imports.values()) <= set(ASSETS)


def test_no_element_carries_a_handler_or_a_style_attribute() -> None:
    for element in PAGE.elements:
        assert not [name for name in element.attrs if name.startswith("on")], element
        assert "style" not in element.attrs, element
        assert not element.attrs.get("href", "").startswith("javascript:"), element


def test_every_control_has_a_label_and_every_button_a_name() -> None:
    labelled = {label.attrs["for"] for label in PAGE.all("label")}
    controls = PAGE.all("input") + PAGE.all("select")
    assert controls
    assert {control.attrs["id"] for control in controls} <= labelled
    assert all(button.text.strip() for button in PAGE.all("button"))


def test_the_reason_filter_offers_exactly_the_reasons_links_carry() -> None:
    [select] = [s for s in PAGE.all("select") if s.attrs["id"] == "reason"]
    offered = [o.attrs["value"] for o in PAGE.all("option")]
    assert select and offered == ["", *get_args(ReviewReason)]


def test_the_package_data_ships_every_file_of_the_page() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["castlegraph.api.http"]
    package_dir = FILES.parent  # the package `castlegraph.api.http`
    files = [p.relative_to(package_dir).as_posix() for p in FILES.rglob("*") if p.is_file()]
    assert sorted(files) == sorted(["review/index.html", *(f"review/{name}" for name in ASSETS)])
    assert all(any(fnmatch(name, glob) for glob in globs) for name in files), (files, globs)
