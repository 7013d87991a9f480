"""Execute every lesson top to bottom in both languages on this Python, with no output comparison (make test-newest).

    python tools/run_lessons.py [13.3.1 ...] [--timeout S]

For each lesson, the English notebook's code cells run top to bottom in a fresh kernel, then the
Chinese notebook's code cells top to bottom in the same kernel (its first cell switches to Chinese;
one kernel per lesson, as `make notebooks` does, keeps the leg short). A lesson fails when a cell
raises, when any output holds a traceback, or, where MXNet is not installed, when a line of output
mentions MXNet without saying it is not installed, or a cell prints more than one such line.
Exit 0 when every lesson passes. The committed notebooks are read, never written.
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # d2l_ext from this checkout
MXNET = re.compile(r'mxnet', re.IGNORECASE)


def _texts(cell) -> list[str]:
    """Every text a cell showed: its streams, plain-text values and error tracebacks."""
    out = []
    for o in cell.get('outputs', []):
        if o.get('output_type') == 'stream':
            out.append(o.get('text', ''))
        elif o.get('output_type') == 'error':
            out.append('\n'.join(o.get('traceback', [])) or 'Traceback (error output)')
        else:
            out.append(str(o.get('data', {}).get('text/plain', '')))
    return out


def _says_absent(line: str) -> bool:
    """Whether a line that names MXNet says it is not installed (the machine line, or a `*.mxnet_missing` message)."""
    from d2l_ext.i18n import catalogue
    absent = {catalogue(lang)['core.not_installed'] for lang in ('en', 'zh')} | {'not installed', '没有安装'}
    return any(word in line for word in absent)


def problems(cells, where, mxnet_installed: bool) -> list[str]:
    """What is wrong with the executed cells: tracebacks, and MXNet lines other than the one saying it is absent."""
    found = []
    for cell, name in zip(cells, where):
        text = '\n'.join(_texts(cell))
        if 'Traceback' in text or any(o.get('output_type') == 'error' for o in cell.get('outputs', [])):
            found.append(f'{name}: a traceback in its output:\n' + text[-1500:])
        if mxnet_installed:
            continue
        lines = [line.strip() for line in text.splitlines() if MXNET.search(line)]
        wrong = [line for line in lines if not _says_absent(line)]
        if wrong or len(lines) > 1:
            found.append(f'{name}: MXNet is not installed, yet the cell printed: ' + ' | '.join(lines))
    return found


def run_lesson(name: str, timeout: int) -> list[str]:
    """Run one lesson (English, then Chinese in the same kernel); the problems found, [] when none."""
    import nbformat
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    from d2l_ext.machine import has_framework
    books = {lang: nbformat.read(ROOT / 'notebooks' / lang / name, as_version=4) for lang in ('en', 'zh')}
    nb = nbformat.v4.new_notebook(metadata=books['en'].metadata)
    where = []
    for lang, book in books.items():
        for i, cell in enumerate(c for c in book.cells if c.cell_type == 'code'):
            nb.cells.append(nbformat.v4.new_code_cell(cell.source))
            where.append(f'{lang}/{name}, code cell {i + 1}')
    client = NotebookClient(nb, timeout=timeout, kernel_name='python3',
                            resources={'metadata': {'path': str(ROOT / 'notebooks' / 'en')}})
    try:
        client.execute()
    except CellExecutionError as e:
        done = next((i for i, c in enumerate(nb.cells) if c.get('execution_count') is None), len(nb.cells)) - 1
        return [f'{where[max(done, 0)]} raised:\n{str(e)[-2000:]}']
    return problems(nb.cells, where, has_framework('mxnet'))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('lessons', nargs='*', help='section numbers, e.g. 13.3.1 (default: every lesson)')
    ap.add_argument('--timeout', type=int, default=900, help='seconds a cell may take')
    args = ap.parse_args(argv)
    names = sorted(p.name for p in (ROOT / 'notebooks' / 'en').glob('*.ipynb'))
    if args.lessons:
        names = [n for n in names if n.split('-')[0] in args.lessons]
    failed = 0
    for name in names:
        started = time.monotonic()
        found = run_lesson(name, args.timeout)
        took = time.monotonic() - started
        print(f"{name}: {'ok' if not found else 'FAILED'} (en and zh, {took:.0f} s)", flush=True)
        for problem in found:
            print('  ' + problem.replace('\n', '\n    '), flush=True)
        failed += bool(found)
    print(f'lessons: {len(names) - failed} passed, {failed} failed', flush=True)  # each in en and zh
    return 1 if failed or not names else 0


if __name__ == '__main__':
    sys.exit(main())
