"""13.3.3's recorded step (depgraph.recording, its drawing in display.graph, tools/record_depgraph.py).

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
from contextlib import redirect_stdout

import pytest

from d2l_ext import recordings
from d2l_ext.depgraph import recording
from d2l_ext.display import graph as G
from d2l_ext.errors import UsageError
from d2l_ext.i18n import t, using_language
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
            **{key: {'in_turn': [recording.half_stats(turn)[k]] * repeats,
                     'split': [recording.half_stats(split)[k]] * repeats}
               for k, key in enumerate(('halves', 'spans', 'overlap'))},
            'predicted_overlap': 1.0, 'representative': 0, 'drawn': dict.fromkeys(recording.VARIANTS, 0),
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
        s = recording.halves_summary(run)
        assert s['overlap'] is None or 0.0 <= s['overlap'] <= 1.0
        assert set(s['split']) == set(s['in_turn']) == {'lane 0', 'lane 1'}


def test_the_overlap_is_the_shorter_halfs_shared_fraction():
    s = recording.halves_summary(fake_run())
    assert s['overlap'] == pytest.approx(0.5) and s['predicted_overlap'] == 1.0
    assert s['split'] == pytest.approx({'lane 0': 2e-3, 'lane 1': 3e-3})  # each half's busy time, together
    assert s['in_turn'] == pytest.approx({'lane 0': 2e-3, 'lane 1': 3e-3})  # and one after the other
    assert recording.halves_summary(fake_run(halves=((0.0, 1e-3), (2e-3, 3e-3))))['overlap'] == 0.0
    assert recording.halves_summary(fake_run(halves=((1e-3, 2e-3), (0.0, 4e-3))))['overlap'] == 1.0
    assert fake_run()['overlap']['in_turn'][0] == 0.0  # halves in turn share nothing


def test_bad_input_is_refused_with_one_line(tmp_path):
    with pytest.raises(UsageError, match='batch'):
        recording.record_step(batches=(0,), repeats=1)
    with pytest.raises(UsageError, match='two lanes'):
        recording.record_step(lanes=find_lanes('torch')[:1], repeats=1)
    (tmp_path / 'old.json').write_text(json.dumps({'format': 0}))
    with pytest.raises(UsageError, match='format 0, not 1'):
        recording.load_recordings(tmp_path)
    (tmp_path / 'old.json').write_text('{not json')
    with pytest.raises(UsageError, match='JSON'):
        recording.load_recordings(tmp_path)


def test_only_gpu_recordings_are_shown_newest_per_kind(here, tmp_path):
    old, new = as_gpu(here, date='2026-12-01T00:00:00+00:00'), as_gpu(here, date='2026-12-03T00:00:00+00:00')
    other = as_gpu(here, name='NVIDIA H100 80GB HBM3')
    for rec in (as_cpu(here), old, new, other):
        (tmp_path / recording.file_name(rec)).write_text(json.dumps(rec))
    shown = recording.load_recordings(tmp_path)
    assert [recordings.kind(r, recording.is_gpu) for r in shown] == ['NVIDIA H100 80GB HBM3 x1', 'NVIDIA H200 x1']
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
        assert names <= set(G.STAGE_OF), f'{path.name}: stage ids without a label {sorted(names - set(G.STAGE_OF))}'


def test_the_stage_that_hands_each_lane_its_weights_and_rows_is_named_in_both_languages():
    import inspect

    from d2l_ext.depgraph import model
    assert "stage(i, 'copy in')" in inspect.getsource(model.mlp_step)  # it copies the weights and the rows
    with using_language('zh'):
        assert G.stage_label('copy in') == '传入样本和权重' and G.stage_label('lane step') == '前向+反向'


def test_the_recorded_dag_is_json_ready_on_cpu_lanes():
    import dataclasses

    from d2l_ext.depgraph import DAG_VARIANTS
    from d2l_ext.depgraph.dag import dag_experiment
    d = json.loads(json.dumps(dataclasses.asdict(dag_experiment(recording.as_lanes(['cpu', 'cpu']), repeats=1))))
    assert len(d['dag']) == 21 and sum(map(len, d['order'].values())) == 21 and d['forced'] == []
    assert set(d['speeds']) == set(d['lanes']) and d['model']['planned'] == 12 and len(d['trace']) == 21  # alone
    assert set(d['measurements']) == set(DAG_VARIANTS) and all(  # CPU lanes: one device on all cores and one thread
        len(m['times']) == 1 for m in d['measurements'].values())


# -- the prediction: together from one after the other ---------------------------------------------

def test_together_is_predicted_as_one_after_the_other_less_the_shorter_half():
    run = fake_run()  # one after the other 6 ms, its halves 2 ms and 3 ms
    assert recording.predict_split(run) == pytest.approx(4e-3)
    run['times']['in_turn'] = [9e-3, 7e-3, 6e-3]  # the rows' medians, as the figure draws them: 7 ms less 2 ms
    run['halves']['in_turn'] = [{'lane 0': 2e-3, 'lane 1': 3e-3}, {'lane 0': 1e-3, 'lane 1': 3e-3},
                                {'lane 0': 4e-3, 'lane 1': 3e-3}]  # the median repeat's shorter (1 ms) is not used
    assert recording.predict_split(run) == pytest.approx(5e-3)


def test_exercise_2_answer_gives_the_rule_s_verdict_on_each_assumption(capsys):
    run = fake_run()  # together 4.5 ms; its halves 2 and 3 ms, both ways, overlapping 50%; one after the other 6 ms

    def last():  # together against the baseline by the rule, then the answer: the cell's last two printed lines
        return '\n'.join(capsys.readouterr().out.strip().split('\n')[-2:])
    with using_language('en'):
        # the shorter half 1 ms apart; the other time: predicted 6 - 2 - 3 = 1 ms, measured 4.5 - 3 - 1; medians;
        # each half and the other time (per repeat) with the one rule's word
        assert G.split_table(run).values.tolist() == [
            [1, 'lane 0 half', '2.00 ms (grey box 2.00–2.00 ms)', '2.00 ms (grey box 2.00–2.00 ms)',
             '+0 ms: no clear difference'],
            [1, 'lane 1 half', '3.00 ms (grey box 3.00–3.00 ms)', '3.00 ms (grey box 3.00–3.00 ms)',
             '+0 ms: no clear difference'],
            [2, 'shorter half beside the other', '100%', '50%', '−50 points'],  # a difference of two shares
            [3, 'other time: together less the halves (copies, sum, update, unrecorded time)',
             '1.00 ms', '0.500 ms', '−0.500 ms: shorter'],  # a time part: shorter or longer
            ['', 'together', '4.00 ms', '4.50 ms', '+0.500 ms']]
        G.split_answer(run)  # the table, then the answer alone: each assumption with the table's number
        assert capsys.readouterr().out.strip().split('\n')[-1] == (
            'Worked answer: Assumption 1: halves +0 ms and +0 ms together: no clear difference. Assumption 2: the '
            'halves overlapped 50% (100% assumed). Assumption 3: the other time −0.500 ms: shorter.')  # not "held"
        run['overlap']['split'] = [1.0] * 3  # no time apart
        run['halves']['split'] = [{'lane 0': 2.2e-3, 'lane 1': 3.5e-3}] * 3  # both halves slower, the rest -0.4 ms
        run['times']['split'] = [4.1e-3] * 3
        G.split_answer(run, False)  # a guess (assumption 1 failed?): its line first, beside this run's
        assert capsys.readouterr().out.strip().split('\n')[-2] == 'your guess: False · this run: True'
        G.split_answer(run)  # both halves slower by the rule: the larger change named, with the rule's word
        assert last().split('\n')[1].startswith('Worked answer: Assumption 1 failed: lane 1 half +0.500 ms: longer. '
                                                'Assumption 2: the halves overlapped 100% (100% assumed).')
        run['halves']['split'] = [{'lane 0': x, 'lane 1': 3.5e-3} for x in (1.8e-3, 2.2e-3, 2.6e-3)]
        # lane 0's median +10% but its grey box overlaps one after the other's: the one rule tells no difference
        assert [row[2:] for row in G.split_table(run).values.tolist()[:2]] == [
            ['2.00 ms (grey box 2.00–2.00 ms)', '2.20 ms (grey box 2.00–2.40 ms)', '+0.200 ms: no clear difference'],
            ['3.00 ms (grey box 3.00–3.00 ms)', '3.50 ms (grey box 3.50–3.50 ms)', '+0.500 ms: longer']]
        G.step_answer(run)  # cell 13's answer: together beside the graph's prediction
        assert last().endswith('Worked answer: together 4.10 ms: within 5% of the estimate 4.00 ms. One after the '
                               'other: other time 1.00 ms, below both halves (2.00 ms, 3.00 ms).')
    with using_language('zh'):
        G.split_answer(fake_run())
        assert capsys.readouterr().out.strip().split('\n')[-1] == (
            '参考答案：假设1：两半同时运行时分别变化了+0毫秒和+0毫秒，按规则没有明显差别。'
            '假设2：两半重叠了50%（假设为100%）。假设3：其他时间变化了−0.500毫秒：更短。')
        assert G.split_table(fake_run()).values.tolist()[2][-1] == '−50个百分点'
        G.step_answer(fake_run())
        assert last().endswith('参考答案：同时运行4.50毫秒，比估算4.00毫秒高12%。'
                               '先后运行时，其他时间为1.00毫秒，比两半都短（2.00毫秒、3.00毫秒）。')


def test_the_control_runs_the_whole_step_on_one_thread_and_is_the_baseline_only_where_its_median_is_lower(capsys):
    run = fake_run()  # one device 1 ms, together 4.5 ms, one after the other 6 ms (halves 2 and 3 ms)
    with using_language('en'):
        assert G.inputs_line(run) == 'one after the other 6.00 ms; halves: lane 0: 2.00 ms · lane 1: 3.00 ms; ' \
            'baseline: one device 1.00 ms (medians of 3 repeats)'  # the guess's inputs and the baseline, before it
        G.split_answer(run)
        assert 'thread' not in capsys.readouterr().out  # not run (a GPU recording): nothing said
        run['times'][recording.CONTROL] = [0.9e-3] * 3  # one thread beats one device's threads: the best device
        run['events'][recording.CONTROL] = [{'lane': 'one device', 'name': recording.WHOLE, 'start': 0, 'end': 8e-4}]
        run['drawn'][recording.CONTROL] = 0
        fig = G.draw_step(run)
        labels = [x.get_text() for x in fig.axes[0].get_yticklabels()]
        assert not any(x.startswith('model') for x in labels)  # one model only: together's hatched prediction
        assert labels[0].startswith('baseline: one device (CPU, one thread), whole minibatch')  # one thread, all
        assert labels[2].startswith('two lanes together')  # cores, then together
        assert fig.axes[1].get_yticklabels()[-1].get_text() == 'one device (one thread)'  # the verdict's: timed, drawn
        assert fig.axes[1].collections[-1].get_segments()[1][0][0] == pytest.approx(0.9)  # its timer (ms)
        assert 'together 4.50 ms vs one device (one thread) 0.900 ms: ' in G.step_lines(run)  # the line judges by it
        G.step_answer(run)  # cell 13's answer: what the step is made of; the control is the baseline's row only
        assert 'thread' not in capsys.readouterr().out
        run['times']['one_device'], run['times'][recording.CONTROL] = [6e-3] * 3, [5e-3] * 3  # together beats both
        assert 'together 4.50 ms vs one device (one thread) 5.00 ms: faster' in G.step_lines(run)  # faster row
    lanes = ['cpu', 'cpu']
    rec = recording.record_step(lanes, batches=(16,), repeats=1, warmup=0, sizes={'hidden': 8}, control=True)
    from d2l_ext.machine import cpu_cores
    assert (recording.CONTROL in rec['runs'][0]['times']) == (cpu_cores() > 1)  # a CPU of several cores only


def test_exercise_2_answer_names_each_half_the_rule_tells_apart_either_way(capsys):
    run = fake_run()  # one after the other: lane 0 2 ms, lane 1 3 ms (predicted 6 - 2 = 4 ms)
    run['halves']['split'] = [{'lane 0': 4e-3, 'lane 1': 2.5e-3}] * 3  # lane 0's half slower, lane 1's faster
    run['overlap']['split'] = [0.97] * 3  # 3% of the shorter half apart
    with using_language('en'):
        G.split_answer(run)  # other time: predicted 4 - 3 = 1 ms, measured 4.5 - 4 - 0.075 ms
        assert [row[:4] for row in G.split_table(run).values.tolist()[:3]] == [
            [1, 'lane 0 half', '2.00 ms (grey box 2.00–2.00 ms)', '4.00 ms (grey box 4.00–4.00 ms)'],
            [1, 'lane 1 half', '3.00 ms (grey box 3.00–3.00 ms)', '2.50 ms (grey box 2.50–2.50 ms)'],
            [2, 'shorter half beside the other', '100%', '97%']]
        assert [row[-1] for row in G.split_table(run).values.tolist()[:2]] == ['+2.00 ms: longer', '−0.500 ms: shorter']
    answer = capsys.readouterr().out.strip().split('\n')[-1]  # the answer, the cell's last line
    assert answer.startswith('Worked answer: Assumption 1 failed: lane 0 half +2.00 ms: longer. Assumption 2: the '
                             'halves overlapped 97% (100% assumed).')  # the larger half the rule tells apart
    run['halves']['split'] = [{'lane 0': 2e-3, 'lane 1': 2.5e-3}] * 3  # the longer half 0.5 ms faster: the one miss
    run['times']['split'] = [3.5e-3] * 3  # the rest 3.5 - 2.5 - 0.06 ms, near its predicted 1 ms
    with using_language('en'):
        G.split_answer(run)
    assert 'Assumption 1 failed: lane 1 half −0.500 ms: shorter.' in capsys.readouterr().out
    with using_language('zh'):
        G.split_answer(run)
    assert '假设1不成立：计算资源1上的半个小批量 −0.500毫秒：更短。' in capsys.readouterr().out
    run['halves']['split'] = [{'lane 0': 2e-3, 'lane 1': 3e-3}] * 3
    run['times']['split'] = [4e-3] * 3  # every part as predicted, within 5% of the prediction (0.2 ms)
    run['overlap']['split'] = [0.951] * 3  # printed '95%': 0.1 ms apart, under 5% of the prediction
    with using_language('en'):
        G.split_answer(run)
    assert capsys.readouterr().out.strip().split('\n')[-1].startswith(
        'Worked answer: Assumption 1: halves +0 ms and +0 ms together: no clear difference. Assumption 2: '
        'the halves overlapped 95% (100% assumed).')  # no change named: none the rule tells apart
    run['halves']['split'] = [{'lane 0': x, 'lane 1': y} for x, y in ((1.8e-3, 2.7e-3), (2.2e-3, 3.3e-3), (2.6e-3,
                                                                                                      3.9e-3))]
    run['times']['split'], run['overlap']['split'] = [4.5e-3] * 3, [1.0] * 3  # halves +0.2, +0.3 ms, boxes overlap
    with using_language('en'):
        G.split_answer(run)
    assert ('Assumption 1: halves +0.200 ms and +0.300 ms together: no clear difference.'
            ) in capsys.readouterr().out  # the one rule: +0.3 ms, boxes overlap: not "held", no change named


def test_exercise_1_answer_reads_the_recorded_sum_and_the_check(capsys):
    import d2l_ext.depgraph as dg
    problem = dg.make_problem(batch=8, d_in=6, hidden=5, d_out=3)
    hasty = dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], problem, step=dg.wrong_version('lane0_twice')))
    with using_language('en'):
        drawn = G.wrong_sum_answer(hasty, True)  # the exercise's own cell draws the graph
        fig = G.draw_graph(hasty, missing=dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], problem)))
        assert fig.axes[0].get_legend().get_texts()[-1].get_text() == 'missing: an edge of the worked step'
        assert sum(tuple(a.arrow_patch.get_edgecolor()[:3]) == (1, 0, 0) for a in fig.axes[0].texts if getattr(
            a, 'arrow_patch', None)) == 1  # one red arrow: lane 1's gradients into sum
        G.wrong_sum_answer(dg.coarsen_graph(dg.record_step_graph(['cpu', 'cpu'], problem)), False)
    assert drawn is None and capsys.readouterr().out.splitlines() == [
        "Worked answer: The graph changed: no edge joins lane 1's gradients to sum. The float64 check caught the "
        'wrong update.',
        "Worked answer: The graph did not change: sum reads both lanes' gradients. The float64 check passed: the "
        'update is unchanged.']
    with using_language('en'):  # the learner's guess (graph changed?, caught?) first, beside this run's
        G.wrong_sum_answer(hasty, True, (True, False))
    assert capsys.readouterr().out.splitlines()[0] == 'your guess: (True, False) · this run: (True, True)'


@pytest.mark.parametrize('path', sorted(recording.FOLDER.glob('*.json')), ids=lambda p: p.name)
def test_the_prediction_lands_within_a_quarter_in_the_shipped_recordings(path):
    """Golden: on the H200 recording (GPU and CPU lanes) together measured 3.20 ms against 3.56 ms predicted."""
    import statistics
    for run in recording.load(path)['runs']:
        measured = statistics.median(run['times']['split'])
        assert abs(recording.predict_split(run) / measured - 1) <= 0.25, run['batch']


def test_details_keep_every_statistic_and_the_prediction(here):
    df = recording.to_frame(here['runs'][0])
    with using_language('en'):
        assert list(df.index) == [t(f'graph.variant.{v}') for v in recording.VARIANTS]
    assert df[t('graph.col_predicted')].iloc[2] == pytest.approx(recording.predict_split(here['runs'][0]))
    halves = recording.halves_summary(here['runs'][0])
    assert df[t('graph.col_half', i=1)].iloc[2] == pytest.approx(halves['split']['lane 1'])
    assert df[t('graph.col_overlap')].iloc[2] == halves['overlap']


# -- what a cell prints and draws --------------------------------------------------------------------

def printed(fn, *args, **kwargs):
    out = io.StringIO()
    with redirect_stdout(out):
        value = fn(*args, **kwargs)
    return out.getvalue(), value


@pytest.mark.parametrize('lang', ['en', 'zh'])
def test_a_timed_step_prints_the_guess_line_and_one_verdict_line(lang):
    with using_language(lang):
        text, fig = printed(G.show_step, fake_run(), 3.5)
    lines = text.strip().split('\n')
    golden = {'en': ['your guess 3.50 ms · predicted 4.00 ms · measured 4.50 ms', None],
              'zh': ['你的猜测3.50毫秒，预测4.00毫秒，实测4.50毫秒', None]}  # each repeat's overlap: the figure
    from d2l_ext.timing import Measurement
    with using_language(lang):  # the second: verdict.line's wording (tested there), from the medians of the fake run
        golden[lang][1] = G.verdict.line(t('graph.short.split'), Measurement('a', [4.5e-3]),
                                         t('graph.short.one_device'), Measurement('b', [1e-3]), unit='ms')
    assert lines == golden[lang]
    assert lines[1].startswith(('together 4.50 ms vs one device 1.00 ms: ', '同时运行4.50毫秒'))
    timeline, repeats = fig.axes[1], fig.axes[0]
    assert len(repeats.collections) >= 7 and timeline.patches  # the dots of 3 ways and 4 halves; the median repeat
    beside = repeats.get_yticklabels()[1].get_text().split('\n')[0]  # one device, together, its prediction's
    assert beside in ('two lanes together (predicted 6.00 − 2.00)', '两个计算资源，同时运行（预测6.00 − 2.00）')
    assert len(repeats.get_yticklabels()) == 7 and repeats.get_yticklabels()[3].get_text().split('\n')[0] in (
        'lane 0 half, one after the other', '计算资源0上的半个小批量，先后运行')


def test_the_repeats_panel_says_how_many_and_leaves_the_verdict_to_the_printed_line():
    apart = fake_run()  # together 4.5 ms every time, one device 1 ms: boxes apart
    close = fake_run(times={'one_device': [3e-3, 4e-3, 5e-3], 'in_turn': [6e-3] * 3, 'split': [4e-3, 4.5e-3, 6e-3]})
    near = fake_run(times={'one_device': [4e-3] * 3, 'in_turn': [6e-3] * 3, 'split': [4.1e-3] * 3})  # boxes apart, 2.5%
    with using_language('en'):
        top = [G.draw_step(run).axes[0] for run in (apart, close, near)]
    assert top[0].get_title(loc='left') == 'Every repeat (3 a way)'
    # the verdict's pair need not be neighbouring rows: its reason is printed with it, not pinned beside one row
    assert all(x.get_text().strip() not in ('medians within 5%', 'grey boxes overlap') for ax in top for x in ax.texts)


def test_the_timeline_names_each_part_of_together_and_stops_each_timer_at_its_median():
    run = fake_run()  # together's median repeat 4.5 ms, one device's 1 ms
    ms = 1e-3
    run['events']['split'] = [  # copies in, the halves on their lanes, then the server (ms)
        {'lane': 'lane 0', 'name': 'copy in', 'start': 0.1 * ms, 'end': 0.3 * ms},
        {'lane': 'lane 1', 'name': 'copy in', 'start': 0.3 * ms, 'end': 0.5 * ms},
        {'lane': 'lane 0', 'name': recording.HALF, 'start': 0.6 * ms, 'end': 2.6 * ms},
        {'lane': 'lane 1', 'name': recording.HALF, 'start': 0.7 * ms, 'end': 3.0 * ms},
        *({'lane': 'cpu (parameter server)', 'name': n, 'start': a * ms, 'end': b * ms}
          for n, a, b in (('grad copy', 3.4, 3.6), ('sum', 3.6, 3.7), ('update', 3.7, 3.9)))]
    with using_language('en'):
        events, rows, legend, bars = G._timeline_events(run)
        fig = G.draw_step(run)
    assert list(rows) == ['lane 0', 'server (CPU)', 'lane 1', 'one device'] and len(set(rows.values())) == 4
    assert G.style.color(rows['server (CPU)']) != G.style.color('lane 3')  # not a blue beside lane 0's (r26 en f5)
    handoffs = [b[:3] for b in bars if b[3] == G.HANDOFF]  # black, not a grey: grey is the repeats' box
    assert handoffs == [pytest.approx((1, 0.5 * ms, 0.6 * ms)), pytest.approx((1, 3.0 * ms, 3.4 * ms)), pytest.approx(
        (1, 3.9 * ms, 4.5 * ms))]  # the lanes start, return; the step returns after its update, till the timer stops
    assert [b[:3] for b in bars if b[3] == 'white'] == [(0, 0.3 * ms, 0.6 * ms), (2, 0.5 * ms, 0.7 * ms), (
        1, 0.6 * ms, 3.0 * ms)]  # waits, empty: a lane before its half; the server for both halves
    assert not [e for e in events if e['role'] == 'idle']
    keyed = [x.get_text() for x in fig.axes[1].get_legend().get_texts()]
    assert keyed == ['copies: samples and weights in, gradients out', 'server: sum, update',  # rows named beside
                     'timer outside the recorded parts', 'waiting',  # what it is, no cause
                     'fwd + bwd + update', 'timer stops']  # the one-device row's colour: keyed where a box is narrow
    assert fig.axes[1].get_title(loc='left') == (
        'The median repeat of together and one device\n(not the medians above)')  # the two ways it draws
    dashed = fig.axes[1].collections[-1].get_segments()  # each way's timer, in ms: together's rows, one device's
    assert [(seg[0][0], seg[0][1], seg[1][1]) for seg in dashed] == [
        pytest.approx((4.5, -0.45, 2.45)), pytest.approx((1.0, 2.55, 3.45))]
    run['events']['split'][:4] = [  # each lane's job copies its own inputs: lanes start from the timer's start
        {'lane': f'lane {i}', 'name': name, 'start': a * ms, 'end': b * ms} for i, name, a, b in (
            (0, 'copy in', 0.2, 0.4), (1, 'copy in', 0.3, 0.5), (0, recording.HALF, 0.4, 2.4),
            (1, recording.HALF, 0.5, 3.0))]
    with using_language('en'):
        bars = G._timeline_events(run)[3]
    assert [b[:3] for b in bars if b[3] == G.HANDOFF] == [pytest.approx((1, 0.0, 0.2 * ms)), pytest.approx(
        (1, 3.0 * ms, 3.4 * ms)), pytest.approx((1, 3.9 * ms, 4.5 * ms))]
    assert [b[1:3] for b in bars if b[3] == 'white'] == [pytest.approx((0.2 * ms, 3.0 * ms))]


def test_a_recording_is_drawn_titled_with_its_machine_and_none_says_so_in_one_line(here):
    with using_language('en'):
        text, fig = printed(G.show_recorded, as_gpu(here))
        assert fig._suptitle.get_text().startswith('Recorded on NVIDIA H200 and the CPU, 2026-12-03')
        lines = text.strip().split('\n')
        assert len(lines) == 1 and 'my_guess' not in text  # a recording asks for no guess: the verdict only
        rows = [x.get_text().split('\n')[0] for x in fig.axes[0].get_yticklabels()]
        assert 'GPU half, together' in rows and not any('%' in r for r in rows)  # medians, no noise as a change
        assert rows[0] == 'baseline: one device (GPU), whole minibatch'  # which device, the baseline
        assert 'waiting' in [x.get_text() for x in fig.axes[1].get_legend().get_texts()]  # white on every row
        assert [x.get_text() for x in fig.axes[1].get_yticklabels()][:3] == ['GPU', 'server (CPU)', 'CPU']
        run, labels = recording.pick_run(here), [x.get_text() for x in fig.axes[0].get_yticklabels()]
        slow = max(recording.halves_summary(run)['in_turn'].items(), key=lambda x: x[1])  # a GPU and the CPU: the
        half, rest = (G.verdict.sig(s * 1e3) for s in (slow[1], recording.parts(run)[-1][1]))  # slower half + other
        name = 'GPU' if slow[0] == 'lane 0' else 'CPU'
        assert f'two lanes together\n(predicted: {name} half {half} + other time {rest})' in '\n'.join(labels)
        text, fig = printed(G.show_recorded, None)
        assert fig is None and text.strip() == t('graph.no_recording')


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


def test_the_step_figure_is_two_panels_its_first_row_names_one_device(here):
    with using_language('en'):
        one = here['one_device']  # which device, how many cores
        fig = G.draw_step(here)
        first = fig.axes[0].get_yticklabels()[0].get_text().removeprefix('baseline: ')  # the faster one-device row
        assert first.startswith('one device (GPU)' if one[
            'kind'] == 'gpu' else f"one device (CPU, {one['threads']} cores), whole minibatch")
    assert len(fig.axes) == 2  # every repeat, the timelines: each repeat's overlap is in the worked answer's table


def test_the_server_thread_keeps_only_the_cores_the_lanes_leave(monkeypatch):
    # beside a CPU lane's OpenMP team, a calling thread on every core made the split step 4x slower on an H100
    import torch

    from d2l_ext.machine import cpu_cores
    seen, before = [], torch.get_num_threads()
    monkeypatch.setattr(recording, 'settle', lambda: seen.append(torch.get_num_threads()))  # called before each run
    recording.record_step(['cpu', 'cpu'], batches=(16,), repeats=1, warmup=0, sizes={'hidden': 8})
    lanes = recording.as_lanes(['cpu', 'cpu'])
    spare = max(1, cpu_cores() - sum(lane.threads for lane in lanes))
    assert len(seen) == 3 and set(seen) == {spare} and torch.get_num_threads() == before
