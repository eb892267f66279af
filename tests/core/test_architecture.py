"""The map of docs/architecture.md, checked: no import circles, no project import hidden in a
function (but the app factory's), capabilities import each other only downwards, and the
comments and docstrings tell no history and name only paths that exist."""

from __future__ import annotations

import ast
import io
import re
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
    "push": {"core", "audit"},
    "workflows": {"core", "audit", "notifications"},
    "forms": {"core", "audit", "documents", "workflows"},
    "graph": {"core", "audit", "documents", "search"},
    "notes": {"core", "audit", "notifications"},
    "customfields": {"core", "audit", "documents"},
    "operations": {"core", "audit", "accounts", "keys", "limits", "documents", "search"},
    "analytics": {"core", "limits"},
    "sharing": {"core", "audit", "accounts", "documents"},
    "thumbnails": {"core", "documents", "search"},
    "views": {"core", "audit", "documents", "customfields"},
    "bulk": {"core", "audit", "documents", "customfields", "workflows"},
    "mfa": {"core", "audit", "accounts", "passkeys"},
    "matching": {"core", "audit", "documents", "customfields", "workflows", "bulk"},
    "mailaccounts": {"core", "audit", "documents", "notifications"},
}
# What the layers of the app may import, by top-level name. The CLI (cli/) sits beside the
# API and the portal: it calls services, and jobs for `flask worker` and the inline runs.
FORBIDDEN = {
    "services": {"api", "portal", "jobs", "cli", "tenancy", "app"},
    "models": {"api", "portal", "jobs", "cli", "services", "tenancy", "app"},
    "jobs": {"api", "portal", "cli", "tenancy", "app"},
    "api": {"portal", "jobs", "cli", "app"},
    "portal": {"api", "jobs", "cli", "app"},
    "cli": {"api", "portal", "tenancy", "app"},
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


def test_lazy_modules_name_libraries_only():
    """services/core/lazy.py is the one sanctioned way to defer an import, for libraries: a
    project module named there would dodge the checks above (circles, hidden imports)."""
    wrong = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "module"
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "lazy"
            ):
                arg = node.args[0] if len(node.args) == 1 else None
                literal = isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                if not literal or _resolve(arg.value):
                    wrong.append(f"{name}: {ast.unparse(node)}")
    assert wrong == []


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


def test_a_capabilitys_commands_import_only_what_all_commands_share():
    """cli/<name>.py reaches another capability through its services, never through its
    commands: the only cli modules it imports are the shared ones (capabilities.SHARED)."""
    import capabilities

    shared = {f"cli.{name}" for name in capabilities.SHARED["cli"]} | {"cli"}
    wrong = [
        f"{name} -> {target}"
        for name, targets in _graph().items()
        if name.startswith("cli.")
        for target in targets
        if target.startswith("cli.") and target not in shared and target != name
    ]
    assert wrong == []


def test_every_service_package_is_on_the_map():
    packages = {p.name for p in (ROOT / "services").iterdir() if (p / "__init__.py").exists()}
    assert packages == set(SERVICE_LAYERS)


def test_every_python_package_ships_with_pip_install():
    """`pip install .` installs the modules pyproject.toml lists and the packages setuptools
    finds under its include list: a package outside both imports here and is missing from
    the installed service."""
    from setuptools.config.pyprojecttoml import read_configuration

    setuptools = read_configuration(ROOT / "pyproject.toml")["tool"]["setuptools"]
    installed = set(setuptools["packages"])  # the find directive, expanded as a build does
    packages = {name for name, path in MODULES.items() if path.name == "__init__.py"}
    top_modules = {n for n, path in MODULES.items() if path.parent == ROOT and "." not in n}
    assert packages - installed == set()
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


def test_the_architecture_map_fits_one_screen():
    assert len((ROOT / "docs" / "architecture.md").read_text().splitlines()) <= 80


def test_the_architecture_map_lists_the_capabilities_as_the_registry_does():
    """docs/architecture.md's table: `| name | layers | what it owns |`, one row each."""
    import capabilities

    rows = {}
    for line in (ROOT / "docs" / "architecture.md").read_text().splitlines():
        cells = [cell.strip().strip("`") for cell in line.strip().strip("|").split("|")]
        if line.startswith("|") and len(cells) == 3 and cells[0] in SERVICE_LAYERS:
            rows[cells[0]] = set(cells[1].split())
    assert rows == {c.name: set(c.layers) for c in capabilities.CAPABILITIES}


