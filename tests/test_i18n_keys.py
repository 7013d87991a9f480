"""Catalogue keys built at run time (t(f'area.{kind}')) exist in both languages for every value they can take."""
import ast
import functools
from pathlib import Path

import pytest

from d2l_ext import i18n

PACKAGE = Path(i18n.__file__).resolve().parents[1]
KEY_CALLS = {'t': 0, 'plot_text': 0, 'text_in': 1}

# -- keys built at run time ------------------------------------------------------------------------------
# A key built from a value (t(f'parallel.verdict.{kind}'), 'graph.edge.' + k, key = 'a' if x else 'b') is
# checked for every value it can take. The values are found, in this order: a loop or comprehension over a
# constant collection around the call (`for role in ('compute', 'copy')`, `for k in STEP_VARIANTS`); the
# literal values the function assigns to the name; `CONSTANT.index(k)` (every position); and otherwise the
# declared tuple named after the field in capitals with an S (`{kind}`, `{r.kind}`, `{e['kind']}` -> KINDS,
# `{e.rule}` -> RULES), defined in the module or imported into it: the convention for a value that comes
# from data. A built key with none of these is listed with its file and line (DYNAMIC_PENDING).
DYNAMIC_KEY_CALLS = {**KEY_CALLS, 'message': 0, 'BadSubmission': 0, 'criterion': 2, 'Criterion': 2, 'stopped': 1}
# Built keys looked up only when the catalogue has them (`t(key) if key in catalogue('en') else value`): a table
# cell whose value may or may not have a name (results.render names variants, modes and rules, and shows the rest).
# The all-reduce worker names a version only when it is one of allreduce.steps' (tested below that each has a name).
LOOKED_UP_FIRST = {('results.py', "f'{area}.{kinds[k]}.{v}'"), ('allreduce/worker.py', "f'allreduce.version.{vid}'")}
# path relative to d2l_ext: built keys without declared values (none left since 2026-12-04; a new one fails)
DYNAMIC_PENDING: dict[str, int] = {}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix('').parts)
    return '.'.join(parts[:-1] if parts[-1] == '__init__' else parts)


class _Package:
    """Every module's tree, with parents, and the module-level constants the resolver looks up."""

    def __init__(self):
        self.modules = {}
        for path in sorted(PACKAGE.rglob('*.py')):
            tree = ast.parse(path.read_text(encoding='utf-8'))
            for node in ast.walk(tree):
                for child in ast.iter_child_nodes(node):
                    child.parent = node
            self.modules[_module_name(path)] = (path, tree)
        self._calls = None

    def calls_named(self, name: str) -> list:
        """(module, call) for every call of a function or method of this name in the package."""
        if self._calls is None:
            self._calls = {}
            for module, (_, tree) in self.modules.items():
                for call in ast.walk(tree):
                    if isinstance(call, ast.Call):
                        called = getattr(call.func, 'id', None) or getattr(call.func, 'attr', None)
                        self._calls.setdefault(called, []).append((module, call))
        return self._calls.get(name, [])

    def _top(self, module: str, name: str, depth: int):
        """The node assigned to `name` at the top of `module`, following `from x import name` (or None)."""
        if depth > 4 or module not in self.modules:
            return None, module
        path, tree = self.modules[module]
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(
                node, ast.AnnAssign) and node.value is not None else []
            if any(isinstance(tg, ast.Name) and tg.id == name for tg in targets):
                return node.value, module
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names):
                real = next(a.name for a in node.names if (a.asname or a.name) == name)
                package = module if path.name == '__init__.py' else module.rpartition('.')[0]
                base = package.split('.')
                base = base[:len(base) - (node.level - 1)] if node.level else []
                source = '.'.join(base + ([node.module] if node.module else [])) if node.level else node.module
                return self._top(source, real, depth + 1)
        return None, module

    def collection(self, node, module: str, depth: int = 0):
        """The items of a constant tuple, list, set or dict (its keys), as Python values; None if not constant."""
        if depth > 6 or node is None:
            return None
        if isinstance(node, ast.Name):
            value, where = self._top(module, node.id, depth)
            return self.collection(value, where, depth + 1)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and not node.args:
            inner = node.func.value
            if node.func.attr == 'keys':
                return self.collection(inner, module, depth + 1)
            if node.func.attr in ('items', 'values'):
                if isinstance(inner, ast.Name):
                    inner, module = self._top(module, inner.id, depth)
                if isinstance(inner, ast.Dict) and None not in inner.keys:
                    try:
                        pairs = [(ast.literal_eval(k), ast.literal_eval(v)) for k, v in zip(inner.keys, inner.values)]
                    except ValueError:
                        return None
                    return pairs if node.func.attr == 'items' else [v for _, v in pairs]
            return None
        if isinstance(node, ast.Dict):
            node = ast.Tuple(elts=list(node.keys), ctx=ast.Load()) if None not in node.keys else None
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return [_literal(e) for e in node.elts]
        return None

    def declared(self, field: str, module: str):
        """The tuple declared for a field: `kind` -> KINDS, in the module or imported into it."""
        value, where = self._top(module, field.strip('_').upper() + 'S', 0)
        return self.collection(value, where)


