"""The map of docs/architecture.md, checked: no import circles, no project import hidden in a
function (but the app factory's), and capabilities import each other only downwards."""

from __future__ import annotations

import ast
import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SKIP = {".venv", "tests", "bench", "migrations", "build", "clients"}

# Which service capabilities each one may import (core is open to all). The direction of
# every other edge goes through signals or the outbox (services/core/signals.py).
SERVICE_LAYERS = {
    "core": set(),
    "audit": {"core"},
    "accounts": {"core", "audit"},
    "keys": {"core", "audit", "accounts"},
    "limits": {"core"},
    "documents": {"core", "audit"},
    "semantic": {"core", "documents"},
    "search": {"core", "documents", "semantic"},
    "copilot": {"core", "audit", "documents", "search", "semantic"},
    "lifecycle": {"core"},
    "oauth": {"core", "audit", "accounts"},
    "passkeys": {"core", "audit", "accounts"},
    "webhooks": {"core", "audit"},
    "notifications": {"core", "push"},
    "push": {"core", "audit", "webhooks"},
    "workflows": {"core", "audit", "notifications"},
    "forms": {"core", "audit", "documents", "workflows"},
    "graph": {"core", "audit", "documents", "search"},
    "operations": {"core", "audit", "accounts", "keys", "limits", "documents", "search"},
    "analytics": {"core", "limits"},
}
# What the layers of the app may import, by top-level name.
FORBIDDEN = {
    "services": {
        "api",
        "portal",
        "jobs",
        "cli",
        "cli_documents",
        "cli_graph",
        "cli_operations",
        "tenancy",
        "app",
    },
    "models": {"api", "portal", "jobs", "services", "tenancy", "app"},
    "jobs": {"api", "portal", "cli", "tenancy", "app"},
    "api": {"portal", "jobs", "cli", "app"},
    "portal": {"api", "jobs", "cli", "app"},
}


def _modules() -> dict[str, Path]:
    found = {}
    for path in ROOT.rglob("*.py"):
        relative = path.relative_to(ROOT)
        if SKIP & set(relative.parts):
            continue
        name = ".".join(relative.with_suffix("").parts).removesuffix(".__init__")
        found[name] = path
    return found


MODULES = _modules()


def _resolve(name: str) -> str | None:
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(tree: ast.AST) -> list[tuple[ast.AST, str]]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found += [(node, f"{node.module}.{alias.name}") for alias in node.names]
    return found


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        targets = {_resolve(target) for _, target in _imports(ast.parse(path.read_text()))}
        graph[name] = {t for t in targets if t and t != name}
    return graph


def test_there_are_no_import_circles():
    graph = _graph()
    visiting, done, circles = [], set(), []

    def visit(module: str) -> None:
        if module in done:
            return
        if module in visiting:
            circles.append([*visiting[visiting.index(module) :], module])
            return
        visiting.append(module)
        for target in sorted(graph[module]):
            visit(target)
        visiting.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
    assert circles == []


def test_no_project_import_hides_in_a_function():
    hidden = []
    for name, path in MODULES.items():
        if name == "app":  # the factory imports inside create_app on purpose (STYLE.md)
            continue
        for function in ast.walk(ast.parse(path.read_text())):
            if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                for _, target in _imports(function):
                    if _resolve(target):
                        hidden.append(f"{name}.{function.name} imports {target}")
    assert hidden == []


def test_layers_import_only_what_they_may():
    wrong = []
    for name, targets in _graph().items():
        layer = name.split(".")[0]
        for target in targets:
            if target.split(".")[0] in FORBIDDEN.get(layer, set()):
                wrong.append(f"{name} -> {target}")
            if name.startswith("services.") and target.startswith("services."):
                mine, theirs = name.split(".")[1], target.split(".")[1]
                if mine != theirs and theirs not in SERVICE_LAYERS[mine] | {"core"}:
                    wrong.append(f"{name} -> {target}")
    assert wrong == []


def test_every_service_package_is_on_the_map():
    packages = {p.name for p in (ROOT / "services").iterdir() if (p / "__init__.py").exists()}
    assert packages == set(SERVICE_LAYERS)


def test_every_python_package_ships_with_pip_install():
    """`pip install .` installs only the packages pyproject.toml lists: a new capability
    package left off the list imports here and is missing from the installed service."""
    import tomllib

    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = set(setuptools["packages"])
    packages = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    top_modules = {n for n, path in MODULES.items() if path.parent == ROOT and "." not in n}
    assert packages - listed == set()
    assert top_modules - set(setuptools["py-modules"]) == set()


# --- one name per capability (capabilities.py) ----------------------------------------------