# --- one definition of each wire shape -------------------------------------------------------


def _documented_models(app) -> dict[str, type]:
    """Every pydantic model an API view validates with or answers, which the OpenAPI document
    describes: its query, its body, its form fields and its answer."""
    found = {}
    for endpoint, view in app.view_functions.items():
        doc = getattr(view, "api_doc", None) or {}
        models = [doc.get("query"), doc.get("body"), (doc.get("form") or {}).get("model")]
        models.append((doc.get("response") or {}).get("model"))
        found |= {f"{endpoint}: {m.__name__}": m for m in models if m is not None}
    return found


def test_every_shape_the_api_documents_is_defined_in_a_wire_module(app):
    """A capability's requests and answers are defined once, in services/<name>/wire.py, which
    the API, the portal and the OpenAPI document all read (the portal may not import api/)."""
    documented = _documented_models(app)
    elsewhere = [
        f"{where} is in {model.__module__}"
        for where, model in sorted(documented.items())
        if not re.fullmatch(r"services\.\w+\.wire", model.__module__)
    ]
    assert len(documented) > 50
    assert elsewhere == []


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
    "services/search/indexing.py": (1, "the vectors' rebuild, in batches"),
    "services/search/extraction_runs.py": (
        3,
        "extraction and OCR are scheduled after a commit, each a unit of work of its own",
    ),
    "services/semantic/embedding.py": (2, "embedding is scheduled after the passages' commit"),
    "services/documents/purge.py": (1, "the trash purge, a batch at a time"),
    "services/documents/folder_import.py": (1, "a folder's import, a batch at a time"),
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


# --- tenancy in one place: tenant-owned rows load inside their tenant ------------------------

# Service modules no request reaches (only jobs/, the CLI and each other import them): their
# sweeps go over every tenant on purpose.
JOB_AND_CLI_MODULES = {
    "services/documents/purge.py": "the trash purge (the daily job, `flask documents purge`)",
    "services/search/recovery.py": "the recovery sweep (a job)",
    "services/webhooks/batches.py": "the webhook drain (a job)",
    "services/webhooks/reconciler.py": "the webhook reconciler (a job, `flask webhooks`)",
    "services/workflows/escalation.py": "the escalation sweep (a job)",
    "services/thumbnails/backfill.py": "`flask documents thumbnails`, over every tenant",
    "services/bulk/recovery.py": "the bulk jobs' recovery sweep (a job)",
    "services/matching/recovery.py": "the apply jobs' recovery sweep (a job)",
    "services/mailaccounts/polling.py": "the mail polls (jobs, `flask mailaccounts`)",
    "services/mailaccounts/importing.py": "a polled message's import (the poll job)",
}
# The loads of a tenant-owned model by something else than its tenant, by module:function.
UNSCOPED_LOADS = {
    # Authentication: a secret's digest, a signed cookie or a verified token names the row,
    # and the row its tenant.
    "portal/security.py:_load_principal": "the signed-in person, by the session cookie's id",
    "services/accounts/sessions.py:is_live": "the cookie's session, checked against its person",
    "services/accounts/sessions.py:live_sessions": "the signed-in person's (or staff's) own",
    "services/accounts/user_grants.py:lookup": "the user a verified token names",
    "services/keys/api_keys.py:find_by_digest": "the key its secret's digest names",
    "services/oauth/clients.py:find_client": "an app by its public client id, naming its tenant",
    "services/oauth/server.py:CodeGrant.query_authorization_code": "a code, by its digest",
    "services/oauth/server.py:Revocation.query_token": "the family a verified token names",
    "services/oauth/tokens.py:find_refresh": "a refresh token, by its digest",
    "services/passkeys/credentials.py:find": "a credential id is unique in the installation",
    "services/forms/forms.py:get_public_form": "a public form's id is its page's address",
    "services/sharing/links.py:find_by_token": "a share link by its token's digest",
    "services/accounts/invitations.py:open_invitation": "an invitation by its token's digest",
    # Inside a statement that is the tenant's already.
    "services/documents/listing.py:_tags": "correlated to the outer query's (the tenant's) rows",
    "services/search/engines/sqlite.py:_first_documents": "every tenant's first ids; keeps its own",
    "services/search/indexing.py:text_row": "keyed by its document, loaded in its tenant",
    # Jobs and the CLI, in modules that requests use as well.
    "services/push/deliveries.py:claim": "the job's delivery, by the id it was enqueued with",
    "services/push/deliveries.py:record_outcome": "the job's delivery, by its enqueued id",
    "services/webhooks/deliveries.py:claim": "the job's delivery, by the id it was enqueued with",
    "services/webhooks/deliveries.py:record_outcome": "the job's delivery, by its enqueued id",
    "services/push/reconciler.py:lost_deliveries": "the reconciler job, over every tenant",
    "services/notifications/causes.py:remind_key_rotations": "the daily job, over every tenant",
    "services/search/extraction_runs.py:pending_documents": "the recovery job, the CLI: any tenant",
    "services/search/passages.py:rebuild": "`flask documents rebuild-passages`: any tenant",
}


