"""Invariants of the pure rules, checked on generated input (Hypothesis)."""

import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz.distance import OSA, Levenshtein

from castlegraph.resolver.drawers import NEAR_MIN_LENGTH, DrawerText, compare, may_be_near
from castlegraph.resolver.entity_keys import entity_key
from castlegraph.resolver.entity_model import Decision, EntityView, make_mention
from castlegraph.resolver.entity_rules import REVIEW_MIN_KEY_LEN, TYPO_MIN_KEY_LEN, decide
from castlegraph.resolver.entity_search_keys import BatchIndex, probe_keys, stored_keys
from castlegraph.resolver.similarity import OSA_MAX_LENGTH, text_similarity, trigram_jaccard
from castlegraph.resolver.text import normalize_text

TEXT = st.text(st.characters(max_codepoint=0x3000, exclude_categories=("Cs",)), max_size=80)
PROPERTIES = settings(max_examples=300, deadline=None)


@PROPERTIES
@given(TEXT)
def test_keys_and_normal_forms_are_idempotent(text: str) -> None:
    key = entity_key(text)
    assert entity_key(key) == key or not key.strip()
    normal = normalize_text(text.replace("\u0130", "I"))
    assert normalize_text(normal) == normal


def test_the_one_letter_whose_normal_form_changes_again() -> None:
    """`İ` (U+0130) lower-cases to `i` + U+0307, a combining mark, which a second pass treats as
    a separator (design §4.1 keeps only letters and digits): the rule's one exception to
    idempotence, pinned here (found by the property above)."""
    assert normalize_text("İstanbul") == "i\u0307stanbul"
    assert normalize_text("i\u0307stanbul") == "i stanbul"


@PROPERTIES
@given(TEXT, TEXT)
def test_similarity_is_symmetric_and_within_zero_and_one(a: str, b: str) -> None:
    left, right = normalize_text(a), normalize_text(b)
    score = text_similarity(left, right)
    assert 0.0 <= score <= 1.0
    assert score == text_similarity(right, left)


@PROPERTIES
@given(TEXT)
def test_a_text_is_exact_to_itself_and_never_merely_near(text: str) -> None:
    same = compare(DrawerText.of(text), "x", DrawerText.of(text), 0.9)
    assert same is not None
    assert same.kind == "exact"
    assert same.similarity == 1.0


@PROPERTIES
@given(TEXT, TEXT, st.floats(min_value=0.5, max_value=1.0))
def test_the_verdict_does_not_depend_on_argument_order(a: str, b: str, threshold: float) -> None:
    forward = compare(DrawerText.of(a), "x", DrawerText.of(b), threshold)
    backward = compare(DrawerText.of(b), "x", DrawerText.of(a), threshold)
    assert (forward and (forward.kind, forward.similarity)) == (
        backward and (backward.kind, backward.similarity)
    )


@PROPERTIES
@given(TEXT, TEXT, st.floats(min_value=0.5, max_value=1.0))
def test_a_length_gap_rules_out_only_pairs_that_are_not_near(a: str, b: str, t: float) -> None:
    na, nb = normalize_text(a), normalize_text(b)
    if not may_be_near(len(na), len(nb), t):
        assert text_similarity(na, nb) < t


# Near copies: a text and k random edits of it, so that the verdict's branches all run.

LETTERS = string.ascii_lowercase


def words_text(rng: random.Random, chars: int) -> str:
    """Lower-case words of 3-9 letters, one space apart, about `chars` long: its own normal
    form, so edits made to it are edits of the normal form."""
    out: list[str] = []
    while sum(map(len, out)) + len(out) < chars:
        out.append("".join(rng.choices(LETTERS, k=rng.randint(3, 9))))
    return " ".join(out)


def mutated(text: str, edits: int, rng: random.Random, *, growing: bool = False) -> str:
    """`text` after `edits` random letter edits (substitute, insert, delete, swap neighbours;
    inserts only when `growing`, which opens a length gap), each inside a word, so the result
    is still a normal form."""
    chars = list(text)
    for _ in range(edits):
        letters = [i for i, c in enumerate(chars) if c != " "]
        i = rng.choice(letters)
        operation = "insert" if growing else rng.choice(("substitute", "insert", "delete", "swap"))
        word_of_one = (i == 0 or chars[i - 1] == " ") and (
            i + 1 == len(chars) or chars[i + 1] == " "
        )
        if operation == "delete" and not word_of_one:
            del chars[i]
        elif operation == "insert":
            chars.insert(i, rng.choice(LETTERS))
        elif operation == "swap" and i + 1 < len(chars) and chars[i + 1] != " ":
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        else:
            chars[i] = rng.choice(LETTERS.replace(chars[i], ""))
    return "".join(chars)


