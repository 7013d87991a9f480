"""nbval settings for the notebooks: stderr is not compared, and every lesson's cells run a second time in one kernel.

stderr: it carries noise that is not part of the lesson and arrives out of order, e.g. MXNet's
"start using engine" line written by a worker process straight to the kernel's stderr, which the
kernel forwards to whichever cell is running when it notices it.

Second run: after nbval has run every cell in order and compared its output with the committed
one, every code cell runs once more, in order, in the same kernel (a cell raising fails). That is
Run All a second time, and each of its cells is also "this cell re-run after everything ran".

One kernel per lesson, not per language (`make test` on 2 cores, issue 22): when both
notebooks/en/X.ipynb and notebooks/zh/X.ipynb are collected, the English notebook runs first
(outputs compared with its committed ones), then the Chinese notebook's code cells run in the same
kernel as the second run, their outputs compared with the committed Chinese ones (nbval's own
rules: a cell tagged nbval-ignore-output is not compared). Their code is the same but for the first
cell's set_language('zh') (tests/test_notebooks.py checks), so that one execution is Run All again,
a switch to Chinese after everything ran in English, and the Chinese notebook's check; the Chinese
notebook gets no kernel of its own (the browser test runs it from a fresh kernel, in Voila). A
notebook without such a twin, or collected without it, runs its own cells again, not compared.
"""
from pathlib import Path

import nbformat
from nbval.plugin import find_comment_markers, find_metadata_tags

SECOND = ' (second run)'
SECOND_ZH = ' (second run, in Chinese)'


def pytest_collectstart(collector):
    if hasattr(collector, 'skip_compare'):
        collector.skip_compare += ('stderr',)


def _code_cells(path: Path) -> list:
    return [c for c in nbformat.read(str(path), as_version=4).cells if c.cell_type == 'code']


def _twin(path: Path, lang: str) -> Path:
    """The same lesson in the other language's folder (notebooks/en/X.ipynb <-> notebooks/zh/X.ipynb)."""
    return path.parent.parent / lang / path.name


def _zh_options(first, cell):
    """nbval's options for a Chinese cell, built as nbval builds them (its tags, its comment markers)."""
    options = type(first.options)(bool, find_metadata_tags(cell.metadata))
    options.update(find_comment_markers(cell.source))
    options.setdefault('check', first.parent.compare_outputs)
    options['skip'] = False
    return options


def _second_run_item(first, cell=None):
    """The same cell again (no comparison), or its Chinese twin (compared with the zh notebook's output)."""
    if cell is None:
        options = type(first.options)(bool, first.options)  # a defaultdict, as nbval builds it
        options.update(check=False, skip=False)
        suffix, what = SECOND, 'second run (every cell again after Run All)'
    else:
        options = _zh_options(first, cell)
        suffix = SECOND_ZH
        what = ("second run in Chinese (the zh notebook's cell, after the English Run All in the same kernel; "
                'outputs compared with the zh notebook)')
    item = type(first).from_parent(first.parent, name=first.name + suffix, cell_num=first.cell_num,
                                   cell=first.cell if cell is None else cell, options=options)
    original = item.repr_failure

    def repr_failure(excinfo):
        return f'{first.parent.name}, {what}, code cell {first.cell_num}:\n' + str(original(excinfo))

    item.repr_failure = repr_failure
    return item


def _path(item) -> Path:
    return Path(str(item.parent.path)).resolve()


def _pairs(cells) -> dict[Path, list]:
    """English notebook -> its Chinese twin's code cells, for each pair collected together whose code cells
    match in number (otherwise tests/test_notebooks.py fails, and each notebook runs on its own)."""
    count: dict[Path, int] = {}
    for item in cells:
        count[_path(item)] = count.get(_path(item), 0) + 1
    pairs = {}
    for path, n in count.items():
        zh = _twin(path, 'zh')
        if path.parent.name == 'en' and count.get(zh) == n:
            pairs[path] = _code_cells(zh)
    return pairs


def _second_run(pending, pairs: dict[Path, list]) -> list:
    """The second-run items for one notebook's first-pass items (see the module docstring)."""
    if not pending:
        return []
    zh = pairs.get(_path(pending[0]))
    if zh is not None:
        return [_second_run_item(first, zh[first.cell_num]) for first in pending]
    return [_second_run_item(first) for first in pending]


def pytest_collection_modifyitems(session, config, items):
    """Put each notebook's second run right after its first, so both use the notebook's one kernel."""
    cells = [i for i in items if hasattr(i, 'cell_num') and hasattr(i.parent, 'kernel') and SECOND[:-1] not in i.name]
    pairs = _pairs(cells)
    paired_zh = {_twin(en, 'zh') for en in pairs}
    moved = [i for i in cells if _path(i) in paired_zh]  # they run in the English notebook's kernel
    if moved:
        config.hook.pytest_deselected(items=moved)
    moved, first_pass = set(moved), set(cells)
    out, pending, parent = [], [], None
    for item in items:
        if item in moved:
            continue
        if item.parent is not parent:
            out += _second_run(pending, pairs)
            pending, parent = [], item.parent
        out.append(item)
        if item in first_pass:
            pending.append(item)
    out += _second_run(pending, pairs)
    items[:] = out