def _tenant_models() -> tuple[set[str], set[str]]:
    """(tenant-owned, tenant-free) model names: tenant-owned ones have a tenant_id column."""
    import models  # noqa: F401  (maps every model)
    from extensions import db

    mappers = list(db.Model.registry.mappers)
    owned = {m.class_.__name__ for m in mappers if "tenant_id" in m.local_table.c}
    return owned, {m.class_.__name__ for m in mappers} - owned


def _names_the_tenant(node: ast.AST) -> bool:
    """Whether an expression mentions a tenant: `tenant_id` (a name, an attribute, a keyword)
    or a tenant helper (`get_for_tenant`, `found_in_tenant`, `query_for_tenant`, `in_tenant`)."""
    for part in ast.walk(node):
        name = getattr(part, "id", None) or getattr(part, "attr", None) or getattr(part, "arg", "")
        if name and ("tenant_id" in name or name.endswith(("for_tenant", "in_tenant"))):
            return True
    return False


def _statement_chain(select: ast.Call, parents: dict) -> list[ast.AST]:
    """What a `select(...)` is built with: the arguments of the calls chained on it
    (`.where(...)`, `.join(...)`) and of the helpers it is passed through (`_owned(stmt, ...)`)."""
    arguments: list[ast.AST] = []
    node = select
    while True:
        parent = parents.get(node)
        if isinstance(parent, ast.Attribute) and getattr(parents.get(parent), "func", 0) is parent:
            node = parents[parent]
            arguments += [*node.args, *node.keywords]
        elif isinstance(parent, ast.Call) and node in parent.args:
            arguments += [a for a in parent.args if a is not node] + [parent.func, *parent.keywords]
            node = parent
        else:
            return arguments


def _unscoped_loads(source: str, owned: set[str], free: set[str]) -> list[tuple[str, str]]:
    """(function, what) of each `db.session.get(Model, id)` of a model not known to be
    tenant-free (unless the key names the tenant), and each `select(...)` of a tenant-owned
    model or its columns whose statement never names a tenant."""
    tree = ast.parse(source)
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}

    def function_of(node: ast.AST) -> str:
        names = []
        while node in parents:
            node = parents[node]
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.append(node.name)
        return ".".join(reversed(names)) or "<module>"

    def model_of(argument: ast.AST) -> str | None:
        if isinstance(argument, ast.Attribute):
            argument = argument.value
        return argument.id if isinstance(argument, ast.Name) else None

    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        if ast.unparse(func) == "db.session.get":
            model = ast.unparse(node.args[0])
            if model not in free and not _names_the_tenant(ast.Module(node.args[1:], [])):
                found.append((function_of(node), f"db.session.get({model}, ...)"))
        elif isinstance(func, ast.Name) and func.id == "select":
            models = [m for m in map(model_of, node.args) if m in owned]
            if models and not _names_the_tenant(ast.Module(_statement_chain(node, parents), [])):
                found.append((function_of(node), f"select({models[0]} ...)"))
    return found


