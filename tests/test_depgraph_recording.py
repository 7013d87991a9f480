"""13.3.3's recorded step (depgraph.recording, display.graph_recorded, tools/record_depgraph.py, the lesson's section).

Recordings here are made on this machine's own lanes at tiny sizes (two CPU shares, or the GPU and
the CPU) and, where a GPU recording is needed, relabelled in memory only: no CPU file is ever
written where the package would ship it.
"""
from __future__ import annotations

import copy
import importlib.util
import io
import json
import pathlib
import re
import string
from contextlib import redirect_stdout

import pytest

from d2l_ext.depgraph import recording
from d2l_ext.display import graph_recorded as G
from d2l_ext.errors import UsageError
from d2l_ext.i18n import catalogue, t, using_language
from d2l_ext.lanes import find_lanes

ROOT = pathlib.Path(__file__).resolve().parents[1]
LESSON = ROOT / 'notebooks' / 'src' / '13.3.3-The-Dependency-Graph.py'


@pytest.fixture(scope='module')
def here():
    """A recording made on this machine's lanes at tiny sizes, two batch sizes."""
    return recording.record_step(batches=(16, 32), repeats=3, warmup=1, sizes={'hidden': 8})


def as_gpu(rec, name='NVIDIA H200', date='2026-12-03T17:00:00+00:00'):
    """The recording relabelled, in memory, as if lane 0 had been a GPU (for drawing and caption tests only)."""
    rec = copy.deepcopy(rec)
    rec['machine'].update(gpus=[name], date=date, driver='580.1', cuda='13.0')
    rec['lanes'][0].update(kind='gpu', index=0, threads=0, gpu_name=name)
    rec['one_device'].update(kind='gpu', index=0, threads=0, gpu_name=name)
    return rec


def as_cpu(rec):
    """The recording relabelled, in memory, as made without a GPU (what a CPU machine writes)."""
    rec = copy.deepcopy(rec)
    rec['machine']['gpus'] = []
    for lane in rec['lanes'] + [rec['one_device']]:
        lane.update(kind='cpu', gpu_name=None)
    return rec


def fake_run(halves=((0.0, 2e-3), (1e-3, 4e-3)), times=None, repeats=3):
    """A run with known intervals: lane 0's half busy 0-2 ms, lane 1's 1-4 ms (half of lane 0's time shared)."""
    (a0, b0), (a1, b1) = halves
    split = [{'lane': 'lane 0', 'name': recording.HALF, 'start': a0, 'end': b0},
             {'lane': 'lane 1', 'name': recording.HALF, 'start': a1, 'end': b1},
             {'lane': 'cpu (parameter server)', 'name': 'sum', 'start': b1, 'end': b1 + 1e-4}]
    turn = [{'lane': 'lane 0', 'name': recording.HALF, 'start': 0.0, 'end': 2e-3},
            {'lane': 'lane 1', 'name': recording.HALF, 'start': 2e-3, 'end': 5e-3}]
    one = [{'lane': 'one device', 'name': recording.WHOLE, 'start': 0.0, 'end': 1e-3}]
    times = times or {'one_device': [1e-3] * repeats, 'in_turn': [6e-3] * repeats, 'split': [4.5e-3] * repeats}
    return {'batch': 256, 'repeats': repeats, 'warmup': 1, 'times': times,
            'errors': {v: 1e-7 for v in recording.VARIANTS}, 'tolerance': 1e-4,
            'halves': {'in_turn': [recording._halves(turn)] * repeats, 'split': [recording._halves(split)] * repeats},
            'spans': {'in_turn': [recording._spans(turn)] * repeats, 'split': [recording._spans(split)] * repeats},
            'overlap': {'in_turn': [recording._overlap(turn)] * repeats,
                        'split': [recording._overlap(split)] * repeats},
            'predicted_overlap': 1.0, 'representative': 0,
            'events': {'one_device': one, 'in_turn': turn, 'split': split}}


# -- the recording ---------------------------------------------------------------------------------

def test_a_recording_round_trips_through_json(here, tmp_path):
    assert json.loads(json.dumps(here)) == here
    assert here['format'] == recording.FORMAT and [r['batch'] for r in here['runs']] == [16, 32]
    path = tmp_path / recording.file_name(here)
    path.write_text(json.dumps(here))
    back = recording.load_recordings(tmp_path, gpu_only=False)
    assert len(back) == 1 and {k: v for k, v in back[0].items() if k != 'file'} == here
    assert back[0]['file'] == path.name


