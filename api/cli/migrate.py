"""`castlegraph migrate [--status]`: apply or list migrations.

Applying needs the database alone, so it never goes through a service: when one holds the data
directory, the command says so and stops. `--status` is read-only, so it then asks that service
(`_status_anywhere`). Progress is polled while the migrations run on a worker thread (`_run`).
"""

import sys
import threading
from dataclasses import asdict
from typing import Annotated

import typer

from castlegraph.api.cli.options import CommonOptions, reported_errors, with_common_options
from castlegraph.api.cli.output import emit, migration_report
from castlegraph.api.cli.progress import Step, follow
from castlegraph.api.client.connect import holder_url, open_exclusive
from castlegraph.api.client.http import HttpClient
from castlegraph.api.client.protocol import Json
from castlegraph.api.service.settings import Settings
from castlegraph.graph.backends.opener import Backend
from castlegraph.graph.backends.store import GraphStore
from castlegraph.graph.errors import DataDirInUse
from castlegraph.graph.schema import migrations


def _open(settings: Settings) -> Backend:
    """Open the backend as the runtime does (schema applied) but without migrating, so the
    status sees what is pending."""
    backend = open_exclusive(settings, "migrations need the database alone")
    try:
        backend.store.apply_schema(memory_indexes=settings.dedup.memory_index)
    except BaseException:
        backend.close()
        raise
    return backend


def _status(store: GraphStore) -> Json:
    return migrations.status(store)


def _status_anywhere(settings: Settings) -> Json:
    """The status in-process, else from the running service that holds the data directory
    (`GET /api/migrations`, where it recorded that it listens)."""
    try:
        backend = _open(settings)
    except DataDirInUse:
        url = holder_url(settings)
        print(
            f"castlegraph: a service is using {settings.graph.data_dir}; asking it at {url}",
            file=sys.stderr,
        )
        with HttpClient(url, settings) as client:
            return client.migrations()
    try:
        return _status(backend.store)
    finally:
        backend.close()


def _run(store: GraphStore) -> list[migrations.AppliedMigration]:
    """Apply what is pending on a worker thread, showing how many are recorded so far."""
    todo = len(migrations.pending(store))
    if not todo:
        return []
    before = len(migrations.applied(store))
    done: list[migrations.AppliedMigration] = []
    failed: list[BaseException] = []

    def work() -> None:
        try:
            done.extend(migrations.migrate(store))
        except BaseException as error:
            failed.append(error)

    worker = threading.Thread(target=work, name="castlegraph-migrate", daemon=True)
    worker.start()

    def poll() -> Step:
        finished = not worker.is_alive()
        return Step(min(len(migrations.applied(store)) - before, todo), todo, finished)

    try:
        follow("migrate", "migrations", poll)
    except KeyboardInterrupt:
        # Stopping halfway would leave the lease held: finish, then report as usual.
        typer.echo("castlegraph: interrupted; finishing the running migrations first", err=True)
    worker.join()
    if failed:
        raise failed[0]
    return done


@with_common_options(url=False)
def migrate(  # typer calls commands with keywords
    *,
    status: Annotated[
        bool, typer.Option("--status", help="List applied and pending migrations; change nothing.")
    ] = False,
    options: CommonOptions,
) -> None:
    """Apply pending migrations (stop the service first: they need the database alone), or
    list them with --status (asking the running service, if one holds the data directory)."""
    settings = options.settings()
    with reported_errors():
        if status:
            answer = _status_anywhere(settings)
        else:
            backend = _open(settings)
            try:
                applied_now = [asdict(m) for m in _run(backend.store)]
                answer = {"migrated": applied_now, **_status(backend.store)}
            finally:
                backend.close()
    emit(answer, options.as_json, migration_report)
