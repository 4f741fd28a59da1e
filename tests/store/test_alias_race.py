"""An alias and another entity's name cannot both win a race (design §11, an alias that is
another entity's key): the check and the write of an alias run under the lock resolution
takes, so whichever commits first decides, on every backend."""

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from castlegraph.graph.entities.entity_curation import add_alias
from castlegraph.graph.errors import AliasTaken
from tests.store.test_entities import new_drawer, resolve
from tests.support.holding import holding_first


def entity_names(store: Any) -> list[str]:
    rows = store.run_text("MATCH (e:Entity) RETURN e.name AS name", {})
    return sorted(row["name"] for row in rows)


def test_an_alias_waits_for_the_entity_being_created_and_is_refused(store: Any) -> None:
    drawer = new_drawer(store, "notes on the team")
    [maria] = resolve(store, drawer, ("Maria Lopez", "person"))
    with holding_first("write_resolutions") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        created = pool.submit(resolve, store, drawer, ("Mario Lopez", "person"))
        assert hold.holding.wait(timeout=30)
        alias = pool.submit(add_alias, store, maria.entity.view.id, "Mario Lopez")
        time.sleep(0.5)  # the alias reaches the lock while the new entity is uncommitted
        hold.release.set()
        [mario] = created.result(timeout=60)
        with pytest.raises(AliasTaken) as refused:
            alias.result(timeout=60)
    assert refused.value.details["entity"] == mario.entity.view.id
    assert entity_names(store) == ["Maria Lopez", "Mario Lopez"]


def test_a_name_resolved_while_the_alias_is_written_converges_on_it(store: Any) -> None:
    drawer = new_drawer(store, "notes on the team")
    [maria] = resolve(store, drawer, ("Maria Lopez", "person"))
    with holding_first("set_entity_spellings") as hold, ThreadPoolExecutor(max_workers=2) as pool:
        alias = pool.submit(add_alias, store, maria.entity.view.id, "Mario Lopez")
        assert hold.holding.wait(timeout=30)
        later = pool.submit(resolve, store, drawer, ("Mario Lopez", "person"))
        time.sleep(0.5)  # the mention reaches the lock while the alias is uncommitted
        hold.release.set()
        assert alias.result(timeout=60).view.aliases == ("Mario Lopez",)
        [seen] = later.result(timeout=60)
    assert (seen.entity.view.id, seen.rule) == (maria.entity.view.id, "alias")
    assert entity_names(store) == ["Maria Lopez"]
