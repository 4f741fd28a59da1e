"""Labels refuse exactly Unicode's control characters (but \\t \\n \\r) and lone surrogates."""

import sys
import unicodedata

import pytest

from castlegraph.api.models.common import NOT_LABEL_TEXT, plain_text


def test_the_pattern_matches_exactly_the_refused_categories() -> None:
    refused = {
        code
        for code in range(sys.maxunicode + 1)
        if unicodedata.category(chr(code)) in ("Cc", "Cs") and chr(code) not in "\t\n\r"
    }
    matched = {code for code in range(sys.maxunicode + 1) if NOT_LABEL_TEXT.match(chr(code))}
    assert matched == refused
    assert len(refused) == 65 - 3 + 2048  # C0, DEL and C1 but three, and the surrogates


@pytest.mark.parametrize("label", ["Ada\x00", "a\x7fb", "x\x85", "\ud800"])
def test_control_characters_and_lone_surrogates_are_refused(label: str) -> None:
    with pytest.raises(ValueError, match="control characters"):
        plain_text(label)


def test_whitespace_and_every_script_pass() -> None:
    assert plain_text("Jönköping\tΑθήνα\n東京\r") == "Jönköping\tΑθήνα\n東京\r"
