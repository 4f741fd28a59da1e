"""Mentions (design §5): resolve a batch or one drawer's mention, or a dry run of one name.

The resolution settings (fuzzy matching, the word guard, the guard on people's names) are read
from the runtime once, into a `ResolutionPolicy`, when the use case is built; every call hands
them on whole, with the in-memory entity index once it exists.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from castlegraph.api.errors import PayloadTooLarge
from castlegraph.api.models.entities import ResolveOut, ResolveQuery
from castlegraph.api.models.explain import WordList
from castlegraph.api.models.mentions import (
    MentionBatchCreate,
    MentionBatchOut,
    MentionCreate,
    MentionOut,
)
from castlegraph.api.service.runtime import Runtime
from castlegraph.api.usecases.answers import Changed
from castlegraph.graph.entities.resolution import (
    MentionInput,
    explained_dry_run,
    resolve_mentions,
)
from castlegraph.graph.errors import DrawerNotFound, UnknownDrawers
from castlegraph.graph.records import MentionResult
from castlegraph.resolver.entity_model import Mention, make_mention
from castlegraph.resolver.entity_rules import NameGuard
from castlegraph.resolver.errors import EmptyLabel


@dataclass(frozen=True, slots=True)
class ResolutionPolicy:
    """How a name is resolved, as the settings fixed it at start (design §5.3)."""

    fuzzy: bool
    known_word: Callable[[str], bool]
    names: NameGuard

    @classmethod
    def of(cls, runtime: Runtime) -> "ResolutionPolicy":
        return cls(runtime.fuzzy, runtime.known_word, runtime.names)

    def word_lists(self) -> list[WordList]:
        """The lists the word guard asks, as the dry run's `explain` names them: a list that
        keeps its sources apart (`WordSources`) is shown source by source."""
        names = self.names
        lists = [
            *_listed("common words", self.known_word, people_only=False),
            *_listed("given names and surnames", names.is_known_name, people_only=True),
        ]
        if names.nicknames is not None:
            lists.append(WordList("nicknames", names.nicknames.knows, people_only=True))
        return lists


@runtime_checkable
class WordSources(Protocol):
    """A word list that can say which of its sources holds a word (one `WordList` each)."""

    def sources(self) -> Sequence[tuple[str, Callable[[str], bool]]]: ...


def _listed(name: str, knows: Callable[[str], bool], *, people_only: bool) -> list[WordList]:
    if isinstance(knows, WordSources):
        return [WordList(label, source, people_only) for label, source in knows.sources()]
    return [WordList(name, knows, people_only)]


def mention_of(fields: MentionCreate | ResolveQuery, index: int | None = None) -> Mention:
    """The mention a request names; a blank name or kind is `domain::empty_label`, with the
    batch index of the mention when it came in a batch."""
    try:
        return make_mention(fields.name, fields.kind)
    except EmptyLabel as error:
        details: dict[str, object] = {"field": error.field}
        if index is not None:
            details = {"index": index, **details}
        raise EmptyLabel(error.field, f"the mention's {error.field} is blank", details) from error


def _input(drawer: str, fields: MentionCreate, index: int | None = None) -> MentionInput:
    return MentionInput(
        drawer=drawer,
        mention=mention_of(fields, index),
        extractor=fields.extractor,
        origin=dict(fields.origin),
        job_id=fields.job_id,
        extracted_at=fields.extracted_at,
    )


class Mentions:
    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime
        self._policy = ResolutionPolicy.of(runtime)
        self._max_batch = runtime.settings.api.max_batch

    def _resolved(self, inputs: list[MentionInput], caller: str | None) -> list[MentionResult]:
        policy = self._policy
        return resolve_mentions(
            self._runtime.store,
            inputs,
            fuzzy=policy.fuzzy,
            known_word=policy.known_word,
            viewer=caller,
            names=policy.names,
            memory=self._runtime.entity_index,
        )

    def resolve_batch(self, body: MentionBatchCreate, caller: str | None) -> bytes:
        """Resolve a batch in order, in one transaction; refused whole if any is bad (at most
        `api.max_batch`). Another agent's diary entry is, to an agent's token, a drawer that
        does not exist.

        The answer is `MentionBatchOut`'s JSON text, encoded by pydantic in one call from plain
        values (`MentionBatchOut.json_of`): building a model per result was most of the time
        left in a batch of a thousand.
        """
        limit = self._max_batch
        if len(body.mentions) > limit:
            raise PayloadTooLarge(
                f"a batch holds at most {limit} mentions",
                {"mentions": len(body.mentions), "max": limit},
            )
        inputs = [_input(m.drawer, m, index) for index, m in enumerate(body.mentions)]
        results = self._resolved(inputs, caller) if inputs else []
        return MentionBatchOut.json_of(results)

    def resolve_in_drawer(self, drawer_id: str, body: MentionCreate, caller: str | None) -> Changed:
        """One mention; changed when it created the MENTIONS edge, not when the drawer already
        had it. An unknown drawer is `palace::drawer_not_found`."""
        try:
            [result] = self._resolved([_input(drawer_id, body)], caller)
        except UnknownDrawers as error:
            raise DrawerNotFound(drawer_id) from error
        return Changed(MentionOut.of(result).model_dump(mode="json"), result.linked)

    def dry_run(self, body: ResolveQuery) -> ResolveOut:
        """What `(name, kind)` would resolve to, with the evidence and why. Writes nothing."""
        mention = mention_of(body)
        policy = self._policy
        decision, created, explanation = explained_dry_run(
            self._runtime.store,
            mention,
            fuzzy=policy.fuzzy,
            known_word=policy.known_word,
            names=policy.names,
            memory=self._runtime.entity_index,
        )
        return ResolveOut.of(decision, created, explanation, policy.word_lists())
