"""`GET /api/migrations`: which migrations the graph has recorded and which are pending.

Read-only, so `castlegraph migrate --status` asks the running service here instead of refusing
while the service holds the embedded data directory; applying them still needs the database
alone (design §9).
"""

from fastapi import APIRouter
from pydantic import BaseModel

from castlegraph.api.http.deps import StoreDep
from castlegraph.api.http.schemas.errors import TOKEN, errors
from castlegraph.graph.schema import migrations

router = APIRouter(tags=["operations"])


class PendingMigrationOut(BaseModel):
    version: int
    name: str


class AppliedMigrationOut(PendingMigrationOut):
    applied_at: str
    changed: int


class MigrationsOut(BaseModel):
    applied: list[AppliedMigrationOut]
    pending: list[PendingMigrationOut]


@router.get("/api/migrations", response_model=MigrationsOut, responses=errors(TOKEN))
def get_migrations(store: StoreDep) -> MigrationsOut:
    """The migrations applied (oldest first) and those still pending, as `migrate --status`."""
    return MigrationsOut.model_validate(migrations.status(store))
