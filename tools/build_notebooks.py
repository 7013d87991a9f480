"""Build notebooks/{en,zh}/<name>.ipynb from notebooks/src/<name>.py and run them clean.

Each source is a jupytext percent-format script: code cells are ordinary Python, every English
markdown cell is followed by its Chinese twin (`# %% [markdown] lang="zh"`). Both languages run
the one copy of the code; only the first code cell's `d2l_ext.set_language('en')` and the comments change:
a comment written `# English text  #zh: 中文` reads `# English text` in English and `# 中文` in Chinese, and a
line `#zh-str: {'one run': '运行一次'}` writes that string of its cell in Chinese (as d2l-zh's code does).
A code cell whose lines are all `#@source d2l_ext.module.function` gets those functions' source from the
package (as d2lbook harvests `#@save` cells, the other way round), so a lesson never types package code twice.
Executing with nbclient in a fresh kernel gives the committed execution counts 1..n.

    python tools/build_notebooks.py                  # build and execute every notebook
    python tools/build_notebooks.py 13.3.1 --lang zh # one section, one language
    python tools/build_notebooks.py --no-run         # write only, under build/notebooks-unexecuted/
"""
from __future__ import annotations

import argparse
import pathlib
import re
import sys
import time

import jupytext
import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from d2l_ext.i18n import tight  # noqa: E402  (the one typography rule, for printed output and the lessons' text)

SOURCES = ROOT / 'notebooks' / 'src'
LANGS = ('en', 'zh')
SET_LANGUAGE = "d2l_ext.set_language('{}')"
KERNELSPEC = {'name': 'python3', 'display_name': 'Python 3 (ipykernel)', 'language': 'python'}
# tags: nbval markers; jupyter: collapsed worked answers (source_hidden). jupytext's own keys are build noise.
KEPT_CELL_METADATA = ('tags', 'jupyter')


# A line break inside a Chinese paragraph renders as a space between two characters in Chrome and JupyterLab
# (CSS drops it only in Firefox): the sources wrap at 120 columns, so the Chinese notebooks get those lines joined.
# Emphasis marks (`**计算资源**`) do not count as a side; a Latin word or a number beside a 汉字 joins without a space
# (d2l-zh's typography, the same rule as printed output: i18n.tight), as do a bracketed label ("与(a)相比") and a
# code span ("`run`函数").
_CJK = re.compile(r'[\u2014\u2018-\u201d\u2026\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]')
_LATIN = re.compile(r'[A-Za-z0-9]')
_STARTS_BLOCK = re.compile(r'\s*([-*+]\s|\d+\.\s|#+\s|\||>|```|<|\$\$)')  # a list item, heading, table, HTML...
_ENDS_JOINING = re.compile(r'\s*(#+\s|\|)')  # a heading or a table row never continues on the next line


def _joins(before: str, after: str) -> bool:
    """Whether a line break between these two characters (emphasis stripped) renders as a stray space."""
    if _CJK.match(before):
        return bool(_CJK.match(after) or _LATIN.match(after) or after in '(`$')  # '$': inline math
    return bool((_LATIN.match(before) or before in ')`$') and _CJK.match(after))


def join_chinese_lines(text: str) -> str:
    """Markdown with each line break beside a Chinese character removed (not in code fences or between blocks)."""
    out, fenced = [], False
    for line in text.split('\n'):
        if line.lstrip().startswith('```'):
            fenced = not fenced
        elif not fenced and out and line.strip() and not _STARTS_BLOCK.match(line) and not _ENDS_JOINING.match(out[-1]):
            end, start = out[-1].rstrip().rstrip('*_'), line.lstrip().lstrip('*_')
            if end and start and '$$' not in (end[-2:], start[:2]) and _joins(end[-1], start[0]):
                out[-1] = out[-1].rstrip() + line.lstrip()
                continue
        out.append(line)
    return tight_markdown('\n'.join(out))


_VERBATIM = re.compile(r'(```.*?```|`[^`\n]*`|\$\$.*?\$\$|\$[^$\n]*\$|<[^>\n]*>|\]\([^)\n]*\))', re.S)


_BEFORE_CODE = re.compile(r'(?<=[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]) +$')
_AFTER_CODE = re.compile(r'^ +(?=[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef])')


def tight_markdown(text: str) -> str:
    """Chinese markdown in d2l-zh's typography (i18n.tight) outside code, math, HTML tags and link targets."""
    parts = _VERBATIM.split(text)
    for i in range(1, len(parts), 2):  # a code span or a link beside a 汉字 or Chinese punctuation: no space either
        code = parts[i].startswith('`') and not parts[i].startswith('```')  # "`run`函数", "[图12.3.1](…)画出"
        if code:
            parts[i - 1] = _BEFORE_CODE.sub('', parts[i - 1])
        if (code or parts[i].startswith('](')) and i + 1 < len(parts):
            parts[i + 1] = _AFTER_CODE.sub('', parts[i + 1])
    return ''.join(part if i % 2 else tight(part) for i, part in enumerate(parts))


