"""Every module of the project says what it is for in a few lines: a module docstring of at most
`MAX_LINES` lines. The longer why belongs on the function or class it explains (castlegraph
issue 40)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("api", "graph", "resolver", "bench", "castlegraph")
MAX_LINES = 8


def modules(root: Path) -> list[Path]:
    """The packages' modules, each once (`castlegraph/` links the other packages)."""
    seen: set[Path] = set()
    found = []
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            if path.resolve() not in seen:
                seen.add(path.resolve())
                found.append(path)
    return found


def offenders(root: Path) -> dict[str, str]:
    """Each module without a docstring or with a longer one than `MAX_LINES`: what is wrong."""
    wrong = {}
    for path in modules(root):
        docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")), clean=False)
        name = path.relative_to(root).as_posix()
        if docstring is None:
            wrong[name] = "no module docstring"
        elif (lines := docstring.count("\n") + 1) > MAX_LINES:
            wrong[name] = f"{lines} lines"
    return wrong


def test_every_module_says_what_it_is_for_in_a_few_lines() -> None:
    wrong = offenders(ROOT)
    listed = "\n".join(f"  {name}: {problem}" for name, problem in sorted(wrong.items()))
    assert not wrong, f"module docstrings missing or over {MAX_LINES} lines:\n{listed}"


def test_the_check_sees_a_long_and_a_missing_docstring(tmp_path: Path) -> None:
    graph = tmp_path / "graph"
    graph.mkdir()
    (graph / "short.py").write_text('"""One line."""\n', encoding="utf-8")
    (graph / "long.py").write_text('"""' + "\n".join(["line"] * 9) + '"""\n', encoding="utf-8")
    (graph / "bare.py").write_text("VALUE = 1\n", encoding="utf-8")
    assert offenders(tmp_path) == {
        "graph/long.py": "9 lines",
        "graph/bare.py": "no module docstring",
    }
    assert len(modules(ROOT)) > 100