_UNKNOWN = object()  # an item's part that is not a constant ((('cold', result.cold), ...)'s second places)


def _literal(node):
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, (ast.Tuple, ast.List)):
        return tuple(_literal(e) for e in node.elts)
    return _UNKNOWN


def _scopes(node):
    while hasattr(node, 'parent'):
        node = node.parent
        yield node


def _bound_by_loop(name: str, scope) -> list:
    """(target, iter) pairs of the loops and comprehensions in `scope` that bind `name`."""
    gens = scope.generators if isinstance(scope, (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)) \
        else [scope] if isinstance(scope, ast.For) else []
    return [(g.target, g.iter) for g in gens
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(g.target))]


def _pick(target, item, name):
    """The part of one loop item that `name` is bound to in `target` (a name or a tuple of names)."""
    if isinstance(target, ast.Name):
        if item is _UNKNOWN or isinstance(item, tuple) and _UNKNOWN in item:
            raise ValueError(name)
        return item
    if isinstance(target, ast.Tuple) and isinstance(item, (tuple, list)) and len(item) == len(target.elts):
        for part, value in zip(target.elts, item):
            if any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(part)):
                return _pick(part, value, name)
    raise ValueError(name)


def _values(pkg: _Package, node, module: str, depth: int = 0):
    """Every string `node` can evaluate to, or None when they cannot be known from the code."""
    if depth > 8:
        return None
    if isinstance(node, ast.Constant):
        return {str(node.value)}
    if isinstance(node, (ast.IfExp, ast.BoolOp)):  # a if c else b; a or b
        found = [_values(pkg, v, module, depth + 1)
                 for v in ((node.body, node.orelse) if isinstance(node, ast.IfExp) else node.values)]
        return None if any(f is None for f in found) else set().union(*found)
    if isinstance(node, (ast.JoinedStr, ast.BinOp)):
        parts = node.values if isinstance(node, ast.JoinedStr) else [node.left, node.right]
        if isinstance(node, ast.BinOp) and not isinstance(node.op, ast.Add):
            return None
        out = {''}
        for part in parts:
            part = part.value if isinstance(part, ast.FormattedValue) else part
            got = _values(pkg, part, module, depth + 1)
            if got is None:
                return None
            out = {a + b for a in out for b in got}
        return out
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr == 'index' and len(node.args) == 1:  # STEP_VARIANTS.index(k): every position
            items = pkg.collection(node.func.value, module)
            return None if items is None else {str(i) for i in range(len(items))}
        if node.func.attr in ('replace', 'lower', 'upper') and all(isinstance(a, ast.Constant) for a in node.args):
            got = _values(pkg, node.func.value, module, depth + 1)
            args = [a.value for a in node.args]
            return None if got is None else {getattr(v, node.func.attr)(*args) for v in got}
        return None
    if isinstance(node, ast.Name):
        return _name_values(pkg, node, module, depth)
    if isinstance(node, ast.Attribute):
        found = pkg.declared(node.attr, module)
        return None if found is None else {str(v) for v in found}
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        found = pkg.declared(str(node.slice.value), module)
        return None if found is None else {str(v) for v in found}
    return None


def _name_values(pkg: _Package, node: ast.Name, module: str, depth: int):
    name = node.id
    for scope in _scopes(node):
        for target, iterable in _bound_by_loop(name, scope):
            items = pkg.collection(iterable, module)
            if items is not None:
                try:
                    return {str(_pick(target, item, name)) for item in items}
                except ValueError:
                    pass
        if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            assigned = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign)
                        and any(isinstance(tg, ast.Name) and tg.id == name for tg in n.targets)]
            if assigned:
                found = [_values(pkg, v, module, depth + 1) for v in assigned]
                if all(f is not None for f in found):
                    return set().union(*found)
                break
            passed = _passed_in(pkg, scope, name, depth)
            if passed is not None:
                return passed
            break
    value, where = pkg._top(module, name, 0)
    if isinstance(value, (ast.Constant, ast.JoinedStr, ast.IfExp)):
        return _values(pkg, value, where, depth + 1)
    found = pkg.declared(name, module)
    return None if found is None else {str(v) for v in found}


