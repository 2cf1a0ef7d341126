"""The boundaries the package READMEs state, checked on the import graph (tests/import_graph.py).

No module of rules/ or tournaments/ may take part in an import circle, wherever the import stands (a
function-local import is still an arrow), and no package in a circle of packages (each module folded
into its package, tests/import_graph.py `package_arrows`). Then each boundary below is one README's "may import" line
turned into a rule: the modules under `where` never import anything under `never`.
"""

from __future__ import annotations

import ast

import pytest

from tests.import_graph import ROOT, Arrow, arrows, circles, module_files, package_arrows

ARROWS = arrows()


def _outside_imports() -> dict[str, list[tuple[str, int]]]:
    """Every absolute import of each module, by name: outside packages (Django) are not in the graph."""
    found: dict[str, list[tuple[str, int]]] = {}
    for name, path in module_files().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                found.setdefault(name, []).extend((alias.name, node.lineno) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found.setdefault(name, []).append((node.module, node.lineno))
    return found


OUTSIDE = _outside_imports()

# (what, modules it is about, prefixes they never import, why: the README that says so)
BOUNDARIES: list[tuple[str, tuple[str, ...], tuple[str, ...], str]] = [
    ("the rules engine is pure Python", ("rules",), ("django", "tournaments"), "rules/README.md"),
    ("reading PDN text never needs the engine",
     ("rules.pdn.reader", "rules.pdn.game", "rules.pdn.gametype", "rules.pdn.problems"),
     ("rules.board", "rules.core", "rules.notation", "rules.fast_notation", "rules.replay", "rules.draws",
      "rules.fen", "rules.pdn.writer", "rules.pdn.irregularities"), "rules/pdn/README.md"),
    ("pairing is pure", ("tournaments.pairing",),
     ("django", "tournaments.models", "tournaments.rounds.services", "tournaments.selectors", "tournaments.admin",
      "tournaments.views", "tournaments.public", "tournaments.sheets", "tournaments.printing",
      "tournaments.exchange", "tournaments.rounds.pairing_bridge", "tournaments.standings",
      "tournaments.verification"),
     "tournaments/pairing/README.md"),
    ("standings are pure", ("tournaments.standings",),
     ("django", "tournaments.models", "tournaments.rounds.services", "tournaments.selectors", "tournaments.admin",
      "tournaments.views", "tournaments.public", "tournaments.sheets", "tournaments.printing",
      "tournaments.exchange", "tournaments.rounds.pairing_bridge", "tournaments.pairing.engine",
      "tournaments.pairing.dutch", "tournaments.verification"),
     "tournaments/standings/README.md"),
    ("team competitions are pure", ("tournaments.teams",),
     ("django", "tournaments.models", "tournaments.rounds", "tournaments.selectors", "tournaments.admin",
      "tournaments.views", "tournaments.public", "tournaments.sheets", "tournaments.printing",
      "tournaments.exchange", "tournaments.standings", "tournaments.pairing.engine",
      "tournaments.pairing.dutch", "tournaments.verification"),
     "tournaments/teams/README.md"),
]


# Public pages and PDFs only read: no service (the writes), no admin, no upload handling.
NO_WRITES = ("tournaments.rounds.services", "tournaments.players.expulsion", "tournaments.admin",
             "tournaments.sheets.services", "tournaments.sheets.upload", "tournaments.exchange",
             "tournaments.ratinglists.services")
BOUNDARIES += [
    ("sheets import no page", ("tournaments.sheets",), ("tournaments.admin", "tournaments.public",
                                                          "tournaments.printing"), "tournaments/sheets/README.md"),
    ("exchange imports no page", ("tournaments.exchange",), ("tournaments.admin", "tournaments.public",
                                                             "tournaments.printing"), "tournaments/exchange/README.md"),
    ("rating lists import no page", ("tournaments.ratinglists",), ("tournaments.admin", "tournaments.public",
                                                                   "tournaments.printing"),
     "tournaments/ratinglists/README.md"),
    ("selectors only read", ("tournaments.selectors",),
     ("tournaments.rounds", "tournaments.players", "tournaments.admin"),
     "tournaments/README.md"),
    ("public views never write", ("tournaments.public",), NO_WRITES, "tournaments/public/README.md"),
    ("printing never writes", ("tournaments.printing",), NO_WRITES, "tournaments/printing/README.md"),
    ("the report to the federation never writes", ("tournaments.federation",), NO_WRITES,
     "tournaments/federation/README.md"),
    # the rating systems are rules as data: a second system is a second table, read without Django
    ("rating systems are pure", ("tournaments.federation.rating_systems",), ("django", "tournaments"),
     "tournaments/federation/README.md"),
    # the pure packages may read numbers with rules.numbers, which itself stands on the standard library alone
    ("reading a number needs nothing else", ("rules.numbers",), ("django", "tournaments", "rules.types",
     "rules.geometry", "rules.core", "rules.board", "rules.notation", "rules.fen", "rules.pdn", "rules.replay"),
     "rules/README.md"),
    ("nothing below the admin imports it",
     ("tournaments.rounds.services", "tournaments.selectors", "tournaments.conformance", "tournaments.sheets",
      "tournaments.exchange", "tournaments.ratinglists", "tournaments.public", "tournaments.printing",
      "tournaments.federation", "tournaments.competitions",
      "tournaments.management",
      "tournaments.rounds.pairing_bridge", "tournaments.rounds.round_control"), ("tournaments.admin",),
     "tournaments/admin/README.md"),
    ("the warning levels are pure data", ("tournaments.conformance.policy",), ("django", "tournaments"),
     "tournaments/conformance/README.md"),
    ("conformance shows no page", ("tournaments.conformance",),
     ("tournaments.admin", "tournaments.public", "tournaments.printing"), "tournaments/conformance/README.md"),
    # (the admin's own tag damier_manual reads its chapter map, tournaments.admin.manual)
    # a tag shows what its view read: the reads (selectors, the scopes of permissions, the ranking) stay out
    ("template tags only read", ("tournaments.templatetags",),
     ("tournaments.rounds.services", "tournaments.sheets.services", "tournaments.sheets.upload",
      "tournaments.exchange", "tournaments.selectors", "tournaments.permissions", "tournaments.ranking"),
     "tournaments/templatetags/README.md"),
    ("commands show no page", ("tournaments.management",),
     ("tournaments.admin", "tournaments.public", "tournaments.printing"), "tournaments/management/README.md"),
    ("pairing reads numbers, never the game", ("tournaments.pairing", "tournaments.verification"),
     ("rules.types", "rules.geometry", "rules.core", "rules.board", "rules.notation", "rules.fast_notation",
      "rules.fen", "rules.draws", "rules.pdn", "rules.replay", "rules.report"), "tournaments/pairing/README.md"),
]


def _matches(name: str, prefixes: tuple[str, ...]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def crossings(where: tuple[str, ...], never: tuple[str, ...], graph: list[Arrow] | None = None,
              outside: dict[str, list[tuple[str, int]]] | None = None) -> list[str]:
    """Every import of a module under `where` that names something under `never`, as 'a -> b (line n)'."""
    found = [f"{a.source} -> {a.target} (line {a.line})" for a in (ARROWS if graph is None else graph)
             if _matches(a.source, where) and _matches(a.target, never)]
    for source, names in (OUTSIDE if outside is None else outside).items():
        if _matches(source, where):
            found += [f"{source} -> {n} (line {line})" for n, line in names
                      if _matches(n, never) and n.split(".")[0] != "tournaments" and n.split(".")[0] != "rules"]
    return sorted(set(found))


def test_no_import_circle() -> None:
    found = circles(ARROWS)
    assert not found, "import circles: " + "; ".join(" <-> ".join(group) for group in found)


def test_no_circle_between_packages() -> None:
    found = circles(package_arrows(ARROWS))
    assert not found, "circles between packages: " + "; ".join(" <-> ".join(group) for group in found)


# The house from the ground up (tournaments/README.md): a module may import its own layer and the ones
# below, never one above. The kernel's modules stand on the pure engines; the capabilities on the kernel;
# the pages, prints and the wiring (apps, urls, the admin) on everything.
LAYERS: list[tuple[str, ...]] = [
    ("rules",),
    ("tournaments.results", "tournaments.pairing", "tournaments.standings", "tournaments.teams",
     "tournaments.verification", "tournaments.federation.rating_systems"),
    ("tournaments.errors", "tournaments.validators", "tournaments.words", "tournaments.ratings",
     "tournaments.locks", "tournaments.models"),
    ("tournaments.permissions", "tournaments.selectors"),
    ("tournaments.conformance",),
    ("tournaments.players",),
    ("tournaments.rounds",),
    ("tournaments.ranking",),
    ("tournaments.hall",),
    ("tournaments.sheets", "tournaments.exchange", "tournaments.ratinglists"),
    ("tournaments.boards",),
    ("tournaments.public", "tournaments.printing"),
    ("tournaments.competitions",),
    ("tournaments.federation",),
    ("tournaments.web", "tournaments.templatetags", "tournaments.admin", "tournaments.management",
     "tournaments.apps"),
]


def layer_of(name: str) -> int:
    for number, members in enumerate(LAYERS):
        if _matches(name, members):
            return number
    raise AssertionError(f"{name} is in no layer of LAYERS: place it")


def arrows_back_up(graph: list[Arrow]) -> list[str]:
    return [f"{a.source} -> {a.target} (line {a.line})" for a in graph if layer_of(a.target) > layer_of(a.source)]


def test_no_arrow_back_up_a_layer() -> None:
    found = arrows_back_up(ARROWS)
    assert not found, "imports from a lower layer up to a higher one: " + "; ".join(found)


def test_an_arrow_back_up_is_seen() -> None:
    assert arrows_back_up([Arrow("tournaments.models", "tournaments.players.numbering", 9)]) == [
        "tournaments.models -> tournaments.players.numbering (line 9)"]


def kernel_modules() -> set[str]:
    """The kernel's modules: those at the top of tournaments/, and the models package (one module split in
    files, as Django reads it)."""
    top = {p.stem for p in (ROOT / "tournaments").glob("*.py") if p.name != "__init__.py"}
    return top | {"models"} if (ROOT / "tournaments" / "models" / "__init__.py").exists() else top


def test_the_kernel_is_small() -> None:
    """At most ten modules at the top of tournaments/: a new capability gets a package."""
    top = sorted(kernel_modules())
    assert len(top) <= 10, f"{len(top)} modules at the top of tournaments/: {', '.join(top)}"


def test_every_package_has_a_readme() -> None:
    """Each package says what it owns and what it may import."""
    missing = [str(init.parent.relative_to(ROOT)) for root in ("rules", "tournaments")
               for init in (ROOT / root).rglob("__init__.py")
               if "migrations" not in init.parts and not (init.parent / "README.md").exists()
               and init.parent.name != "commands"]
    assert not missing, "packages without a README.md: " + ", ".join(sorted(missing))


@pytest.mark.parametrize(("what", "where", "never", "readme"), BOUNDARIES, ids=[b[0] for b in BOUNDARIES])
def test_boundary(what: str, where: tuple[str, ...], never: tuple[str, ...], readme: str) -> None:
    assert (ROOT / readme).exists(), f"{readme} states this boundary"
    bad = crossings(where, never)
    assert not bad, f"{what} ({readme}): " + "; ".join(bad)


def test_the_checks_see_a_circle_and_a_crossing() -> None:
    """The two checks above are not vacuous: an arrow put back the other way is a circle, and a pure module
    naming Django is a crossing."""
    back = [*ARROWS, Arrow("rules.geometry", "rules.board", 1)]
    assert ["rules.board", "rules.geometry"] in [sorted(set(g) & {"rules.board", "rules.geometry"})
                                                  for g in circles(back)]
    assert crossings(("rules",), ("django",), outside={"rules.board": [("django.db", 3)]}) == [
        "rules.board -> django.db (line 3)"]


def test_a_circle_between_packages_is_seen_though_no_module_circle_is() -> None:
    """The engine reaching up to the checker (the checker reads the engine and the standings, which read
    the round-robin table of pairing/) makes no module circle, but a circle of three packages."""
    back = [*ARROWS, Arrow("tournaments.pairing.rr_check", "tournaments.verification.file_check", 1)]
    assert not circles(back)
    assert ["tournaments.pairing", "tournaments.standings", "tournaments.verification"] in circles(
        package_arrows(back))
    assert "tournaments.pairing.rr_check -> tournaments.verification.file_check (line 1)" in crossings(
        ("tournaments.pairing",), ("tournaments.verification",), graph=back)


def test_the_tests_mirror_the_tree() -> None:
    """Each folder of tests/tournaments/ is a package of tournaments/ (a test lives beside what it tests),
    and the files at its top test the kernel."""
    tests = ROOT / "tests" / "tournaments"
    folders = sorted(p.name for p in tests.iterdir() if p.is_dir() and p.name != "__pycache__")
    unknown = [name for name in folders if not (ROOT / "tournaments" / name / "__init__.py").exists()
               or name in kernel_modules()]
    assert not unknown, "test folders that mirror no package of tournaments/: " + ", ".join(unknown)
    kernel = kernel_modules() | {"history", "harden_history", "history_log",
                                                                      "one_home"}
    flat = sorted(p.name for p in tests.glob("test_*.py") if p.stem.removeprefix("test_") not in kernel)
    assert not flat, "tests at the top of tests/tournaments/ that test no kernel module: " + ", ".join(flat)