def test_the_recording_holds_what_a_reader_needs(here):
    m = here['machine']
    assert {'date', 'cpu_cores', 'versions', 'gpus'} <= set(m) and 'torch' in m['versions']
    assert here['sizes'] == {'d_in': 784, 'hidden': 8, 'd_out': 10}
    for run in here['runs']:
        assert set(run['times']) == set(recording.VARIANTS)
        assert all(len(run['times'][v]) == run['repeats'] == 3 for v in recording.VARIANTS)
        assert all(err <= run['tolerance'] for err in run['errors'].values())  # checked against float64
        split = run['events']['split']
        assert sorted(e['lane'] for e in split if e['name'] == recording.HALF) == ['lane 0', 'lane 1']
        assert {'sum', 'update', 'grad copy', 'copy in'} <= {e['name'] for e in split}
        assert [e['name'] for e in run['events']['one_device']] == [recording.WHOLE]
        assert all(e['end'] >= e['start'] for ev in run['events'].values() for e in ev)


def test_every_overlap_is_a_fraction_in_0_1(here):
    for run in here['runs']:
        for v in ('in_turn', 'split'):
            assert all(f is None or 0.0 <= f <= 1.0 for f in run['overlap'][v])
        s = recording.summary(run)
        assert all(0.0 <= s[k] <= 1.0 for k in ('overlap', 'overlap_min', 'overlap_max', 'overlap_in_turn')
                   if s[k] is not None)


def test_the_overlap_is_the_shorter_halfs_shared_fraction():
    s = recording.summary(fake_run())
    assert s['overlap'] == pytest.approx(0.5) and s['shorter'] == 'lane 0'
    assert recording.summary(fake_run(halves=((0.0, 1e-3), (2e-3, 3e-3))))['overlap'] == 0.0
    assert recording.summary(fake_run(halves=((1e-3, 2e-3), (0.0, 4e-3))))['overlap'] == 1.0
    assert s['overlap_in_turn'] == 0.0  # halves in turn share nothing
    assert s['saved'] == pytest.approx(1.5e-3) and s['saved_predicted'] == pytest.approx(2e-3)
    assert s['first'] == 'lane 0' and s['start_offset'] == pytest.approx(1e-3) and s['in_turn_gap'] == 0.0
    later = recording.summary(fake_run(halves=((3e-3, 4e-3), (0.0, 4e-3))))
    assert later['first'] == 'lane 1' and later['start_offset'] == pytest.approx(3e-3)


def test_bad_input_is_refused_with_one_line(tmp_path):
    with pytest.raises(UsageError, match='batch'):
        recording.record_step(batches=(0,), repeats=1)
    with pytest.raises(UsageError, match='two lanes'):
        recording.record_step(lanes=find_lanes('torch')[:1], repeats=1)
    (tmp_path / 'old.json').write_text(json.dumps({'format': 0}))
    with pytest.raises(UsageError, match='format 0, expected 1'):
        recording.load_recordings(tmp_path)
    (tmp_path / 'old.json').write_text('{not json')
    with pytest.raises(UsageError, match='JSON'):
        recording.load_recordings(tmp_path)


def test_only_gpu_recordings_are_shown_newest_per_kind(here, tmp_path):
    old, new = as_gpu(here, date='2026-12-01T00:00:00+00:00'), as_gpu(here, date='2026-12-03T00:00:00+00:00')
    other = as_gpu(here, name='NVIDIA H100 80GB HBM3')
    for rec in (as_cpu(here), old, new, other):
        (tmp_path / f'{recording.gpu_kind(rec)}-{rec["machine"]["date"][:10]}.json'.replace(' ', '-')).write_text(
            json.dumps(rec))
    shown = recording.load_recordings(tmp_path)
    assert [recording.gpu_kind(r) for r in shown] == ['NVIDIA H100 80GB HBM3 x1', 'NVIDIA H200 x1']
    assert shown[1]['machine']['date'].startswith('2026-12-03')
    assert not recording.is_gpu(as_cpu(here))  # a CPU recording is never GPU evidence
    assert recording.file_name(new) == 'NVIDIA-H200-x1-2026-12-03.json'
    assert recording.newest(shown)['machine']['date'].startswith('2026-12-03')
    assert recording.newest([]) is None


