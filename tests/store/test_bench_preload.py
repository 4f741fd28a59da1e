"""The benchmarks' preloaded palace is one a service starts on without migrating anything."""

from pathlib import Path

from bench.names import Named
from bench.preload import preload
from castlegraph.graph.schema import migrations
from tests.support.seeding import opened_graph


def test_a_preloaded_palace_has_every_migration_recorded(tmp_path: Path) -> None:
    """Recorded on the empty graph, before the load: a service that found none recorded would
    page through every loaded entity at its start (two minutes at a million)."""
    loaded = preload(tmp_path, [Named("Ada Lovelace", "person"), Named("Terraform", "tool")])
    assert loaded.entities == 2
    with opened_graph(tmp_path) as store:
        assert migrations.pending(store) == []
        done = migrations.applied(store)
        assert [m.version for m in done] == [m.version for m in migrations.MIGRATIONS]
        assert all(m.changed == 0 for m in done)  # the graph was empty