# `# English  #zh: 中文`: the first '#' starts the comment; the marker splits it into the two languages.
_COMMENT = re.compile(r'^(?P<code>[^#]*#)(?P<space> ?)(?P<en>.*?)\s+#zh:\s?(?P<zh>.*)$')
_DOCSTRING = re.compile(r'^(?P<indent>\s*)"""(?P<en>[^"]+)"""\s*$')
_ZH_LINE = re.compile(r'^\s*#zh:\s?(?P<zh>.+)$')
_HARVEST = re.compile(r'^#@source\s+(?P<module>[\w.]+)\.(?P<name>\w+)\s*$')


def swap_comments(code: str, lang: str) -> str:
    """Code with each `# English  #zh: 中文` comment in one language (the code itself is the same in both).

    A one-line docstring followed by a `#zh: 中文` line (package code shown by `#@source`) becomes one docstring in
    the notebook's language."""
    def one(line: str) -> str:
        m = _COMMENT.match(line)
        if not m:
            return line
        return m['code'] + (m['space'] + m['en'] if lang == 'en' else ' ' + tight(m['zh']))
    lines, out = code.split('\n'), []
    for i, line in enumerate(lines):
        if i and _ZH_LINE.match(line) and _DOCSTRING.match(lines[i - 1]):
            continue  # the docstring above has taken it
        if (doc := _DOCSTRING.match(line)) and i + 1 < len(lines) and (nxt := _ZH_LINE.match(lines[i + 1])):
            line = f'{doc["indent"]}"""{tight(nxt["zh"]) if lang == "zh" else doc["en"]}"""'
        out.append(one(line))
    return '\n'.join(out)


_STRINGS = re.compile(r'^\s*#zh-str:\s*(?P<table>\{.*\})\s*$')


def swap_strings(code: str, lang: str) -> str:
    """Code with the cell's `#zh-str: {'English': '中文'}` lines applied in Chinese and dropped in both languages.

    d2l-zh writes its code's labels in Chinese (`d2l.Benchmark('GPU1 时间')`): each key is the text between the
    quotes of a string (or f-string) in the cell, replaced in the Chinese notebook by its value (d2l-zh's spacing:
    `i18n.tight`); only string contents change (tests/test_notebooks.py checks the code is otherwise the same)."""
    import ast
    lines, table = [], {}
    for line in code.split('\n'):
        if m := _STRINGS.match(line):
            try:
                table.update(ast.literal_eval(m['table']))
            except (ValueError, SyntaxError) as e:
                raise SourceError(f'#zh-str must be a dict of strings: {line.strip()!r} ({e})') from None
        else:
            lines.append(line)
    code = '\n'.join(lines)
    for en, zh in table.items():
        found = [q for q in ("'", '"') if f'{q}{en}{q}' in code]
        if not found:
            raise SourceError(f'#zh-str: no string {en!r} in this cell')
        if lang == 'zh':
            for q in found:
                code = code.replace(f'{q}{en}{q}', f'{q}{tight(zh)}{q}')
    return code


def harvest(code: str) -> str:
    """A cell of `#@source module.function` lines as those functions' source; any other cell as it is."""
    lines = [line for line in code.strip().split('\n') if line.strip()]
    found = [_HARVEST.match(line) for line in lines]
    if not lines or not all(found):
        return code
    import importlib
    import inspect
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    parts = []
    for m in found:
        try:
            parts.append(inspect.getsource(getattr(importlib.import_module(m['module']), m['name'])).rstrip('\n'))
        except (ImportError, AttributeError) as e:
            raise SourceError(f'#@source {m["module"]}.{m["name"]}: {e}') from None
    return '\n\n\n'.join(parts)


class SourceError(Exception):
    """A lesson source that cannot be built; the message names the file and the cell."""


def _where(path: pathlib.Path, index: int, cell) -> str:
    first = cell.source.strip().split('\n', 1)[0][:60]
    return f'{path.name}, cell {index + 1} ({cell.cell_type}: {first!r})'