@pytest.mark.parametrize('path', sorted(recording.FOLDER.glob('*.json')), ids=lambda p: p.name)
def test_shipped_recordings_are_gpu_recordings_named_after_their_machine(path):
    rec = recording.load(path)
    assert recording.is_gpu(rec), f'{path.name} was not recorded with a GPU lane: do not ship it'
    assert path.name == recording.file_name(rec)
    for run in rec['runs']:
        assert all(f is None or 0.0 <= f <= 1.0 for v in ('in_turn', 'split') for f in run['overlap'][v])
        assert all(err <= run['tolerance'] for err in run['errors'].values())
        names = {e['name'] for events in run['events'].values() for e in events}
        assert names <= set(G.STAGES), f'{path.name}: stage ids without a label {sorted(names - set(G.STAGES))}'


def test_the_stage_that_hands_each_lane_its_weights_and_rows_is_named_for_both():
    import inspect

    from d2l_ext.depgraph import worked
    assert "stage(i, 'copy in')" in inspect.getsource(worked.mlp_step)  # it copies the weights and moves the rows
    with using_language('en'):
        assert t(G.STAGES['copy in']) == 'weights + rows in' and 'weights + rows in' in t('graph.recorded.legend_copy')
    with using_language('zh'):
        assert t(G.STAGES['copy in']) == '传入权重和样本'
        # the recorded graph names each copy by what it moved (runs.name_copies_in): weights or rows, not both
        assert t('graph.stage.weights_in') == '传入权重' and t('graph.stage.rows_in') == '传入样本'


# -- caption and figure ----------------------------------------------------------------------------

def test_the_caption_is_made_from_the_recording(here):
    rec = as_gpu(here)
    text = G.recorded_text(rec, batch=16)
    for part in ('NVIDIA H200 x1', '2026-12-03', 'driver 580.1', 'CUDA 13.0', 'batch 16', 'batch 32',
                 '784-8-10 MLP', '3 repeats', 'GPU 0'):
        assert part in text, part
    changed = copy.deepcopy(rec)
    changed['machine'].update(gpus=['NVIDIA H100 80GB HBM3'], date='2027-01-05T00:00:00+00:00')
    changed['runs'][0]['overlap']['split'] = [0.25, 0.25, 0.25]
    other = G.recorded_text(changed, batch=16)
    assert 'NVIDIA H100 80GB HBM3 x1' in other and '2027-01-05' in other and 'during 25% of' in other
    assert 'NVIDIA H200' not in other and '2026-12-03' not in other


def test_the_title_states_gpu_date_sizes_repeats_and_overlap_beside_its_prediction():
    rec = {'machine': {'gpus': ['NVIDIA H200'], 'date': '2026-12-03T17:00:00+00:00'}, 'lanes': [{'kind': 'gpu'}]}
    with using_language('en'):
        title = G.title(rec, fake_run())
        assert title == t('graph.recorded.title', gpu='NVIDIA H200 x1', date='2026-12-03', batch=256, repeats=3,
                          warmup=1, fraction=0.5, predicted=1.0, lane='lane 0')
        # the overlap says of what interval it is a share, as the caption does (a bare '50%' left it unsaid)
        assert "overlap of the halves: 50% of the shorter half's busy time (lane 0), predicted 100%" in title
        assert 'batch 256, 3 repeats after 1 warm-up steps' in title
        assert 'overlap of the halves: 100%' in G.title(rec, fake_run(halves=((1e-3, 2e-3), (0.0, 4e-3))))
        assert '5 repeats' in G.title(rec, fake_run(repeats=5))
    with using_language('zh'):  # the GPUs as every lesson says them ('1 块 NVIDIA H200', not 'NVIDIA H200 x1')
        title = G.title(rec, fake_run())
        assert '1 块 NVIDIA H200' in title and 'x1' not in title and '较短一半（执行路 0）忙碌时间的 50%' in title
        assert '1 块 NVIDIA H200' in G.where_text(dict(rec, machine=dict(rec['machine'], cpu_cores=16)))


def test_the_repeats_panel_says_how_their_order_is_drawn_and_zh_reads_the_shorter_half_whole():
    for lang in ('en', 'zh'):
        with using_language(lang):
            assert t('graph.recorded.title_repeats') != {'en': 'every repeat after the warm-up, in the order they ran',
                                                         'zh': '预热之后的每次重复，按运行顺序'}[lang]
    with using_language('en'):
        assert 'first on top' in t('graph.recorded.title_repeats')
    with using_language('zh'):
        assert '最上面' in t('graph.recorded.title_repeats')
        fields = dict(ratio=2.0, excess=1.0, gap=0.5, rest=0.5)
        for key in ('saved_more', 'saved_more_gap', 'saved_more_covered'):
            text = t(f'graph.recorded.{key}', **fields)
            assert '比较短的那一半的忙碌时间多' in text and '比较短一半' not in text


