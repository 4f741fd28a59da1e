"""Review links are complete and independent of arrival order (design §5.3), on real databases.

Random pairs of names within two OSA edits whose link is due (key similarity ≥ 0.75) are
resolved in both orders, each order under a kind of its own; the later entity must be linked
to the earlier one either way. Seeded and bounded so it runs in seconds.
"""

import random
from typing import Any

from rapidfuzz.distance import OSA

from castlegraph.graph.entities.resolution import MentionInput, resolve_mentions
from castlegraph.resolver.entity_keys import entity_key
from castlegraph.resolver.entity_model import make_mention
from castlegraph.resolver.entity_rules import REVIEW_TWO_EDIT_MIN_SIMILARITY
from tests.store.test_entities import KNOWN_WORD, new_drawer, review_edges

LETTERS = "aeiknorst"
PAIRS = 40


def _edit(name: str, rng: random.Random) -> str:
    i = rng.randrange(len(name))
    op = rng.choice(("insert", "delete", "substitute", "transpose"))
    if op == "insert":
        return name[:i] + rng.choice(LETTERS) + name[i:]
    if op == "delete":
        return name[:i] + name[i + 1 :]
    if op == "substitute":
        return name[:i] + rng.choice(LETTERS) + name[i + 1 :]
    return name[:i] + name[i + 1 : i + 2] + name[i : i + 1] + name[i + 2 :]


def two_edit_pairs(seed: int, count: int) -> list[tuple[str, str]]:
    """Pairs one or two edits apart, two thirds of them two, all due a review link."""
    rng = random.Random(seed)
    pairs: list[tuple[str, str]] = []
    while len(pairs) < count:
        first = "".join(rng.choice(LETTERS) for _ in range(rng.randint(8, 14))).capitalize()
        second = _edit(_edit(first, rng), rng) if rng.random() < 2 / 3 else _edit(first, rng)
        a, b = entity_key(first), entity_key(second)
        distance = OSA.distance(a, b)
        longer = max(len(a), len(b))
        if 0 < distance <= 2 and 1 - distance / longer >= REVIEW_TWO_EDIT_MIN_SIMILARITY:
            pairs.append((first, second.capitalize()))
    return pairs


def resolve_one(store: Any, drawer: str, name: str, kind: str) -> Any:
    inputs = [MentionInput(drawer, make_mention(name, kind))]
    [result] = resolve_mentions(store, inputs, fuzzy=True, known_word=KNOWN_WORD)
    return result


def test_random_two_edit_pairs_are_linked_in_both_orders(falkordb_store: Any) -> None:
    drawer = new_drawer(falkordb_store, "note")
    missing = []
    for n, (a, b) in enumerate(two_edit_pairs(seed=15, count=PAIRS)):
        for order, (first, then) in enumerate(((a, b), (b, a))):
            kind = f"k{n}-{order}"
            earlier = resolve_one(falkordb_store, drawer, first, kind)
            later = resolve_one(falkordb_store, drawer, then, kind)
            converged = later.entity.view.id == earlier.entity.view.id
            if not converged and earlier.entity.view.id not in later.possibly_same_as:
                missing.append((first, then))
    assert missing == []


def test_the_contract_examples_are_linked_in_both_orders(store: Any) -> None:
    drawer = new_drawer(store, "note")
    examples = [("Postgres", "PostgreSQL"), ("Katarina", "Katerino"), ("Christopher", "Kristopher")]
    for n, (a, b) in enumerate(examples):
        for order, (first, then) in enumerate(((a, b), (b, a))):
            kind = f"tool{n}-{order}"
            resolve_one(store, drawer, first, kind)
            later = resolve_one(store, drawer, then, kind)
            assert (later.rule, len(later.possibly_same_as)) == ("new", 1), (first, then)
    assert len(review_edges(store)) == 2 * len(examples)


def test_word_order_gets_a_review_link_in_both_orders(store: Any) -> None:
    drawer = new_drawer(store, "note")
    for n, (a, b) in enumerate(
        [("Ada Lovelace", "Lovelace, Ada"), ("Grace Hopper", "Hoper Grace")]
    ):
        for order, (first, then) in enumerate(((a, b), (b, a))):
            kind = f"person{n}-{order}"
            earlier = resolve_one(store, drawer, first, kind)
            later = resolve_one(store, drawer, then, kind)
            assert later.created and later.possibly_same_as == (earlier.entity.view.id,)
    rows = store.run_text("MATCH ()-[l:POSSIBLY_SAME_AS]->() RETURN l.reason AS reason", {})
    assert [row["reason"] for row in rows] == ["word_order"] * 4
