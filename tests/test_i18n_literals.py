"""Every learner-facing string goes through the catalogues (issue 22 item 4): no English literal outside en/*.py.

An `ast` scan of the whole package finds string literals (plain, f-string parts, `.format` templates)
that reach a learner: the arguments of `raise SomeError(...)`, `print`, `warnings.warn`, writes to
stdout/stderr, argparse's `error`/`exit` messages, IPython's `Markdown`/`HTML`, widget texts
(`description=`, `options=`, `tooltip=`, `placeholder=`, a Label's or HTML's value), and figure
texts (titles, axis labels, `label=`, legends, tick labels, `ax.text`, `annotate`). Not counted:
docstrings and comments (never in a sink), catalogue keys (the first argument of `t`, `text_in`,
`plot_text` and the other key-taking calls), identifiers, paths and format specs (no whitespace and
no word), HTML markup and CSS (tags are removed first), names of products and units (TECH),
patterns (`warnings.filterwarnings`), a module `__getattr__`'s AttributeError (Python's own wording),
and argparse's `help=` (the command line is the instructors' tool and English only: en/cli.py).
Not followed: text stored in data and drawn later (a variant's or stream's name): data carries ids,
and where they are drawn the keys are checked by tests/test_i18n_keys.py.

Files whose owners are still moving their literals are listed in PENDING with the count found when
the list was written: each reports as xfail with its count now, fails if it gains a literal, and
passes once it has none (then delete its line). Every other file must have none.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / 'd2l_ext'

# Calls whose argument at this position is a catalogue key, not text (the rest of their arguments are scanned).
KEY_ARGS = {'t': 0, 'plot_text': 0, 'text_in': 1, 'message': 0, 'BadSubmission': 0, 'criterion': 2,
            'Criterion': 2}
# Calls whose every argument is shown to the learner.
TEXT_CALLS = {'print', 'warn', 'Markdown', 'HTML', 'HTMLMath', 'Label', 'Latex', 'suptitle', 'title', 'xlabel',
              'ylabel', 'set_title', 'set_xlabel', 'set_ylabel', 'set_xticklabels', 'set_yticklabels',
              'set_label', 'annotate', 'set_text', 'error', 'showwarning'}
# Keyword arguments (of any call) and attributes (assigned) whose value is shown.
TEXT_KEYWORDS = {'label', 'labels', 'title', 'description', 'tooltip', 'tooltips', 'placeholder', 'options',
                 'xlabel', 'ylabel', 'text', 's', 'msg', 'message'}
TEXT_ATTRIBUTES = {'description', 'tooltip', 'tooltips', 'placeholder', 'options'}
# Parameters of the package's own functions that carry text into a message ('what', 'hint'): the arguments
# passed for them are scanned at every call of a function of that name.
TEXT_PARAMS = {'hint', 'what', 'message', 'msg', 'title', 'description', 'caption', 'text', 'explanation'}
# argparse's help and descriptions: the command line is the instructors' tool, in English (en/cli.py).
ARGPARSE = {'ArgumentParser', 'add_parser', 'add_argument', 'add_subparsers', 'add_argument_group',
            'parser_with_subcommands', 'OneLineParser', '_Parser'}
# Calls whose text arguments are patterns to match, never shown.
NOT_SHOWN = {'filterwarnings', 'simplefilter', 'compile', 'search', 'match', 'fullmatch', 'sub', 'findall'}
# Calls that draw (their label=/title= name a legend entry or a title): a single word is text there.
DRAW_CALLS = {'plot', 'bar', 'barh', 'scatter', 'fill_between', 'fill_betweenx', 'hlines', 'vlines', 'axhline',
              'axvline', 'axvspan', 'axhspan', 'step', 'errorbar', 'hist', 'Patch', 'Line2D', 'Rectangle',
              'broken_barh', 'legend', 'boxplot', 'stairs'}
# Kinds of text a single word is enough for (a figure's or widget's label); elsewhere a phrase (with a space).
WORD_SINKS = {'label', 'labels', 'title', 'description', 'options', 'xlabel', 'ylabel', 'set_title', 'set_xlabel',
              'set_ylabel', 'set_label', 'set_xticklabels', 'set_yticklabels', 'suptitle', 'Label', 'tooltip'}
# Names and units that are the same in every language.
TECH = {'gpu', 'gpus', 'cpu', 'cpus', 'cuda', 'torch', 'pytorch', 'mxnet', 'gloo', 'nccl', 'python', 'numpy', 'iqr',
        'json', 'ms', 'ns', 'us', 'mb', 'gb', 'gib', 'mib', 'kib', 'kb', 'ddp', 'tf32', 'fp32', 'nvidia', 'mlp',
        'cudnn', 'blas', 'mkl', 'openmp', 'omp', 'id', 'ids', 'pid', 'sgd', 'relu', 'np', 'nd', 'cpu0', 'cuda0',
        'px', 'em', 'pt', 'rgb', 'utf'}

# path relative to the package -> literals still there (the list emptied on 2026-12-04: every file is clean).
PENDING: dict[str, int] = {}


def _words(text: str) -> list[str]:
    text = re.sub(r'<[^>]*>|&\w+;', ' ', text)  # HTML markup and entities are not words a learner reads
    return [w for w in re.findall(r"[A-Za-z][A-Za-z']+", text) if w.lower() not in TECH]


def _is_english(text: str, sink: str) -> bool:
    if not text.strip() or text.startswith('_'):  # matplotlib's '_nolegend_' and private names
        return False
    bare = re.sub(r'<[^>]*>|&\w+;', ' ', text)
    words = _words(bare)
    if not words:
        return False
    if re.fullmatch(r'[\w.:/\\-]+', bare.strip()) and not (sink in WORD_SINKS and bare.strip().isalpha()):
        return False  # an identifier, key, module or path (a lone word counts only as a label's text)
    return bool(re.search(r'\s', bare.strip())) or sink in WORD_SINKS


def _template(node: ast.JoinedStr) -> str:
    return ''.join(v.value if isinstance(v, ast.Constant) else ' {} ' for v in node.values)


def _call_name(call: ast.Call) -> str | None:
    return getattr(call.func, 'id', None) or getattr(call.func, 'attr', None)


def _text_params() -> dict[str, set]:
    """{function name: positions and names of its TEXT_PARAMS} for every function defined in the package."""
    found: dict[str, set] = {}
    for path in PACKAGE.rglob('*.py'):
        for node in ast.walk(ast.parse(path.read_text(encoding='utf-8'))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                params = [*node.args.posonlyargs, *node.args.args]
                offset = 1 if params and params[0].arg in ('self', 'cls') else 0
                for i, p in enumerate(params):
                    if p.arg in TEXT_PARAMS:
                        found.setdefault(node.name, set()).update({i - offset, p.arg})
                for p in node.args.kwonlyargs:
                    if p.arg in TEXT_PARAMS:
                        found.setdefault(node.name, set()).add(p.arg)
    return found


_TEXT_PARAMS: dict[str, set] = {}


def _texts(node, sink: str):
    """(line, text) of each literal inside `node` that is shown as part of it (keys, tests, indices skipped)."""
    if node is None:
        return
    if isinstance(node, ast.Constant):
        if isinstance(node.value, str):
            yield node.lineno, node.value
        return
    if isinstance(node, ast.JoinedStr):
        yield node.lineno, _template(node)
        for v in node.values:
            if isinstance(v, ast.FormattedValue):  # its format spec is not text
                yield from _texts(v.value, sink)
        return
    if isinstance(node, ast.Call):
        name = _call_name(node)
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Constant):
            yield from _texts(node.func.value, sink)  # 'template {}'.format(...), ', '.join(...)
        elif isinstance(node.func, ast.Attribute):
            yield from _texts(node.func.value, sink)
        skip = KEY_ARGS.get(name)
        if name in ('get', 'getattr', 'startswith', 'endswith', 'split', 'replace', 'strip', 'index', 'isinstance'):
            return  # their string arguments are names and separators
        for i, a in enumerate(node.args):
            if i != skip:
                yield from _texts(a, sink)
        for k in node.keywords:
            yield from _texts(k.value, sink)
        return
    if isinstance(node, ast.IfExp):
        yield from _texts(node.body, sink)
        yield from _texts(node.orelse, sink)
        return
    if isinstance(node, (ast.List, ast.Tuple)) and sink == 'options':  # ToggleButtons' (label, value) pairs
        for item in node.elts:
            yield from _texts(item.elts[0] if isinstance(item, ast.Tuple) and item.elts else item, sink)
        return
    if isinstance(node, ast.Dict):
        for v in node.values:
            yield from _texts(v, sink)
        return
    if isinstance(node, (ast.Compare, ast.Subscript, ast.Attribute, ast.Name, ast.Lambda)):
        return  # comparisons, indices, names: not shown
    for child in ast.iter_child_nodes(node):
        yield from _texts(child, sink)


def _module_getattr_raises(tree: ast.Module) -> set:
    """The raises of a module's __getattr__: Python's own AttributeError wording, which hasattr and tools expect."""
    return {id(n) for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == '__getattr__'
            for n in ast.walk(f) if isinstance(n, ast.Raise)}


def _sinks(tree: ast.Module):
    """(sink name, node) for every place whose value a learner reads."""
    python_own = _module_getattr_raises(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            if id(node) not in python_own:
                yield 'raise', node.exc
        elif isinstance(node, ast.Call):
            name = _call_name(node)
            if name in ARGPARSE or name in NOT_SHOWN:
                continue
            receiver = getattr(node.func, 'value', None)
            if name in TEXT_CALLS:
                for a in node.args:
                    yield name, a
            elif name == 'write' and isinstance(receiver, ast.Attribute) and receiver.attr in ('stdout', 'stderr'):
                yield 'write', node.args[0] if node.args else None
            elif name == 'exit' and len(node.args) == 2:  # argparse's parser.exit(status, message)
                yield 'exit', node.args[1]
            elif name == 'text' and len(node.args) >= 3:  # ax.text(x, y, s)
                yield 'text', node.args[2]
            elif name == 'legend' and node.args:
                yield 'labels', node.args[-1]
            wanted = _TEXT_PARAMS.get(name, set())
            for i, a in enumerate(node.args):
                if i in wanted and name not in TEXT_CALLS:
                    yield 'argument', a
            for k in node.keywords:
                if k.arg in TEXT_KEYWORDS and name not in KEY_ARGS:
                    # a lone word is a label's text only where it is drawn: a legend entry, a title, a widget's
                    yield (k.arg if name in DRAW_CALLS or k.arg in TEXT_ATTRIBUTES else 'argument'), k.value
                elif k.arg in wanted:
                    yield 'argument', k.value
                elif k.arg == 'value' and name in ('HTML', 'Label', 'HTMLMath', 'Textarea', 'Text'):
                    yield 'value', k.value
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Attribute) and target.attr in TEXT_ATTRIBUTES:
                    yield target.attr, node.value


def english_literals(path: Path) -> list[tuple[int, str]]:
    """(line, text) of every learner-facing English literal in one module, each once."""
    if not _TEXT_PARAMS:
        _TEXT_PARAMS.update(_text_params())
    tree = ast.parse(path.read_text(encoding='utf-8'))
    found = set()
    for sink, node in _sinks(tree):
        if isinstance(node, ast.Call) and sink == 'raise':
            items = [t for a in node.args for t in _texts(a, sink)]
        else:
            items = list(_texts(node, sink))
        found.update((line, text) for line, text in items if _is_english(text, sink))
    return sorted(found)


def _code_files() -> list[str]:
    """Every module of the package except the catalogues themselves."""
    return sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob('*.py')
                  if 'i18n' not in p.relative_to(PACKAGE).parts[:1] or p.name == '__init__.py'
                  and p.parent.name == 'i18n')


def test_the_scan_finds_what_it_should(tmp_path):
    # one of each kind of sink, so a scanner that finds nothing fails here rather than passing everything
    src = """
