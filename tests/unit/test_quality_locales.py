"""`bench quality`'s names of many locales: their variants, and scores per locale."""

import random

import pytest

from bench.er_quality.data import LabelledMention, TrueEntity, latin
from bench.er_quality.eval import Outcome, score
from bench.er_quality.variants import dropped_letter, ocr, phonetic


def test_russian_and_ukrainian_names_are_written_in_latin_letters() -> None:
    assert latin("Всеволод Щербаков") == "Vsevolod Shcherbakov"
    assert latin("Юлія Гузій") == "Yuliya Guziy"
    assert latin("Лук'яненко") == "Lukyanenko"  # the Ukrainian apostrophe is not written
    assert latin("Mary Smith") == "Mary Smith"


@pytest.mark.parametrize("maker", [ocr, phonetic, dropped_letter])
def test_record_corruptions_change_a_name_and_never_a_digit(maker: object) -> None:
    assert callable(maker)
    rng = random.Random(3)
    for name in ("William Harrison 2020", "Anna Kowalczyk", "Stephen Schmidt 7"):
        spelt = maker(name, rng)
        assert spelt is not None and spelt != name
        assert [c for c in spelt if c.isdigit()] == [c for c in name if c.isdigit()]


def test_known_corruptions_of_a_record() -> None:
    """Seeded: the same draw gives the same spelling, capitals where the name had them."""
    assert [ocr("Harm", random.Random(seed)) for seed in (0, 1)] == ["Liarm", "Harrn"]
    assert [phonetic("Phelps", random.Random(seed)) for seed in (0, 1)] == ["Phelpz", "Felps"]
    assert phonetic("SCHMIDT", random.Random(0)) == "SHMIDT"
    assert [dropped_letter("Anna", random.Random(seed)) for seed in (0, 1)] == ["Ann", "Ana"]


def test_people_are_scored_per_locale() -> None:
    """A false merge counts against the locale of the mention's true person; a variant linked
    for review is recalled, and counted where the rules reach it."""
    entities = [
        TrueEntity("p1", "Jayden Smith", "person", "plain", "en_GB"),
        TrueEntity("p2", "Jayde Smith", "person", "near_name", "en_GB"),
        TrueEntity("p3", "Oksana Shevchenko", "person", "plain", "uk_UA"),
        TrueEntity("c1", "Acme Widgets", "company", "plain", "en_US"),
    ]
    stream = [
        LabelledMention("Jayden Smith", "person", "p1", "canonical"),
        LabelledMention("Jayde Smith", "person", "p2", "canonical"),  # merged into p1: false
        LabelledMention("Oksana Shevchenko", "person", "p3", "canonical"),
        LabelledMention("Oksana Shevchenco", "person", "p3", "phonetic"),  # linked: recalled
        LabelledMention("Acme Widgets", "company", "c1", "canonical"),
    ]
    outcomes = [
        Outcome("e1", "new"),
        Outcome("e1", "typo"),
        Outcome("e3", "new"),
        Outcome("e4", "new", ("e3",)),
        Outcome("e5", "new"),
    ]
    per_locale = score(stream, outcomes, entities, 1.0)["per_locale"]
    assert sorted(per_locale) == ["en_GB", "uk_UA"]
    assert {k: per_locale["en_GB"][k] for k in ("converged", "false_merges", "precision")} == {
        "converged": 1,
        "false_merges": 1,
        "precision": 0.0,
    }
    assert {
        k: per_locale["uk_UA"][k]
        for k in ("targets", "recall", "recall_converged_only", "reachable", "recall_reachable")
    } == {
        "targets": 1,
        "recall": 1.0,
        "recall_converged_only": 0.0,
        "reachable": 1,
        "recall_reachable": 1.0,
    }