def test_tenant_owned_rows_load_only_inside_their_tenant():
    owned, free = _tenant_models()
    assert {"Document", "User", "DocumentText"} <= owned and "Tenant" in free
    found, unscoped = [], set()
    for relative, source in _sources("api", "portal", "services"):
        if relative in JOB_AND_CLI_MODULES:
            continue
        for function, what in _unscoped_loads(source, owned, free):
            unscoped.add(f"{relative}:{function}")
            if f"{relative}:{function}" not in UNSCOPED_LOADS:
                found.append(f"{relative}:{function}: {what}")
    assert found == []
    assert set(UNSCOPED_LOADS) - unscoped == set()  # no stale entries


def test_no_request_reaches_the_job_and_cli_modules():
    graph = _graph()
    listed = {path.removesuffix(".py").replace("/", ".") for path in JOB_AND_CLI_MODULES}
    reached = [
        f"{importer} -> {module}"
        for importer, targets in graph.items()
        for module in listed & targets
        if importer.split(".")[0] not in {"jobs", "cli"} and importer not in listed
    ]
    assert reached == []
    assert all(name in MODULES and not name.endswith("subscriptions") for name in listed)


# --- comments and docstrings: the present tense, and paths that exist -------------------------

PROSE_PACKAGES = ("api", "portal", "services", "models", "jobs", "cli")
# History told in prose: an issue's number, or one of the work sessions of its history ("the
# twelfth session", "this session"). A portal, HTTP or database session is no history.
HISTORY = re.compile(
    r"\bissue \d+\b|\b(?:first|second|third|\w+th|\d+(?:st|nd|rd)|this|earlier|previous|last)"
    r" sessions?\b",
    re.IGNORECASE,
)
# The words before "session" that \w+th matches but that name no ordinal.
NOT_ORDINALS = {"with", "both", "auth", "path", "oauth", "booth", "month", "teeth", "depth"}
# A repository path named in prose; one preceded by `/` (a URL path) or `.` is none.
NAMED_PATH = re.compile(r"(?<![\w/.<-])((?:api|portal|services|models|jobs|cli|docs)/[\w/.-]*)")


def _prose(source: str) -> list[tuple[int, str]]:
    """Each line of the comments and docstrings of `source`, with its line number."""
    lines = [
        (token.start[0], token.string)
        for token in tokenize.generate_tokens(io.StringIO(source).readline)
        if token.type == tokenize.COMMENT
    ]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if (
                isinstance(first, ast.Expr)
                and isinstance(first.value, ast.Constant)
                and isinstance(first.value.value, str)
            ):
                text = first.value.value.splitlines()
                lines += [(first.lineno + n, line) for n, line in enumerate(text)]
    return lines


def _history(line: str) -> list[str]:
    return [
        match.group(0)
        for match in HISTORY.finditer(line)
        if match.group(0).split()[0].lower() not in NOT_ORDINALS
    ]


def _path_exists(named: str) -> bool:
    """Whether a path named in prose exists: as written, as a module (`.py`) or a document
    (`.md`), or as a name a module defines (`services/search/fts5_rows.rowid`)."""
    path = named.rstrip(".,:;")
    if (ROOT / path).exists() or any((ROOT / (path + end)).exists() for end in (".py", ".md")):
        return True
    folder, _, last = path.rpartition("/")
    module, _, name = last.partition(".")
    source = ROOT / folder / f"{module}.py"
    if not name or not source.exists():
        return False
    attribute = name.split(".")[0]
    defined = rf"^\s*(?:async def|def|class) {attribute}\b|^{attribute}\b.*="
    return re.search(defined, source.read_text(), re.MULTILINE) is not None


def test_comments_and_docstrings_tell_no_history():
    found = [
        f"{relative}:{number}: {told}"
        for relative, source in _sources(*PROSE_PACKAGES)
        for number, line in _prose(source)
        for told in _history(line)
    ]
    assert found == [], "history belongs in commit messages, not in code"


def test_every_path_named_in_comments_and_docstrings_exists():
    found = [
        f"{relative}:{number}: {match.group(1)}"
        for relative, source in _sources(*PROSE_PACKAGES)
        for number, line in _prose(source)
        for match in NAMED_PATH.finditer(line)
        if not _path_exists(match.group(1))
    ]
    assert found == []