SHORT_OR_LONG = st.one_of(
    st.integers(min_value=12, max_value=60),  # the 12-character floor and just above
    st.integers(min_value=200, max_value=400),
    st.integers(min_value=1_950, max_value=2_100),  # both sides of the edit/trigram switch
)


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    chars=SHORT_OR_LONG,
    share=st.floats(min_value=0.0, max_value=0.3),  # edits per character: 0 to well past 10 %
    threshold=st.sampled_from(["exact", 0.9, 0.8, 0.95]),
    growing=st.booleans(),
)
def test_near_copies_get_the_verdict_their_edits_earn(
    seed: int, chars: int, share: float, threshold: str | float, growing: bool
) -> None:
    rng = random.Random(seed)
    text = words_text(rng, chars)
    edits = min(round(share * len(text)), 400)
    copy = mutated(text, edits, rng, growing=growing)
    similarity = text_similarity(text, copy)
    longest = max(len(text), len(copy))
    if longest <= OSA_MAX_LENGTH:
        # OSA never exceeds Levenshtein, and each edit costs Levenshtein at most two (a swap).
        distance = Levenshtein.distance(text, copy)
        assert distance <= 2 * edits
        assert similarity >= 1.0 - distance / longest - 1e-12
    else:
        assert similarity == trigram_jaccard(text, copy)
    # "exact": the threshold is the pair's own score, which the inclusive threshold accepts.
    t = similarity if threshold == "exact" else float(threshold)
    verdict = compare(DrawerText.of(copy), "x", DrawerText.of(text), t)
    if copy == text:
        assert verdict is not None and verdict.kind == "exact"
    elif min(len(text), len(copy)) < NEAR_MIN_LENGTH or similarity < t - 1e-9:
        assert verdict is None
    else:
        assert verdict is not None
        assert (verdict.kind, verdict.similarity) == ("near", similarity)
    if not may_be_near(len(copy), len(text), t):
        assert verdict is None or verdict.kind != "near"


def test_the_near_property_reaches_every_branch() -> None:
    """The generator above makes near, not-near, length-gap and trigram pairs (a property whose
    interesting branch never runs proves nothing)."""
    rng = random.Random(3)
    seen = set()
    cases = [(20, 0.05, False), (300, 0.02, False), (300, 0.3, False), (2_050, 0.001, False)]
    for chars, share, growing in [*cases, (300, 0.25, True)]:
        text = words_text(rng, chars)
        copy = mutated(text, max(1, round(share * len(text))), rng, growing=growing)
        verdict = compare(DrawerText.of(copy), "x", DrawerText.of(text), 0.9)
        seen.add("near" if verdict else "distinct")
        if max(len(text), len(copy)) > OSA_MAX_LENGTH and verdict:
            seen.add("trigram near")
        if not may_be_near(len(copy), len(text), 0.9):
            seen.add("length gap")
    assert seen == {"near", "distinct", "trigram near", "length gap"}


# Entity rules.

NAME_CHARS = "abcdefgh0123"
NAMES = st.text(NAME_CHARS, min_size=4, max_size=12)


def one_edit(name: str, data: st.DataObject) -> tuple[str, bool]:
    """`name` with one edit, and whether the edit involves a digit."""
    i = data.draw(st.integers(0, len(name) - 1))
    kind = data.draw(st.sampled_from(("substitute", "insert", "delete", "swap")))
    if kind == "swap" and i + 1 < len(name) and name[i] != name[i + 1]:
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :], not (name[i : i + 2]).isalpha()
    if kind == "delete":
        return name[:i] + name[i + 1 :], name[i].isdigit()
    new = data.draw(st.sampled_from(NAME_CHARS.replace(name[i], "")))
    if kind == "insert":
        return name[:i] + new + name[i:], new.isdigit()
    return name[:i] + new + name[i + 1 :], new.isdigit() or name[i].isdigit()


def never_a_word(_: str) -> bool:
    return False


@settings(max_examples=300, deadline=None)
@given(NAMES, st.data())
def test_the_typo_rule_fires_exactly_when_no_guard_stops_it(name: str, data: st.DataObject) -> None:
    mention, touches_digit = one_edit(name, data)
    stored = EntityView.of("e1", name, "tool")
    decision = decide(
        make_mention(mention, "tool"), [stored], fuzzy=True, is_known_word=never_a_word
    )
    if entity_key(mention) == entity_key(name):
        assert decision.decision == "same"
    elif min(len(mention), len(name)) < TYPO_MIN_KEY_LEN:
        assert (decision.decision, decision.rule) == ("new", "new")  # too short to be a typo
    elif touches_digit:
        assert (decision.decision, decision.rule) == ("new", "new")
        assert decision.evidence["blocked"] == [
            {"entity": "e1", "spelling": name, "reason": "digit_edit"}
        ]
    else:
        assert (decision.decision, decision.rule) == ("same", "typo")
        assert decision.entity == stored
        assert decision.new_alias == mention