def test_each_batch_states_its_warm_up_and_every_repeat_range():
    rec = {'sizes': {'d_in': 784, 'hidden': 256, 'd_out': 10}}
    with using_language('en'):
        text = G.run_text(rec, fake_run())
    assert '1 warm-up steps not counted' in text and ' to ' in text.split('\n')[1]


def test_one_device_not_slower_at_a_larger_batch_is_stated_over_every_size_with_the_middle_halves():
    small, large = fake_run(), fake_run()
    large = dict(large, batch=4096, times=dict(large['times'], one_device=[0.5e-3, 0.6e-3, 0.7e-3]))
    small = dict(small, times=dict(small['times'], one_device=[0.8e-3, 1.3e-3, 1.4e-3]))
    largest = dict(large, batch=16384, times=dict(large['times'], one_device=[0.9e-3, 1.0e-3, 1.1e-3]))
    close = dict(large, batch=65536, times=dict(large['times'], one_device=[0.95e-3, 1.05e-3, 1.2e-3]))
    with using_language('en'):
        flat = G.one_device_flat_text({'runs': [large, small]})
        grows = G.one_device_flat_text({'runs': [dict(small, batch=4096), dict(large, batch=256)]})
        three = G.one_device_flat_text({'runs': [largest, large, small, close]})
    assert '256: 1.300 ms (1.050–1.350 ms), 4096: 0.600 ms (0.550–0.650 ms)' in flat
    assert 'from 256 to 4096 it fell' in flat and 'middle halves of the repeats do not overlap' in flat
    assert grows == ''
    assert 'from 256 to 4096 it fell, from 4096 to 16384 it rose, from 16384 to 65536 not told apart' in three
    assert G.one_device_by_batch({'runs': [largest, large, small, close]}) == ['fell', 'rose', 'same']
    with using_language('zh'):
        assert '从 4096 到 16384 用时增加' in G.one_device_flat_text({'runs': [largest, large, small]})


def test_the_verdict_follows_the_medians():
    rec = {'sizes': {'d_in': 784, 'hidden': 256, 'd_out': 10}}
    with using_language('en'):
        slower = G.run_text(rec, fake_run())
        faster = G.run_text(rec, fake_run(times={'one_device': [9e-3] * 3, 'in_turn': [6e-3] * 3,
                                                 'split': [4.5e-3] * 3}))
    assert 'the split step took 4.50 times as long as one device' in slower
    assert 'one device with the whole minibatch took 2.00 times as long as the split step' in faster


def test_a_saving_beyond_its_prediction_is_stated_with_the_ratio():
    rec = {'sizes': {'d_in': 784, 'hidden': 256, 'd_out': 10}}
    with using_language('en'):
        within = G.overlap_text(rec, fake_run())  # saved 1.5 ms, predicted 2 ms (lane 0's half in turn)
        beyond = G.overlap_text(rec, fake_run(times={'one_device': [1e-3] * 3, 'in_turn': [9e-3] * 3,
                                                     'split': [4.5e-3] * 3}))  # saved 4.5 ms
    assert 'this prediction' not in within
    assert 'the measured saving is 2.2x this prediction' in beyond


def test_a_saving_beyond_its_prediction_says_how_much_the_gap_between_the_halves_leaves_unaccounted():
    s = {'saved': 0.770e-3, 'saved_predicted': 0.409e-3, 'in_turn_gap': 0.107e-3}  # the H200 recording's numbers
    with using_language('en'):
        text = G.saved_more_text(s)
        assert '1.9x this prediction: 0.361 ms more' in text and 'leaves 0.254 ms' in text
        assert 'no more than the 0.400 ms' in G.saved_more_text(dict(s, in_turn_gap=0.4e-3))  # the gap covers it
        assert 'does not say what that 0.361 ms was' in G.saved_more_text(dict(s, in_turn_gap=None))
        assert G.saved_more_text(dict(s, saved=0.44e-3)) == ''  # within 10% of the prediction: nothing to add
        beyond = G.overlap_text({'sizes': {}}, fake_run(times={'one_device': [1e-3] * 3, 'in_turn': [9e-3] * 3,
                                                               'split': [4.5e-3] * 3}))
        assert beyond.count('after the first ended') == 1  # the gap is stated once, inside the saving's sentence
    with using_language('zh'):
        assert '还有 0.254 毫秒' in G.saved_more_text(s)


