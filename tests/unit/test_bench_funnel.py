"""`bench.mention_funnel`, the counts of `bench.profile_mentions --funnel`: what a batch's lookups
sent and found, and what its results decided, counted per batch; the use case and the index are
put back as they were."""

import pytest

from bench.mention_funnel import Funnel
from castlegraph.api.usecases.mentions import Mentions
from castlegraph.graph.entities.entity_candidates import Candidates
from castlegraph.graph.indexes.entity_index import EntityIndex
from castlegraph.graph.records import Entity, MentionResult
from castlegraph.resolver.entity_model import EntityView


def _result(name: str, rule: str, candidates: int | None, links: tuple[str, ...]) -> MentionResult:
    evidence: dict[str, object] = {"rule": rule}
    if candidates is not None:
        evidence["review_candidates"] = candidates
    return MentionResult(
        entity=Entity(EntityView.of(f"id-{name}", name, "person"), "2026-12-07T00:00:00.000000Z"),
        created=rule == "new",
        linked=True,
        observed_name=name,
        rule=rule,
        confidence=1.0,
        possibly_same_as=links,
        evidence=evidence,
    )


def test_a_batch_s_new_mentions_their_candidates_and_links_are_counted() -> None:
    funnel = Funnel()
    funnel.saw(
        [
            _result("Ada Lovelace", "new", 7, ("a", "b")),
            _result("Ada Lovelace", "exact", None, ()),
            _result("Grace Hopper", "typo", None, ()),
            _result("Alan Turing", "new", 0, ()),
        ]
    )
    funnel.saw([_result("Edsger Dijkstra", "new", 12, ("c", "d", "e", "f", "g"))])
    assert (funnel.batches, funnel.mentions, funnel.new) == (2, 5, 3)
    assert (funnel.candidates, funnel.links) == (19, 7)
    assert funnel.met == [7, 0, 12]
    assert funnel.spread() == {"median": 7, "p90": 12, "p99": 12, "most": 12}


def test_the_spread_of_review_candidates_reads_the_skew() -> None:
    funnel = Funnel(met=[*([0] * 50), *([1] * 40), *([30] * 9), 500])
    assert funnel.spread() == {"median": 0, "p90": 30, "p99": 500, "most": 500}
    assert Funnel().spread() == {}


def test_lookups_are_counted_through_the_index_and_everything_is_put_back() -> None:
    lookup, resolved = EntityIndex.__dict__["lookup_spelled"], Mentions.__dict__["_resolved"]
    set_aside = Candidates.__dict__["_set_aside"]
    funnel = Funnel()
    index = EntityIndex()
    with funnel.counting():
        assert EntityIndex.__dict__["lookup_spelled"] is not lookup
        assert Candidates.__dict__["_set_aside"] is not set_aside
        hits, sent = index.lookup_spelled({"ada": {"ada", "da", "aa"}, "bob": {"bob"}})
        assert (hits, sent) == ({}, {})  # an empty index finds nothing
    assert (funnel.probes, funnel.found, funnel.aside) == (4, 0, 0)
    assert EntityIndex.__dict__["lookup_spelled"] is lookup
    assert Mentions.__dict__["_resolved"] is resolved
    assert Candidates.__dict__["_set_aside"] is set_aside


def test_the_counts_print_per_batch(capsys: pytest.CaptureFixture[str]) -> None:
    funnel = Funnel(
        batches=2, mentions=2_000, probes=120_000, found=15_000, aside=9_000, met=[1, 2, 1_200]
    )
    funnel.print()
    printed = capsys.readouterr().out
    assert "probe keys looked up" in printed
    assert "60,000 per batch" in printed
    assert "7,500 per batch" in printed
    assert "of which set aside unread" in printed
    assert "4,500 per batch" in printed
    assert (
        "review candidates a new mention met: median 2, p90 1,200, p99 1,200, most 1,200" in printed
    )
    Funnel().print()
    assert "review candidates a new mention met: none new" in capsys.readouterr().out
