"""The lesson contract's reading budget, counted over committed builds (issue 32).

Per lesson: at most 350 printed English words (Chinese: 700 汉字) in the outputs a learner sees without opening a
collapsed answer; at most 3 printed lines per cell (a table drawn as HTML counts its words, not its lines); no
printed sentence over 30 words (Chinese: 60 characters), collapsed answers included; at most 1,000 words of
English prose. Images and widgets are not printed words.

    python tools/reading_budget.py [NOTEBOOK ...]   # default: notebooks/en, notebooks/zh, docs/gpu-run/{en,zh}
"""
from __future__ import annotations

import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
LIMITS = {'words': 350, 'chars': 700, 'lines': 3, 'sentence_en': 30, 'sentence_zh': 60, 'prose': 1000}
CJK = re.compile(r'[\u4e00-\u9fff]')
EN = re.compile(r"[A-Za-z][A-Za-z'-]*")


def builds() -> list[pathlib.Path]:
    found = []
    for folder in ('notebooks/en', 'notebooks/zh', 'docs/gpu-run/en', 'docs/gpu-run/zh'):
        found += sorted((ROOT / folder).glob('13.3.*.ipynb'))
    return found


def printed(cell: dict, lines: bool = False) -> str:
    """What a code cell prints: streams, plain-text values and (for words, not lines) HTML tables' text."""
    out = []
    for o in cell.get('outputs', []):
        if o.get('output_type') == 'stream':
            out.append(''.join(o.get('text', '')))
        elif 'data' in o:
            d = o['data']
            if 'image/png' in d or 'application/vnd.jupyter.widget-view+json' in d:
                continue
            if 'text/html' in d:
                if not lines:
                    out.append(re.sub(r'<[^>]+>', ' ', ''.join(d['text/html'])))  # a table's words count
            elif 'text/plain' in d and not re.match(r'<(Figure|matplotlib)', ''.join(d['text/plain'])):
                out.append(''.join(d['text/plain']))
    return '\n'.join(out)


def count(path: pathlib.Path) -> dict:
    """This build's numbers: printed words (or 汉字), cells over 3 lines, long sentences, prose words."""
    cells = json.loads(path.read_text(encoding='utf-8')).get('cells', [])
    zh = 'zh' in path.parts
    total, long_cells, long_sentences = 0, [], []
    for i, c in enumerate(cells):
        if c.get('cell_type') != 'code':
            continue
        text = printed(c)
        if not text.strip():
            continue
        if not c.get('metadata', {}).get('jupyter', {}).get('outputs_hidden'):
            total += len(CJK.findall(text)) if zh else len(EN.findall(text))
        if len([line for line in printed(c, True).splitlines() if line.strip()]) > LIMITS['lines']:
            long_cells.append(i)
        parts = re.split(r'[。！？；]|\n', text) if zh else re.split(r'(?<=[.!?;])\s+|\n', text)
        size = (lambda s: len(CJK.findall(s)) + len(EN.findall(s))) if zh else (lambda s: len(EN.findall(s)))
        limit = LIMITS['sentence_zh' if zh else 'sentence_en']
        long_sentences += [s.strip() for s in parts if size(s) > limit]
    prose = sum(len(EN.findall(re.sub(r'```.*?```', ' ', ''.join(c.get('source', '')), flags=re.S)))
                for c in cells if c.get('cell_type') == 'markdown')
    return {'printed': total, 'limit': LIMITS['chars' if zh else 'words'], 'long_cells': long_cells,
            'long_sentences': long_sentences, 'prose': None if zh else prose}


def problems(path: pathlib.Path) -> list[str]:
    """One line per broken limit of this build (empty when it keeps the budget)."""
    c = count(path)
    out = []
    if c['printed'] > c['limit']:
        out.append(f'{c["printed"]} printed {"characters" if "zh" in path.parts else "words"} (at most {c["limit"]})')
    if c['long_cells']:
        out.append(f'cells {c["long_cells"]} print more than {LIMITS["lines"]} lines')
    for s in c['long_sentences']:
        out.append(f'sentence too long: {s[:90]}')
    if c['prose'] is not None and c['prose'] > LIMITS['prose']:
        out.append(f'{c["prose"]} words of prose (at most {LIMITS["prose"]})')
    return out


def main(argv: list[str]) -> int:
    paths = [pathlib.Path(a).resolve() for a in argv] or builds()
    bad = 0
    for p in paths:
        c, issues = count(p), problems(p)
        bad += bool(issues)
        name = p.relative_to(ROOT) if p.is_relative_to(ROOT) else p
        print(f'{name}: printed {c["printed"]}/{c["limit"]}, prose {c["prose"]}'
              + ('' if not issues else '\n  ' + '\n  '.join(issues)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
