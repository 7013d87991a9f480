"""tools/ and benchmarks/ call the package too: every name they take from d2l_ext must still exist.

A deletion judged "unused" by the package and its tests broke three tools in one session (bench.py called
parallel.launch_order, tools/measure_copy_setting.py imported communication.core.copy_share, tools/record_depgraph.py
called recording.summary). The scripts import inside functions, so importing them proves nothing; this reads each
script's syntax tree instead: every `from d2l_ext... import name` and every `module.name` on a name bound to a d2l_ext
module.
"""
import ast
import importlib
import importlib.util
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
SCRIPTS = sorted([*ROOT.glob('tools/*.py'), *ROOT.glob('benchmarks/*.py')])


def _module(name):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name and e.name.split('.')[0] == 'd2l_ext':
            raise
        pytest.skip(f'{name} needs {e.name}, not installed here')


def _references(tree):
    """(module name, attribute, line) for every name a script takes from a d2l_ext module."""
    aliases, refs = {}, []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split('.')[0] == 'd2l_ext':
                    aliases[a.asname or a.name.split('.')[0]] = a.asname and a.name or 'd2l_ext'
        elif isinstance(node, ast.ImportFrom) and (node.module or '').split('.')[0] == 'd2l_ext':
            for a in node.names:
                refs.append((node.module, a.name, node.lineno))
                sub = f'{node.module}.{a.name}'
                if importlib.util.find_spec(node.module) and _is_module(sub):
                    aliases[a.asname or a.name] = sub
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            refs.append((aliases[node.value.id], node.attr, node.lineno))
    return refs


def _is_module(name):
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def test_the_scripts_are_found():
    names = {p.name for p in SCRIPTS}
    assert {'bench.py', 'measure_copy_setting.py', 'record_depgraph.py'} <= names


@pytest.mark.parametrize('script', SCRIPTS, ids=lambda p: f'{p.parent.name}/{p.name}')
def test_every_name_a_script_takes_from_the_package_exists(script):
    refs = _references(ast.parse(script.read_text(encoding='utf-8')))
    missing = [f'{script.name}:{line}: {mod}.{name}' for mod, name, line in refs
               if not hasattr(_module(mod), name) and not _is_module(f'{mod}.{name}')]
    assert not missing, 'names the package no longer has: ' + '; '.join(missing)


def test_a_deleted_name_is_found(tmp_path):
    tree = ast.parse('def main():\n    from d2l_ext import parallel\n    parallel.launch_order()\n'
                     '    from d2l_ext.results import no_such_helper\n')
    refs = _references(tree)
    assert ('d2l_ext.parallel', 'launch_order', 3) in refs
    assert ('d2l_ext.results', 'no_such_helper', 4) in refs