raise UsageError(f"the size {n} is too large")
raise UsageError(t('core.key', hint='pass a smaller size'))
print('done: all lanes ran')
ax.set_title('Two lanes')
ax.plot(x, y, label='sequential')
widgets.ToggleButtons(options=[('one lane', 1)], description='Lanes')
sys.stderr.write('stopped by the user\\n')
check_close(y, ref, 'lane 0 result')
"""
    path = tmp_path / 'probe.py'
    path.write_text(src, encoding='utf-8')
    found = [text for _, text in english_literals(path)]
    expected = ['the size  {}  is too large', 'pass a smaller size', 'done: all lanes ran', 'Two lanes',
                'sequential', 'one lane', 'Lanes', 'stopped by the user\n', 'lane 0 result']
    assert sorted(found) == sorted(expected)


def test_the_scan_leaves_keys_identifiers_paths_and_markup_alone(tmp_path):
    src = """
raise UsageError(t('grading.no_task', task=x))
raise BadSubmission('grading.missing', name=name)
print(t('cli.recorded', path=p), file=sys.stderr)
print(f'{value:8.3f}  {name:>10s}')
ax.set_xlabel(plot_text('panels.seconds'))
ax.plot(x, y, label='_nolegend_')
w = widgets.HTML(value=f'<div style="font-size: 12px">{t("panels.head")}</div>')
print(json.dumps(rows, indent=1))
print(f"{r['id']:{width}s}  {'; '.join(r['signatures'])}")
raise AttributeError(t('core.no_attribute', name=name))
warnings.filterwarnings('ignore', message='Warning: Profiler clears events', category=UserWarning)
"""
    path = tmp_path / 'probe.py'
    path.write_text(src, encoding='utf-8')
    assert english_literals(path) == []


@pytest.mark.parametrize('name', _code_files())
def test_no_learner_facing_english_outside_the_catalogue(name):
    found = english_literals(PACKAGE / name)
    shown = '\n'.join(f'  d2l_ext/{name}:{line}: {text!r}' for line, text in found)
    allowed = PENDING.get(name)
    if allowed is None:
        assert not found, f'move these into i18n/en and i18n/zh and call t():\n{shown}'
        return
    assert len(found) <= allowed, f'{name} gained literals ({len(found)} > {allowed} listed):\n{shown}'
    if found:
        pytest.xfail(f'{len(found)} learner-facing English literal(s) left, being moved by their owner')


def test_pending_files_exist():
    missing = [name for name in PENDING if not (PACKAGE / name).is_file()]
    assert not missing, f'remove from PENDING (no such file): {missing}'


if __name__ == '__main__':  # python tests/test_i18n_literals.py: every literal found now, per file (for PENDING)
    for name in _code_files():
        found = english_literals(PACKAGE / name)
        if found:
            print(f"    '{name}': {len(found)},")
            for line, text in found:
                print(f'        # {line}: {text!r}')
