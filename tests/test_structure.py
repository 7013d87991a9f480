"""The package's imports run one way, with no cycle (issue 22): a new upward import or cycle fails here.

Layers, lowest first; a module may import its own layer or a lower one, never a higher one:

    ground   errors, i18n, machine, paths, cliparse, frameworks (what each framework is: the registry),
             recordings (the one loader of every section's shipped recordings)
    measure  timing, checking, lanes, overlap, results, profiling
    backends backends (each framework's module, loaded by name), workloads (sizes calibrated through a backend)
    workers  workers
    sections parallel, communication, depgraph, allreduce (each technique's home and its experiments)
    grading  grading (the graders of every task, their registry, sandbox and runner: above the sections whose
             worked solutions and instrumentation they call, so no section can import a grader)
    records  recorded (recordings of the sections' results)
    display  display
    entry    cli, __main__, the package's __init__, and every `cli` or `__main__` module inside a
             package (a section's command line); notebooks, tools and benchmarks sit above all

Every import counts, also those inside functions (they run too, only later), read with `ast` from
the source, never by importing it; modules loaded by name (importlib) are declared in BY_NAME and checked the
same way (BY_NAME reads the registries: the grading registry's task modules, the framework registry's backends,
which d2l_ext.backends loads).
Every grader (GRADERS: each task's module and its helpers) lives in the grading layer, d2l_ext.grading, and
only that layer imports one: no experiment or lesson module imports a grader.
An edge still waiting for its fix is listed in KNOWN_UPWARD or KNOWN_CYCLES with why;
each is an expected failure that must still exist (strict), so a fixed edge has to leave the list.
A known cycle is named by the one import that closes it: the cycle check runs without those.
`duplicates` (where it is on PATH) finds no pair of 6 or more lines in the package but the intended tie it names.
"""
from __future__ import annotations

import ast
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGE = ROOT / 'd2l_ext'

LAYERS = [
    ('ground', ['errors', 'i18n', 'machine', 'paths', 'cliparse', 'frameworks', 'processes', 'recordings']),
    ('measure', ['timing', 'checking', 'lanes', 'overlap', 'results', 'profiling']),
    ('backends', ['backends', 'workloads']),
    ('workers', ['workers']),
    ('sections', ['parallel', 'communication', 'depgraph', 'allreduce']),
    ('grading', ['grading']),
    ('records', ['recorded']),
    ('display', ['display']),
    ('entry', ['cli', 'cli_check', '__main__', '__init__']),
]
RANK = {top: rank for rank, (_, tops) in enumerate(LAYERS) for top in tops}
SECTIONS = {'parallel', 'communication', 'depgraph', 'allreduce', 'grading'}  # none of them imports display

# (importer, imported): why it is still there. Strict xfails below: remove an entry once it is fixed.
KNOWN_UPWARD: dict = {}
KNOWN_CYCLES: dict = {}


# ------------------------------------------------------------------------------ reading imports

def module_name(path: pathlib.Path, root: pathlib.Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix('').parts)
    if parts[-1] == '__init__':
        parts.pop()
    return '.'.join(parts)


def modules(folder: pathlib.Path, root: pathlib.Path = ROOT) -> dict[str, pathlib.Path]:
    return {module_name(p, root): p for p in sorted(folder.rglob('*.py')) if '__pycache__' not in p.parts}


def imported(path: pathlib.Path, known: dict, root: pathlib.Path = ROOT) -> set[str]:
    """The modules of `known` that this file imports anywhere in it (module level or in a function)."""
    here = module_name(path, root)
    package = here if path.name == '__init__.py' else here.rpartition('.')[0]
    found = set()

    def add(name: str) -> None:
        while name and name not in known:  # d2l_ext.timing.clock -> d2l_ext.timing
            name = name.rpartition('.')[0]
        if name and name != here:
            found.add(name)

    for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split('.')
                base = base[:len(base) - (node.level - 1)]
                source = '.'.join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ''
            for alias in node.names:  # `from . import model` imports the module d2l_ext.x.model
                full = f'{source}.{alias.name}'
                add(full if full in known else source)
    return found