def test_each_lanes_time_alone_is_given_for_exercise_2():
    with using_language('en'):
        text = G.overlap_text({'sizes': {}}, fake_run())
    assert 'each lane alone (the halves in turn), 128 rows each: lane 0 was busy 2.000 ms, lane 1 3.000 ms' in text
    with using_language('zh'):
        assert '每条执行路单独运行' in G.overlap_text({'sizes': {}}, fake_run())


def test_the_figure_draws_both_ways_in_both_languages(here):
    rec = as_gpu(here)
    for lang in ('en', 'zh'):
        with using_language(lang):
            fig = G.draw_recorded(rec)
            top, bottom = fig.axes[:2]
            labels = [x.get_text() for x in top.get_yticklabels()]
            assert len(labels) == 4 and len(top.patches) >= 7  # two lanes, the server, one device; every event
            assert len(bottom.get_yticklabels()) == 3
            overlap = recording.summary(recording.pick_run(rec))['overlap']
            assert f'{overlap:.0%}' in fig._suptitle.get_text() and '100%' in fig._suptitle.get_text()
    assert G.draw_recorded(None) is None


def test_every_bar_name_drawn_fits_inside_its_bar_in_chinese_too():
    # A Chinese character takes a full em: a name wider than its bar is left out, never drawn past the bar.
    from matplotlib.patches import Rectangle
    with using_language('zh'):
        fig = G.draw_recorded(recording.newest())
    top = fig.axes[0]
    fig.draw_without_rendering()
    bars = [p.get_window_extent() for p in top.patches if isinstance(p, Rectangle)]
    pad = G.style.MIN_FONT_PT * fig.dpi / 72  # half an em each side: no stroke reaches the bar's edge
    assert top.texts  # some names fit
    for text in top.texts:
        box = text.get_window_extent()
        cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        under = [b for b in bars if b.x0 <= cx <= b.x1 and b.y0 <= cy <= b.y1]
        assert not under or box.width + pad <= min(b.width for b in under), text.get_text()


