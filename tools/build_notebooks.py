"""Write the English and Chinese notebooks from one source each, then run them clean.

Why a builder: the two languages must run the same code cells (a test checks it), so each
notebook's cells live once in tools/notebooks/<name>.py with the prose in both languages.
Executing with nbclient in a fresh kernel gives the committed execution counts 1..n.

    python tools/build_notebooks.py                 # write and execute all notebooks
    python tools/build_notebooks.py 13.3.1 --no-run # write only, to build/notebooks-unexecuted/
"""
from __future__ import annotations

import argparse
import importlib.util
import pathlib
import sys
import time

import nbformat
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parents[1]
SOURCES = ROOT / 'tools' / 'notebooks'
LANGS = ('en', 'zh')


def load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def chinese_prose(src) -> dict:
    """ZH = {key: text} from zh_<section>.py beside the source; English stays where a key is missing."""
    zh = src.with_name(src.name.replace('n', 'zh_', 1))
    return load(zh).ZH if zh.exists() else {}


def build(mod, lang, zh_prose):
    nb = nbformat.v4.new_notebook()
    nb.metadata['kernelspec'] = {'name': 'python3', 'display_name': 'Python 3 (ipykernel)', 'language': 'python'}
    nb.metadata['language_info'] = {'name': 'python'}
    for kind, body in mod.CELLS:
        if kind == 'md':
            text = body['en'] if lang == 'en' else zh_prose.get(body['key'], body['en'])
            nb.cells.append(nbformat.v4.new_markdown_cell(text.strip('\n')))
        else:
            nb.cells.append(nbformat.v4.new_code_cell(body.strip('\n')))
    return nb


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('only', nargs='*', help='notebook prefixes, e.g. 13.3.1')
    ap.add_argument('--no-run', action='store_true',
                    help='write without executing, under build/ (never over the committed, executed notebooks)')
    ap.add_argument('--lang', choices=LANGS, action='append')
    args = ap.parse_args()
    sys.path.insert(0, str(SOURCES))  # the sources import cells.py
    for src in sorted(SOURCES.glob('n*.py')):  # zh_*.py hold translations
        mod = load(src)
        if args.only and not any(mod.NAME.startswith(o) for o in args.only):
            continue
        for lang in args.lang or LANGS:
            nb = build(mod, lang, chinese_prose(src))
            base = ROOT / 'build' / 'notebooks-unexecuted' if args.no_run else ROOT / 'notebooks'
            out = base / lang / f'{mod.NAME}.ipynb'
            out.parent.mkdir(parents=True, exist_ok=True)
            if not args.no_run:
                t = time.time()
                NotebookClient(nb, timeout=900, kernel_name='python3',
                               resources={'metadata': {'path': str(out.parent)}}).execute()
                print(f'{out.relative_to(ROOT)}: ran in {time.time() - t:.0f} s', flush=True)
            nbformat.write(nb, out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
