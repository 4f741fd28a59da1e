"""`MentionBatchOut.json_of` writes the very bytes the response model would (design §5.6)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from castlegraph.api.models.mentions import MentionBatchOut
from castlegraph.graph.records import Entity, MentionResult
from castlegraph.resolver.entity_model import EntityView

TEXT = st.text(max_size=12)
results = st.builds(
    MentionResult,
    entity=st.builds(
        Entity,
        view=st.builds(
            EntityView,
            id=TEXT,
            name=TEXT,
            kind=TEXT,
            key=TEXT,
            aliases=st.lists(TEXT, max_size=3).map(tuple),
            alias_keys=st.just(()),
        ),
        created_at=TEXT,
    ),
    created=st.booleans(),
    linked=st.booleans(),
    observed_name=TEXT,
    rule=st.sampled_from(["exact", "normalized", "alias", "typo", "new"]),
    confidence=st.one_of(st.floats(0, 1), st.sampled_from([0, 1])),
    possibly_same_as=st.lists(TEXT, max_size=3).map(tuple),
    evidence=st.just({}),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(results, max_size=5))
def test_the_batch_answer_is_the_models_json(batch: list[MentionResult]) -> None:
    assert MentionBatchOut.json_of(batch) == MentionBatchOut.of(batch).model_dump_json().encode()
