"""`GET /api/migrations`: which migrations the graph has recorded and which are pending.

Read-only, so `castlegraph migrate --status` asks the running service here instead of refusing
while the service holds the embedded data directory; applying them still needs the database
alone (design §9).
"""

from fastapi import APIRouter

from castlegraph.api.http.deps import StoredUseCases
from castlegraph.api.http.schemas.errors import TOKEN, errors
from castlegraph.api.models.migrations import MigrationsOut

router = APIRouter(tags=["operations"])


@router.get("/api/migrations", response_model=MigrationsOut, responses=errors(TOKEN))
def get_migrations(usecases: StoredUseCases) -> MigrationsOut:
    """The migrations applied (oldest first) and those still pending, as `migrate --status`."""
    return usecases.operations.migrations()