def _entries(layer: str) -> set[str]:
    """The names found in one layer: modules and packages, template and test folders, docs."""
    folder = {"templates": ROOT / "templates" / "portal", "docs": ROOT / "docs"}.get(
        layer, ROOT / layer
    )
    names = set()
    for path in folder.iterdir():
        if path.name.startswith(("_", ".")):
            continue
        if layer == "docs":
            names |= {path.stem} if path.suffix == ".md" else set()
        elif layer in ("templates", "tests"):
            names |= {path.name} if path.is_dir() and path.name != "__pycache__" else set()
        elif path.suffix == ".py" or (path / "__init__.py").exists():
            names.add(path.stem if path.suffix == ".py" else path.name)
    return names


def test_every_capability_is_found_under_its_name_in_each_layer_it_claims():
    import capabilities

    missing = [
        f"{c.name}: {capabilities.LAYERS[layer].replace('x', c.name)}"
        for c in capabilities.CAPABILITIES
        for layer in sorted(c.layers)
        if c.name not in _entries(layer)
    ]
    assert missing == []


def test_every_module_belongs_to_a_capability_or_to_what_all_share():
    import capabilities

    strays = []
    for layer in capabilities.LAYERS:
        known = set(capabilities.having(layer)) | capabilities.SHARED[layer]
        strays += [f"{layer}: {name}" for name in sorted(_entries(layer) - known)]
    assert strays == []


def test_the_architecture_map_lists_the_capabilities_as_the_registry_does():
    """docs/architecture.md's table: `| name | layers | what it owns |`, one row each."""
    import capabilities

    rows = {}
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[0] in SERVICE_LAYERS:
            rows[cells[0]] = set(cells[1].split())
    assert rows == {c.name: set(c.layers) for c in capabilities.CAPABILITIES}


# --- the unit of work: services flush, the boundary commits ----------------------------------

# Every module of services/, api/ and portal/ that commits: how many commit points it has and
# why. A commit point is a `.commit()` or `commit()` call and, in services/, `transactional`
# (a unit of work of its own is a commit too). Views commit only through the boundary
# decorators (`@transactional`, `@idempotent`); each listed call says why in a comment beside
# it (its line or the line above).
COMMITS = {
    "services/core/transaction.py": (2, "the boundary: every unit of work commits here"),
    "api/idempotency.py": (2, "@idempotent: a creating view's changes with its stored response"),
    "services/core/idempotency.py": (
        3,
        "an Idempotency-Key's claim is seen by concurrent requests at once; its release stands",
    ),
    "services/copilot/conversations.py": (
        2,
        "the quota's claim commits before answering, so no lock is held; its refund stands",
    ),
    "services/search/indexing.py": (
        4,
        "extraction and OCR are scheduled after a commit; the vectors' rebuild, in batches",
    ),
    "services/semantic/embedding.py": (2, "embedding is scheduled after the passages' commit"),
    "services/documents/purge.py": (1, "the trash purge, a batch at a time"),
    "services/search/passages.py": (1, "the passages' rebuild, a batch at a time"),
    "services/search/index_merge.py": (1, "merging SQLite's search index, a step at a time"),
    "services/search/common_words.py": (2, "listing the common words, a term at a time"),
    "services/operations/tenant_import.py": (1, "the rows stand before their blobs are released"),
    "services/operations/tenant_delete.py": (
        2,
        "the purge signals' work, then the rows, before the blobs and Redis keys go",
    ),
}


def _sources(*tops: str) -> list[tuple[str, str]]:
    return [
        (path.relative_to(ROOT).as_posix(), path.read_text())
        for top in tops
        for path in sorted((ROOT / top).rglob("*.py"))
    ]


def _commit_points(relative: str, tree: ast.AST) -> list[ast.AST]:
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else None
            name = node.func.id if isinstance(node.func, ast.Name) else name
            if name == "commit":
                found.append(node)
        if relative.startswith("services/"):
            name = node.attr if isinstance(node, ast.Attribute) else None
            name = node.id if isinstance(node, ast.Name) else name
            if name == "transactional":
                found.append(node)
    return found


def _commented_lines(source: str) -> set[int]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {token.start[0] for token in tokens if token.type == tokenize.COMMENT}


def test_only_the_listed_modules_commit_and_each_commit_says_why():
    counts, silent = {}, []
    for relative, source in _sources("services", "api", "portal"):
        points = _commit_points(relative, ast.parse(source))
        if points:
            counts[relative] = len(points)
        commented = _commented_lines(source)
        silent += [
            f"{relative}:{point.lineno}"
            for point in points
            if not {point.lineno, point.lineno - 1, point.end_lineno} & commented
        ]
    assert counts == {module: count for module, (count, _why) in COMMITS.items()}
    assert silent == []
