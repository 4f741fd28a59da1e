"""The answer of the migrations' status (`GET /api/migrations`, `migrate --status`)."""

from pydantic import BaseModel


class PendingMigrationOut(BaseModel):
    version: int
    name: str


class AppliedMigrationOut(PendingMigrationOut):
    applied_at: str
    changed: int


class MigrationsOut(BaseModel):
    applied: list[AppliedMigrationOut]
    pending: list[PendingMigrationOut]