def _passed_in(pkg: _Package, fn, name: str, depth: int):
    """The values every call of `fn` in the package passes for its parameter `name` (None if any is unknown)."""
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    params = [p.arg for p in (*fn.args.posonlyargs, *fn.args.args)]
    if name not in params + [p.arg for p in fn.args.kwonlyargs]:
        return None
    position = params.index(name) - (1 if params and params[0] in ('self', 'cls') else 0) if name in params else None
    found, calls = set(), 0
    for module, call in pkg.calls_named(fn.name):
        arg = next((k.value for k in call.keywords if k.arg == name), None)
        if arg is None and position is not None and position < len(call.args):
            arg = call.args[position]
        got = None if arg is None or isinstance(arg, ast.Starred) else _values(pkg, arg, module, depth + 1)
        if got is None:
            return None
        found |= got
        calls += 1
    return found if calls else None


@functools.cache
def _built_keys() -> tuple:
    """(file, line, call, keys or None) for every key-taking call whose key is not one literal."""
    return tuple(_scan_built_keys())


def _scan_built_keys():
    pkg = _Package()
    for module, (path, tree) in pkg.modules.items():
        if module.startswith('d2l_ext.i18n'):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, 'id', None) or getattr(node.func, 'attr', None)
            pos = DYNAMIC_KEY_CALLS.get(name)
            if pos is None or len(node.args) <= pos or isinstance(node.args[pos], ast.Constant):
                continue
            arg = node.args[pos]
            if isinstance(arg, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)) and _values(
                    pkg, arg, module) is None:
                continue  # a key passed in (message(key), t(self.key)): checked where it is written as a literal
            if (str(path.relative_to(PACKAGE)), ast.unparse(arg)) in LOOKED_UP_FIRST:
                continue
            yield path.relative_to(PACKAGE), node.lineno, ast.unparse(arg), _values(pkg, arg, module)


def test_every_key_built_at_run_time_is_in_both_catalogues():
    built = list(_built_keys())
    resolved = [b for b in built if b[3] is not None]
    assert len(resolved) >= 10, 'the scan resolved almost no built keys: the resolver is broken'
    en, zh = i18n.catalogue('en'), i18n.catalogue('zh')
    missing = [f'd2l_ext/{path}:{line}: {expr} -> {key}' for path, line, expr, keys in resolved
               for key in sorted(keys) if key not in en or key not in zh]
    assert not missing, 'keys the code can build but a catalogue lacks:\n' + '\n'.join(missing)


def _unresolved_by_file() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for path, line, expr, keys in _built_keys():
        if keys is None:
            out.setdefault(str(path), []).append(f'd2l_ext/{path}:{line}: {expr}')
    return out


def test_keys_built_at_run_time_declare_their_values():
    unresolved = _unresolved_by_file()
    grown = {f: sites for f, sites in unresolved.items() if len(sites) > DYNAMIC_PENDING.get(f, 0)}
    assert not grown, ('declare the values of these built keys (a loop over a constant tuple, or a tuple named '
                       'after the field: {kind} -> KINDS):\n' + '\n'.join(s for v in grown.values() for s in v))
    left = sum(len(v) for v in unresolved.values())
    if left:
        pytest.xfail(f'{left} built key(s) without declared values in {len(unresolved)} file(s) owned by others')


def test_the_resolver_follows_loops_assignments_indices_and_declarations():
    pkg = _Package()
    src = """
KINDS = ('fast', 'slow')
NAMES = ('one lane', 'two lanes')
def f(r, e, gain, k):
    for role in ('compute', 'copy'):
        t(f'a.role.{role}')
    key = 'a.x' if gain > 0 else 'a.y'
    t(key)
    t(f'a.kind.{r.kind}')
    t(f'a.v.{NAMES.index(k)}')
    t('a.stream.' + e['stream'])
    [t(f"a.pair.{w}") for w, _ in (('cold', 1), ('warm', 2))]
"""
    tree = ast.parse(src)
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            child.parent = node
    pkg.modules['probe'] = (Path('probe.py'), tree)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, 'id', None) == 't']
    got = sorted(tuple(sorted(_values(pkg, c.args[0], 'probe') or ['?'])) for c in calls)
    assert got == sorted([('a.role.compute', 'a.role.copy'), ('a.x', 'a.y'), ('a.kind.fast', 'a.kind.slow'),
                          ('a.v.0', 'a.v.1'), ('?',), ('a.pair.cold', 'a.pair.warm')])


def test_every_all_reduce_version_has_a_name_in_both_languages():
    from d2l_ext.allreduce import steps
    ids = set(steps.STEPS)
    assert ids, 'allreduce.steps lists no versions'
    keys = [f'allreduce.version.{vid}' for vid in sorted(ids)]
    missing = [k for k in keys if k not in i18n.catalogue('en') or k not in i18n.catalogue('zh')]
    assert not missing, missing


if __name__ == '__main__':  # python tests/test_i18n_keys.py: built keys without declared values (DYNAMIC_PENDING)
    for name, sites in sorted(_unresolved_by_file().items()):
        print(f"    '{name}': {len(sites)},")
        for site in sites:
            print(f'        # {site}')