def split_languages(path: pathlib.Path, source) -> dict[str, list]:
    """Pair each English markdown cell with the Chinese one right after it; code goes to both languages."""
    cells = {lang: [] for lang in LANGS}
    pending_en = None  # (index, cell) of an English markdown cell still waiting for its twin
    for i, cell in enumerate(source.cells):
        lang = cell.metadata.get('lang', 'en') if cell.cell_type == 'markdown' else None
        if lang not in (None, *LANGS):
            raise SourceError(f'{_where(path, i, cell)}: unknown lang={lang!r} (use "en" or "zh")')
        if lang == 'zh':
            if pending_en is None:
                raise SourceError(f'{_where(path, i, cell)}: Chinese cell without an English cell right before it')
            cells['en'].append(pending_en[1])
            cells['zh'].append(cell)
            pending_en = None
            continue
        if pending_en is not None:
            raise SourceError(f'{_where(path, *pending_en)}: no Chinese translation '
                              '(add a `# %% [markdown] lang="zh"` cell right after it)')
        if lang == 'en':
            pending_en = (i, cell)
        else:
            cells['en'].append(cell)
            cells['zh'].append(cell)
    if pending_en is not None:
        raise SourceError(f'{_where(path, *pending_en)}: no Chinese translation '
                          '(add a `# %% [markdown] lang="zh"` cell right after it)')
    return cells


def _set_language(path: pathlib.Path, cells: list, lang: str) -> None:
    """Write lang into the first code cell's set_language line (the only code that differs)."""
    code = [c for c in cells if c.cell_type == 'code']
    en_line = SET_LANGUAGE.format('en')
    if not code or en_line not in code[0].source.split('\n'):
        raise SourceError(f'{path.name}: the first code cell must contain the line {en_line}')
    lines = code[0].source.split('\n')
    code[0].source = '\n'.join(SET_LANGUAGE.format(lang) if line == en_line else line for line in lines)


def notebook(path: pathlib.Path, lang: str):
    """The unexecuted notebook for one language of one source, with stable cell ids."""
    cells = split_languages(path, jupytext.read(path, fmt='py:percent'))[lang]
    nb = nbformat.v4.new_notebook()
    nb.metadata = {'kernelspec': dict(KERNELSPEC), 'language_info': {'name': 'python'}}
    for i, cell in enumerate(cells):
        meta = {k: cell.metadata[k] for k in KEPT_CELL_METADATA if k in cell.metadata}
        make = nbformat.v4.new_code_cell if cell.cell_type == 'code' else nbformat.v4.new_markdown_cell
        if cell.cell_type == 'code':
            try:
                text = swap_comments(swap_strings(harvest(cell.source), lang), lang)
            except SourceError as e:
                raise SourceError(f'{_where(path, i, cell)}: {e}') from None
        else:
            text = join_chinese_lines(cell.source) if lang == 'zh' else cell.source
        nb.cells.append(make(text, metadata=meta, id=f'{lang}-{i:03d}'))
    _set_language(path, nb.cells, lang)
    return nb


def execute(nb, cwd: pathlib.Path, timeout: int = 900):
    """Run every cell in a fresh kernel whose working directory is the notebook's folder."""
    NotebookClient(nb, timeout=timeout, kernel_name='python3', record_timing=False,
                   resources={'metadata': {'path': str(cwd)}}).execute()
    return nb


def sources(only=()) -> list[pathlib.Path]:
    """notebooks/src/<name>.py, optionally only the names starting with one of `only`."""
    paths = sorted(SOURCES.glob('*.py'))
    picked = [p for p in paths if not only or any(p.stem.startswith(o) for o in only)]
    if only and not picked:
        raise SourceError(f'no source in {SOURCES.relative_to(ROOT)} starts with {" or ".join(only)}')
    return picked


def build(paths, langs=LANGS, run=True, out_root=None) -> list[pathlib.Path]:
    """Write (and unless run=False execute) each language of each source; returns the written paths."""
    if out_root is None:
        out_root = ROOT / 'notebooks' if run else ROOT / 'build' / 'notebooks-unexecuted'
    notebooks = [(path, lang, notebook(path, lang)) for path in paths for lang in langs]  # all errors first
    written = []
    for path, lang, nb in notebooks:
        out = out_root / lang / f'{path.stem}.ipynb'
        out.parent.mkdir(parents=True, exist_ok=True)
        if run:
            start = time.monotonic()
            try:
                execute(nb, out.parent)
            except CellExecutionError as e:  # keep the committed notebook; say which one failed
                raise SourceError(f'{path.name} ({lang}) failed while running; nothing written:\n{e}') from e
            print(f'{out}: ran in {time.monotonic() - start:.0f} s', flush=True)
        nbformat.write(nb, out)
        written.append(out)
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n', 1)[0])
    ap.add_argument('only', nargs='*', help='section prefixes, e.g. 13.3.1 (default: every source)')
    ap.add_argument('--lang', choices=LANGS, action='append', help='one language (repeatable; default both)')
    ap.add_argument('--no-run', action='store_true',
                    help='write without executing, under build/notebooks-unexecuted/ (never over the committed ones)')
    args = ap.parse_args(argv)
    try:
        build(sources(args.only), tuple(args.lang or LANGS), run=not args.no_run)
    except SourceError as e:
        print(f'error: {e}', file=sys.stderr)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main())