def graph(folder: pathlib.Path, root: pathlib.Path = ROOT) -> dict[str, set[str]]:
    known = modules(folder, root)
    return {name: imported(path, known, root) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[frozenset]:
    """Strongly connected groups of more than one module (Tarjan), each a cycle or several."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(frozenset(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def top(name: str) -> str:
    """The LAYERS name that places a module: its first part below d2l_ext, or 'cli' for any command line."""
    parts = name.split('.')
    if parts[-1] in ('cli', '__main__'):
        return 'cli'
    return parts[1] if len(parts) > 1 else '__init__'


def upward(edges: dict[str, set[str]]) -> dict[tuple[str, str], str]:
    """(importer, imported) -> 'layer a imports layer b' for every import that goes up, or leaves the map."""
    wrong = {}
    for source, targets in edges.items():
        for target in targets:
            a, b = top(source), top(target)
            if a not in RANK or b not in RANK:
                wrong[(source, target)] = f'{a if a not in RANK else b} is in no layer of tests/test_structure.py'
            elif RANK[b] > RANK[a]:
                wrong[(source, target)] = f'{LAYERS[RANK[a]][0]} imports {LAYERS[RANK[b]][0]}'
            elif a in SECTIONS and b == 'display':
                wrong[(source, target)] = 'a section imports display'
    return wrong


def by_name() -> dict[str, set[str]]:
    """The imports made by name (importlib), read from the registries that name them: importer -> modules."""
    from d2l_ext.frameworks import framework, known
    from d2l_ext.grading.registry import TASKS
    return {'d2l_ext.grading.registry': {e.target.partition(':')[0] for e in TASKS.values()},
            'd2l_ext.backends': {framework(n).backend for n in known()}}


BY_NAME = by_name()
PACKAGE_EDGES = graph(PACKAGE)
for _importer, _targets in BY_NAME.items():
    PACKAGE_EDGES.setdefault(_importer, set()).update(_targets)
GRADERS = BY_NAME['d2l_ext.grading.registry'] | {f'd2l_ext.grading.allreduce_{m}' for m in (
    'ranks', 'checks', 'overlap')}
BENCH_EDGES = graph(ROOT / 'benchmarks', ROOT / 'benchmarks')  # scripts: they import each other by bare name


def without_known(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    return {a: {b for b in bs if (a, b) not in KNOWN_CYCLES} for a, bs in edges.items()}


def closes_a_cycle(edge: tuple[str, str], edges: dict[str, set[str]]) -> bool:
    """The import a -> b exists and b leads back to a."""
    a, b = edge
    if b not in edges.get(a, ()):
        return False
    seen, todo = set(), [b]
    while todo:
        v = todo.pop()
        if v == a:
            return True
        if v not in seen:
            seen.add(v)
            todo += edges.get(v, ())
    return False


# ------------------------------------------------------------------------------ the rules

def test_every_module_is_in_a_layer():
    assert {top(m) for m in PACKAGE_EDGES} - set(RANK) == set(), 'add the new module to LAYERS'


def test_no_upward_import():
    wrong = {edge: why for edge, why in upward(PACKAGE_EDGES).items() if edge not in KNOWN_UPWARD}
    assert not wrong, 'imports against the layer order:\n' + '\n'.join(
        f'  {a} -> {b}: {why}' for (a, b), why in sorted(wrong.items()))


def test_modules_loaded_by_name_exist_and_are_declared():
    for importer, targets in BY_NAME.items():
        assert importer in PACKAGE_EDGES, importer
        assert targets and all(t in PACKAGE_EDGES or (PACKAGE / f"{t.split('.', 1)[1].replace('.', '/')}.py").exists()
                               for t in targets), targets
    by_name_in_source = {m for m, p in modules(PACKAGE).items() if 'import_module(' in p.read_text(encoding='utf-8')}
    declared = set(BY_NAME) | {'d2l_ext.i18n', 'd2l_ext.frameworks', 'd2l_ext.allreduce',  # their own package's
                               'd2l_ext.grading.integrity'}
    assert by_name_in_source <= declared, by_name_in_source - declared


def test_every_grader_is_in_the_grading_layer_and_only_it_imports_one():
    assert all(top(g) == 'grading' for g in GRADERS), sorted(g for g in GRADERS if top(g) != 'grading')
    assert all(g in PACKAGE_EDGES for g in GRADERS), sorted(GRADERS - set(PACKAGE_EDGES))
    wrong = sorted((a, b) for a, bs in PACKAGE_EDGES.items() for b in bs
                   if b in GRADERS and a not in GRADERS and not a.startswith('d2l_ext.grading'))
    assert not wrong, wrong


def test_the_registry_loads_every_task_by_name_from_the_grading_layer():
    assert BY_NAME['d2l_ext.grading.registry'] == {'d2l_ext.grading.lanes', 'd2l_ext.grading.copy',
                                                   'd2l_ext.grading.mlp', 'd2l_ext.grading.allreduce'}


def test_no_import_cycle():
    new = cycles(without_known(PACKAGE_EDGES)) + cycles(without_known(BENCH_EDGES))
    assert not new, 'import cycles: ' + '; '.join(' <-> '.join(sorted(c)) for c in new)


def intended_tie(a: str, b: str) -> bool:
    """The intended ties are catalogues: an English catalogue and its Chinese twin share their shape by design (the
    same keys in the same order, tests/test_i18n.py), and any two catalogues are dicts of one-line strings, whose runs
    `duplicates` may match by layout alone (i18n/en/x.py ~ i18n/zh/x.py, i18n/en/x.py ~ i18n/en/y.py)."""
    return a != b and 'i18n/' in a and 'i18n/' in b


@pytest.mark.skipif(shutil.which('duplicates') is None, reason='the `duplicates` tool is not on PATH')
def test_no_repeated_code_but_the_intended_ties():
    out = subprocess.run(['duplicates', '--most', '200'], cwd=PACKAGE, capture_output=True, text=True,
                         timeout=120).stdout
    pairs = re.findall(r'^D\d+ (\S+):[\d-]+ ~ (\S+):[\d-]+', out, re.M)
    assert 'incomplete' not in out, out
    assert not [p for p in pairs if not intended_tie(*p)], out


@pytest.mark.parametrize('edge', sorted(KNOWN_UPWARD), ids=lambda e: f'{e[0]}->{e[1]}')
def test_known_upward_import_is_still_to_fix(edge):
    pytest.xfail(KNOWN_UPWARD[edge]) if edge in upward(PACKAGE_EDGES) else pytest.fail(
        f'{edge[0]} -> {edge[1]} is gone: remove it from KNOWN_UPWARD')


@pytest.mark.parametrize('edge', sorted(KNOWN_CYCLES), ids=lambda e: f'{e[0]}->{e[1]}')
def test_known_cycle_is_still_to_fix(edge):
    edges = BENCH_EDGES if edge[0] in BENCH_EDGES else PACKAGE_EDGES
    pytest.xfail(KNOWN_CYCLES[edge]) if closes_a_cycle(edge, edges) else pytest.fail(
        f'{edge[0]} -> {edge[1]} no longer closes a cycle: remove it from KNOWN_CYCLES')


@pytest.mark.slow
def test_importing_every_section_loads_no_display_and_no_plotting():
    """At run time too: the sections and all below them import no display module and no matplotlib."""
    below = [m for m in PACKAGE_EDGES if top(m) in RANK and RANK[top(m)] <= RANK['parallel']]
    code = ('import importlib, sys\n'
            f'for name in {sorted(below)!r}:\n'
            '    importlib.import_module(name)\n'
            "print(sorted(m for m in sys.modules if m.startswith(('d2l_ext.display', 'matplotlib'))))")
    done = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == '[]', f'loaded by a section or below: {done.stdout.strip()}'


# ------------------------------------------------------------------------------ the checker itself

def _package(tmp_path, files: dict[str, str]) -> dict[str, set[str]]:
    for rel, source in files.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
    return graph(tmp_path / 'd2l_ext', tmp_path)


def test_the_checker_sees_function_level_and_relative_imports(tmp_path):
    edges = _package(tmp_path, {
        'd2l_ext/__init__.py': '',
        'd2l_ext/timing.py': 'def f():\n    from .backends import torch_backend\n',
        'd2l_ext/backends/__init__.py': '',
        'd2l_ext/backends/torch_backend.py': 'from ..timing import clock\n',
        'd2l_ext/parallel/__init__.py': 'from ..display.tables import Result\nfrom . import core\n',
        'd2l_ext/parallel/core.py': 'import d2l_ext.machine\n',
        'd2l_ext/display/__init__.py': '',
        'd2l_ext/display/tables.py': '',
        'd2l_ext/machine.py': '',
    })
    assert edges['d2l_ext.timing'] == {'d2l_ext.backends.torch_backend'}
    assert edges['d2l_ext.parallel'] == {'d2l_ext.display.tables', 'd2l_ext.parallel.core'}
    assert edges['d2l_ext.parallel.core'] == {'d2l_ext.machine'}
    assert cycles(edges) == [frozenset({'d2l_ext.timing', 'd2l_ext.backends.torch_backend'})]
    assert set(upward(edges)) == {('d2l_ext.timing', 'd2l_ext.backends.torch_backend'),
                                  ('d2l_ext.parallel', 'd2l_ext.display.tables')}


def test_a_module_outside_the_layers_is_reported(tmp_path):
    edges = _package(tmp_path, {'d2l_ext/__init__.py': '', 'd2l_ext/newthing.py': 'from . import machine\n',
                                'd2l_ext/machine.py': ''})
    why = 'newthing is in no layer of tests/test_structure.py'
    assert upward(edges) == {('d2l_ext.newthing', 'd2l_ext.machine'): why}


def test_each_technique_has_one_home_that_every_caller_runs():
    """Issue 34: a technique is defined once, in the module named after it; the lesson's `#@source` cell, the
    grader's worked solution, the measurements and the CLI all hold that one function (identity, not a copy)."""
    import importlib

    from d2l_ext.allreduce import steps
    from d2l_ext.backends import torch_backend
    from d2l_ext.communication import copying
    from d2l_ext.depgraph import model, worked
    from d2l_ext.grading import allreduce as graded_allreduce
    from d2l_ext.grading import copy as graded_copy
    from d2l_ext.parallel import together
    homes = {'13.3.1': together.run_together, '13.3.2': copying.run_and_copy, '13.3.3': model.mlp_step}
    assert together.run_together is torch_backend.run_together  # the lane runner the measurements call
    assert graded_copy.run_and_copy is copying.run_and_copy and worked.mlp_step is model.mlp_step
    assert graded_allreduce.SOLUTIONS is steps.SOLUTIONS  # the graders' worked solutions
    assert set(steps.SOLUTIONS.values()) == set(steps.STEPS.values())  # what the CLI, bench and recordings time
    shown = []
    for source in sorted(pathlib.Path(__file__).parents[1].glob('notebooks/src/*.py')):
        for dotted in re.findall(r'^#@source (\S+)$', source.read_text(), re.M):
            module, name = dotted.rsplit('.', 1)
            shown.append(getattr(importlib.import_module(module), name))
    every_home = [*homes.values(), model.lane_step, *steps.SOLUTIONS.values()]
    assert shown and all(any(fn is home for home in every_home) for fn in shown), shown
    assert all(any(fn is home for fn in shown) for home in homes.values())  # every lesson shows its home's source
