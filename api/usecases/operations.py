"""Operations: which migrations the graph has recorded and which are pending (design §9)."""

from castlegraph.api.models.migrations import MigrationsOut
from castlegraph.api.service.runtime import Runtime
from castlegraph.graph.schema import migrations


class Operations:
    def __init__(self, runtime: Runtime) -> None:
        self._runtime = runtime

    def migrations(self) -> MigrationsOut:
        """The migrations applied (oldest first) and those still pending, as `migrate
        --status`."""
        return MigrationsOut.model_validate(migrations.status(self._runtime.store))