def link_view(decision: Decision) -> list[tuple[float, int, str]]:
    return [(link.similarity, link.distance, link.reason) for link in decision.possibly_same_as]


@settings(max_examples=300, deadline=None)
@given(NAMES, st.data())
def test_review_links_do_not_depend_on_which_name_came_first(
    name: str, data: st.DataObject
) -> None:
    other, _ = one_edit(name, data)
    if data.draw(st.booleans()):
        other, _ = one_edit(other, data)  # two edits: only a review link can join them
    forward = decide(
        make_mention(other, "tool"),
        [EntityView.of("a", name, "tool")],
        fuzzy=True,
        is_known_word=never_a_word,
    )
    backward = decide(
        make_mention(name, "tool"),
        [EntityView.of("b", other, "tool")],
        fuzzy=True,
        is_known_word=never_a_word,
    )
    assert (forward.decision, forward.rule) == (backward.decision, backward.rule)
    assert link_view(forward) == link_view(backward)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(NAMES, st.sampled_from(["tool", "person"])), min_size=1, max_size=12))
def test_resolving_a_batch_again_finds_what_the_first_pass_decided(
    mentions: list[tuple[str, str]],
) -> None:
    """The rules' side of a retried batch: in a pool that holds what the first pass created and
    the aliases it recorded, every mention resolves to the entity it got the first time."""
    pool: dict[str, EntityView] = {}
    first: list[str] = []
    for name, kind in mentions:
        decision = decide(
            make_mention(name, kind), list(pool.values()), fuzzy=True, is_known_word=never_a_word
        )
        if decision.entity is None:
            entity = EntityView.of(f"e{len(pool):03d}", name, kind)
        else:
            entity = decision.entity
            if decision.new_alias is not None:
                entity = EntityView.of(entity.id, entity.name, entity.kind, (*entity.aliases, name))
        pool[entity.id] = entity
        first.append(entity.id)
    again = [
        decide(make_mention(n, k), list(pool.values()), fuzzy=True, is_known_word=never_a_word)
        for n, k in mentions
    ]
    assert [d.decision for d in again] == ["same"] * len(mentions)
    assert [d.entity.id for d in again if d.entity] == first
    assert [d.new_alias for d in again] == [None] * len(mentions)


# The candidate index against a brute-force scan.

KEYS = st.text("abcd", min_size=1, max_size=11)


@st.composite
def near_keys(draw: st.DrawFn, probe: str) -> str:
    """`probe` after 0-3 random edits: keys near the probe, which random keys seldom are."""
    key = probe
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(key)))
        kind = draw(st.sampled_from(("substitute", "insert", "delete", "swap")))
        letter = draw(st.sampled_from("abcd"))
        if kind == "insert" or i == len(key):
            key = key[:i] + letter + key[i:]
        elif kind == "delete" and len(key) > 1:
            key = key[:i] + key[i + 1 :]
        elif kind == "swap" and i + 1 < len(key):
            key = key[:i] + key[i + 1] + key[i] + key[i + 2 :]
        else:
            key = key[:i] + letter + key[i + 1 :]
    return key


@st.composite
def probe_and_keys(draw: st.DrawFn) -> tuple[str, list[str]]:
    probe = draw(KEYS)
    near = draw(st.lists(near_keys(probe), max_size=25))
    far = draw(st.lists(KEYS, max_size=15))
    return probe, sorted(set(near + far))


@settings(max_examples=300, deadline=None)
@given(probe_and_keys())
def test_the_candidate_index_finds_what_a_scan_finds(case: tuple[str, list[str]]) -> None:
    """Every stored key the rules could use — one edit (OSA) with both keys of 4 or more, or two
    edits with the longer key long enough for a two-edit review link, whichever of the two is
    longer — is found by the probe; the one-edit probe finds nothing further than two edits (the
    review probe's partition keys are a superset the rules verify, so no bound there)."""
    probe, keys = case
    index = BatchIndex()
    for number, key in enumerate(keys):
        view = EntityView(f"e{number:02d}", key, "tool", key)
        index.put_local(view, stored_keys(view))
    one = {v.key for v in index.candidates(probe_keys(probe, two_edits=False))}
    two = {v.key for v in index.candidates(probe_keys(probe, two_edits=True))}
    scan_one = {
        k
        for k in keys
        if min(len(k), len(probe)) >= REVIEW_MIN_KEY_LEN and OSA.distance(probe, k) <= 1
    }
    scan_two = scan_one | {
        k for k in keys if max(len(probe), len(k)) >= 8 and OSA.distance(probe, k) <= 2
    }
    assert scan_one | ({probe} & set(keys)) <= one
    assert scan_two <= two
    assert one <= two
    assert all(Levenshtein.distance(probe, k) <= 2 for k in one)
