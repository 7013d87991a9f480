"""The lesson contract's reading budget over every committed build (issue 32): tools/reading_budget.py's limits."""
import importlib.util
import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location('reading_budget', ROOT / 'tools' / 'reading_budget.py')
budget = importlib.util.module_from_spec(spec)
spec.loader.exec_module(budget)


@pytest.mark.parametrize('path', budget.builds(), ids=lambda p: str(p.relative_to(ROOT)))
def test_build_keeps_the_reading_budget(path):
    assert budget.problems(path) == []


def _nb(tmp_path, outputs, lang='en', markdown=''):
    folder = tmp_path / lang
    folder.mkdir(exist_ok=True)
    cells = [{'cell_type': 'markdown', 'source': markdown, 'metadata': {}},
             {'cell_type': 'code', 'source': 'x', 'metadata': {}, 'outputs': outputs}]
    path = folder / '13.3.9-Test.ipynb'
    path.write_text(json.dumps({'cells': cells}))
    return path


def _stream(text):
    return [{'output_type': 'stream', 'name': 'stdout', 'text': text}]


def test_counts_what_a_learner_reads(tmp_path):
    assert budget.problems(_nb(tmp_path, _stream('together 0.105 s vs one device 0.113 s: faster\n'))) == []
    four = _nb(tmp_path, _stream('a\nb\nc\nd\n'))
    assert any('more than 3 lines' in p for p in budget.problems(four))
    long = _nb(tmp_path, _stream(' '.join(['word'] * 31) + '\n'))
    assert any('too long' in p for p in budget.problems(long))
    many = _nb(tmp_path, _stream('\n'.join([' '.join(['w'] * 30)] * 1) * 1 + '\n' + 'x ' * 400))
    assert any('printed words' in p for p in budget.problems(many))
    prose = _nb(tmp_path, [], markdown='word ' * 1001)
    assert any('prose' in p for p in budget.problems(prose))


def test_chinese_counts_characters(tmp_path):
    ok = _nb(tmp_path, _stream('同时运行0.105秒，一个设备0.113秒：更快\n'), lang='zh')
    assert budget.problems(ok) == []
    long = _nb(tmp_path, _stream('字' * 61 + '\n'), lang='zh')
    assert any('too long' in p for p in budget.problems(long))


def test_an_html_table_counts_words_not_lines(tmp_path):
    rows = ''.join(f'<tr><td>{i}</td></tr>' for i in range(10))
    table = [{'output_type': 'display_data', 'metadata': {}, 'data': {'text/html': f'<table>{rows}</table>'}}]
    assert budget.problems(_nb(tmp_path, table)) == []