def test_each_drawn_way_is_its_median_repeat_and_the_caption_says_which(here):
    run = recording.pick_run(here)
    for v in recording.VARIANTS:
        times = run['times'][v]
        assert sorted(times)[(len(times) - 1) // 2] == times[run['drawn'][v]]  # the median repeat, drawn
    with using_language('en'):
        text = G.drawn_text(run)
    assert text.count('(the median)') == len(G.DRAWN)


def test_an_older_recording_drawing_another_repeat_says_so_beside_the_median():
    run = fake_run(times={'one_device': [1e-3, 3e-3, 2e-3], 'in_turn': [6e-3] * 3, 'split': [4e-3, 5e-3, 4.5e-3]},
                   repeats=3)  # 'representative' 0, no 'drawn': every way drawn from repeat 1
    with using_language('en'):
        text = G.drawn_text(run)
    assert 'repeat 1 of 3, 1.000 ms on the wall clock (the median of its repeats: 2.000 ms)' in text
    assert 'its bars span 1.000 ms' in text


def test_bars_that_cover_much_less_than_the_wall_clock_are_given_the_difference_and_no_cause():
    times = {'one_device': [2e-3] * 3, 'in_turn': [6e-3] * 3, 'split': [4.5e-3] * 3}  # one device's bars: 1 ms of 2
    with using_language('en'):
        text = G.drawn_text(fake_run(times=times))
    assert 'that repeat took 2.000 ms on the wall clock and its bars span 1.000 ms (50% of it)' in text
    assert 'does not say what the other 1.000 ms were' in text
    assert text.count('does not say what') == 1  # the split step's bars (0 to 4.1 ms of 4.5) are within 10%
    with using_language('zh'):
        assert '其余的 1.000 毫秒' in G.drawn_text(fake_run(times=times))


def test_the_repeats_drawn_above_are_ringed_among_every_repeat(here):
    with using_language('en'):
        fig = G.draw_recorded(as_gpu(here))
    bottom = fig.axes[1]
    legend = [x.get_text() for x in bottom.get_legend().get_texts()]
    assert t('graph.recorded.legend_drawn') in legend
    from matplotlib.collections import PathCollection
    dots = sum(len(c.get_offsets()) for c in bottom.collections if isinstance(c, PathCollection))
    run = recording.pick_run(here)
    assert dots == sum(len(ts) for ts in run['times'].values()) + len(G.DRAWN)  # every repeat, plus the rings


FIGURE_KEYS = ('graph.recorded.title', 'graph.recorded.title_cpu', 'graph.recorded.title_timeline',
               'graph.recorded.title_repeats', 'graph.recorded.row_lane', 'graph.recorded.row_one',
               'graph.recorded.legend_copy', 'graph.recorded.legend_server', 'graph.recorded.legend_drawn',
               'graph.recorded.short.copy_in', 'graph.recorded.short.grad_copy', 'graph.recorded.short.lane_step',
               'graph.recorded.short.whole_step')


def test_chinese_figure_text_has_no_english_words():
    zh = catalogue('zh')
    keys = FIGURE_KEYS + tuple(k for k in zh if k.startswith('graph.recorded.stage.'))
    for key in keys:
        literal = ''.join(lit for lit, *_ in string.Formatter().parse(zh[key]))
        words = set(re.findall(r'[A-Za-z]+', literal)) - {'GPU', 'CPU'}
        assert not words, f'{key}: {words}'


# -- the lesson's section and the tool ------------------------------------------------------------

def lesson_section() -> str:
    """The code cells of the lesson's section 'Recorded on a GPU machine'."""
    src = LESSON.read_text(encoding='utf-8')
    body = src.split('# ## Recorded on a GPU machine', 1)[1].split('# %% [markdown]\n# ## Remember', 1)[0]
    cells = re.split(r'^# %%.*$', body, flags=re.M)[1:]
    return '\n'.join(c for c in cells if not c.lstrip().startswith('# ##'))


def run_section(folder, monkeypatch):
    monkeypatch.setattr(recording, 'FOLDER', pathlib.Path(folder))
    out, ns = io.StringIO(), {}
    with using_language('en'), redirect_stdout(out):
        exec(compile(lesson_section(), str(LESSON), 'exec'), ns)
    return out.getvalue(), ns


def test_the_lesson_section_says_so_in_one_line_without_a_recording(tmp_path, monkeypatch):
    printed, ns = run_section(tmp_path, monkeypatch)
    with using_language('en'):
        assert printed.strip() == t('graph.recorded.none')
    assert ns['recorded'] is None


def test_the_lesson_section_draws_a_shipped_gpu_recording_and_ignores_cpu_ones(here, tmp_path, monkeypatch):
    (tmp_path / 'cpu-only.json').write_text(json.dumps(as_cpu(here)))
    assert run_section(tmp_path, monkeypatch)[1]['recorded'] is None  # a CPU recording is not shown as GPU evidence
    (tmp_path / 'gpu.json').write_text(json.dumps(as_gpu(here)))
    printed, ns = run_section(tmp_path, monkeypatch)
    assert 'Recorded on NVIDIA H200 x1' in printed and ns['recorded']['file'] == 'gpu.json'


def test_the_tool_writes_a_recording_and_refuses_to_overwrite(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location('record_depgraph', ROOT / 'tools' / 'record_depgraph.py')
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = tmp_path / 'r.json'
    assert tool.main(['--out', str(out), '--batch', '16', '--repeats', '1']) == 0
    rec = recording.load(out)
    assert [r['batch'] for r in rec['runs']] == [16] and recording.file_name(rec) in capsys.readouterr().out
    with pytest.raises(SystemExit, match='exists'):
        tool.main(['--out', str(out)])
    with pytest.raises(SystemExit, match='whole numbers'):
        tool.main(['--out', str(tmp_path / 'x.json'), '--batch', 'many'])


def test_the_shipped_recordings_are_package_data():
    import fnmatch
    import tomllib
    patterns = tomllib.loads((ROOT / 'pyproject.toml').read_text())['tool']['setuptools']['package-data']['d2l_ext']
    for path in recording.FOLDER.glob('*.json'):
        inside = path.relative_to(ROOT / 'd2l_ext').as_posix()
        assert any(fnmatch.fnmatch(inside, p) for p in patterns), (
            f'{inside} would be left out of the wheel: add "depgraph/recorded/*.json" to package-data')
