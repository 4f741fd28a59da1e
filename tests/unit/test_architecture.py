"""Dependencies run api -> graph -> resolver (DESIGN §2), checked on the import statements."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THIRD_PARTY_FOR_RESOLVER = {"rapidfuzz", "jellyfish"}


def imported_modules(package: str) -> set[tuple[str, str]]:
    found = set()
    for path in (ROOT / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {(path.name, alias.name.split(".")[0]) for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.add((path.name, node.module.split(".")[0]))
    return found


def test_resolver_imports_only_the_stdlib_rapidfuzz_and_jellyfish() -> None:
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
