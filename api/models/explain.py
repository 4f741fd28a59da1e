"""The `explain` part of the dry run (`POST /api/resolve`, design §5.6): which lists know each
word the word guard weighs, and why each candidate converged, got a review link or neither."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, Field

from castlegraph.resolver.explain import Explanation, PairExplained


@dataclass(frozen=True, slots=True)
class WordList:
    """A list the word guard asks: its name, membership, and whether only kinds that hold
    people ask it."""

    name: str
    knows: Callable[[str], bool]
    people_only: bool = False


class WordListOut(BaseModel):
    name: str = Field(description="The list: `common words`, `given names and surnames`, ...")
    knows: bool = Field(description="Whether the list holds the word.")
    consulted: bool = Field(
        description="Whether the guard asks this list for this mention: the name lists and "
        "the nicknames serve only the kinds that hold people (`dedup.person_kinds`)."
    )


class WordOut(BaseModel):
    word: str
    lists: list[WordListOut]


class ExplainedEntityOut(BaseModel):
    id: str
    name: str
    kind: str


class ExplainedPairOut(BaseModel):
    """The mention against one candidate entity, by the spelling that decided the outcome."""

    entity: ExplainedEntityOut
    spelling: str = Field(description="The entity's name or alias that was weighed.")
    key: str = Field(description="That spelling's key.")
    outcome: Literal["converged", "review_link", "none"]
    why: str = Field(description="One sentence: the rule, the edit, the guard or the nickname.")
    rule: str | None = Field(description="The rule that converged the pair (`exact` … `typo`).")
    reason: str | None = Field(
        description="The review link's reason: the one it got, or would have had past the cap "
        "of five links (`known_words`, `nickname`, ...)."
    )
    distance: int | None
    similarity: float | None
    edit: dict[str, object] | None = Field(
        description="A one-edit pair's edit: `op`, `position`, `removed`, `added`."
    )
    blocked: str | None = Field(
        description="The guard that kept a one-edit pair from converging: `digit_edit`, "
        "`known_words`, `nickname` or `unknown_name`."
    )
    words: list[str] | None = Field(
        description="The edited word as the mention and the stored spelling write it."
    )
    nickname: list[str] | None = Field(
        description="A nickname pair's given names: the mention's, the stored spelling's."
    )

    @classmethod
    def of(cls, pair: PairExplained) -> "ExplainedPairOut":
        entity = pair.entity
        return cls(
            entity=ExplainedEntityOut(id=entity.id, name=entity.name, kind=entity.kind),
            spelling=pair.spelling,
            key=pair.key,
            outcome=pair.outcome,
            why=pair.why,
            rule=pair.rule,
            reason=pair.reason,
            distance=pair.distance,
            similarity=pair.similarity,
            edit=pair.edit,
            blocked=pair.blocked,
            words=list(pair.words) if pair.words else None,
            nickname=list(pair.nickname) if pair.nickname else None,
        )


class ExplainOut(BaseModel):
    """Why the dry run decided as it did."""

    mention_key: str
    holds_people: bool = Field(
        description="The kind is one of `dedup.person_kinds`: name lists and nicknames apply."
    )
    fuzzy: bool = Field(description="`dedup.entity_fuzzy`: off, only rules 1-3 apply.")
    words: list[WordOut] = Field(
        description="The mention key's words, then the stored side of each edited word and "
        "nickname pair, with the lists that know them (none asked when fuzzy is off)."
    )
    pairs: list[ExplainedPairOut] = Field(
        description="Each candidate the rules weighed: equal key, within two edits, in another "
        "word order, or a nickname pair."
    )

    @classmethod
    def of(cls, explanation: Explanation, lists: Sequence[WordList]) -> "ExplainOut":
        asked = lists if explanation.fuzzy else ()
        people = explanation.holds_people
        return cls(
            mention_key=explanation.mention_key,
            holds_people=people,
            fuzzy=explanation.fuzzy,
            words=[
                WordOut(
                    word=word,
                    lists=[
                        WordListOut(
                            name=listed.name,
                            knows=listed.knows(word),
                            consulted=people or not listed.people_only,
                        )
                        for listed in asked
                    ],
                )
                for word in explanation.words
            ],
            pairs=[ExplainedPairOut.of(pair) for pair in explanation.pairs],
        )
