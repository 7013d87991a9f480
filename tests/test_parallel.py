"""13.3.0/13.3.1: expectations from the hardware, typed results, the one lane runner, and the pictures with their
one verdict line (display.parallel, lane_timeline, parallel_recorded)."""
import json
import statistics
import threading
from types import SimpleNamespace as NS

import pytest

from d2l_ext import UsageError
from d2l_ext.display import lane_timeline as dl
from d2l_ext.display import parallel as dp
from d2l_ext.i18n import using_language
from d2l_ext.lanes import fake_hardware, find_lanes, make_lane, pick_lanes
from d2l_ext.parallel import (
    expectation,
    measure_independence,
    measure_parallel,
    measure_small_ops,
    measure_sync_mistake,
    measure_timeline,
)
from d2l_ext.results import Times, within_share

GPU0, GPU1 = make_lane('torch', 'gpu', 0), make_lane('torch', 'gpu', 1)


def test_separate_hardware_expects_the_slower_lane():
    e = expectation([GPU0, GPU1], [1.0, 0.6], cores=2)
    assert e.rule == 'separate' and e.seconds == 1.0 and e.speedup == pytest.approx(1.6)


def test_one_core_expects_no_speedup():
    with fake_hardware(gpus=0, cores=1):
        lanes = find_lanes('torch')
    e = expectation(lanes, [0.5, 0.5], cores=1)
    assert e.rule == 'shared' and e.ways == 1 and e.speedup == pytest.approx(1.0)


def test_two_cores_one_thread_each_expect_two_at_once():
    with fake_hardware(gpus=0, cores=2):
        lanes = find_lanes('torch')
    assert expectation(lanes, [0.5, 0.5], cores=2).speedup == pytest.approx(2.0)


def test_mxnet_engine_expects_no_gain_on_cpu():
    lanes = [make_lane('mxnet', 'cpu', i, threads=1) for i in range(2)]
    e = expectation(lanes, [0.3, 0.3], cores=2)
    assert e.rule == 'engine' and e.speedup == pytest.approx(1.0)


def test_parallel_result_is_typed_checked_and_json():
    r = measure_parallel(pick_lanes('torch'), size=64, iters=3, repeats=2)
    assert r.iters == [3, 3] and len(r.lane_times) == 2 and len(r.together.times) == 2
    assert r.serial_sum == pytest.approx(statistics.median(map(sum, zip(*(m.times for m in r.lane_times)))))
    assert r.speedup == pytest.approx(r.serial_sum / r.together.median)
    assert r.max_rel_error < 1e-4 and r.expected <= r.serial_sum
    d = json.loads(json.dumps(r.to_json()))
    assert {'lanes', 'lane_times', 'serial_sum', 'together', 'expected', 'expected_speedup', 'expectation',
            'speedup', 'max_rel_error', 'machine'} <= set(d)
    assert len(r.to_frame()) == 5  # two lanes, the sum, together, the expectation


def test_too_long_is_refused_with_the_estimate():
    with pytest.raises(UsageError, match='would take about'):
        measure_parallel(pick_lanes('torch'), size=2000, iters=50, repeats=3, max_seconds=1)


def test_timeline_and_exercises_on_cpu():
    with fake_hardware(gpus=0):  # the CPU lanes' version, on a GPU machine too
        lanes = pick_lanes('torch')
    t = measure_timeline(lanes, size=64, iters=3)
    assert len(t.events) == 6 and {e['lane'] for e in t.events} == {lane['name'] for lane in t.lanes}
    assert all(e['role'].startswith('lane ') for e in t.events)
    ind = measure_independence(lanes, size=64, iters=3, repeats=1)
    assert set(ind.times) == {'one_at_a_time', 'issued_together'} and ind.threads == lanes[0].threads
    assert measure_independence(lanes, size=64, iters=3, repeats=1, threads=2).threads == 2  # the cell's, labelled
    assert ind.at_once == 1  # PyTorch computes each product before the call returns: the prediction, no gain
    small = measure_small_ops(lanes, size=16, iters=4, repeats=1)
    assert list(small.times) == ['one_thread', 'two_threads', 'batched', 'one_core'] and small.products == 8
    assert small.threads == lanes[0].threads  # each thread's share, as the lanes table labels it
    assert measure_sync_mistake(lanes).reason == 'parallel.sync.no_gpu'


def _timeline(spans, lanes=('lane A', 'lane B')):
    from d2l_ext.parallel import TimelineResult
    events = [{'lane': lane, 'name': f'mm {j}', 'start': a + j * (b - a) / 4, 'end': a + (j + 1) * (b - a) / 4}
              for lane, (a, b) in zip(lanes, spans) for j in range(4)]
    return TimelineResult('torch', 64, [4, 4], _ids(*lanes), events, 'thread clock')


def _ids(*names):
    """Lane dicts as a result stores them (ids only); a name no lane id matches is its own label."""
    return [dict(framework='torch', name=n, kind='cpu', index=i) for i, n in enumerate(names)]


def test_timeline_rows_survive_a_language_switch():
    """A timeline broke when the lanes were named in one language and the timeline drawn in another."""
    tl = _timeline([(0.0, 1.0), (0.0, 0.5)], lanes=('CPU计算资源0', 'CPU计算资源1'))
    with using_language('en'):
        fig = dl.plot_timeline(tl)
    assert [x.get_text() for x in fig.axes[0].get_yticklabels()] == [
        'CPU计算资源0: 4 products', 'CPU计算资源1: 4 products']
    with using_language('en'):
        fig = dl.plot_timeline(_timeline([(0.0, 1.27), (0.0, 0.4)]))
    assert [x.get_text().split(':')[0] for x in fig.axes[0].get_yticklabels()] == ['lane A', 'lane B']  # and counts


def test_sync_mistake_arms_wait_for_what_they_say():
    """Issue 23: the book's arm waits for the current device only, on purpose; the every-device arm names each GPU."""
    from types import SimpleNamespace as NS

    from d2l_ext.parallel.exercises import sync_waits
    calls = []
    torch = NS(cuda=NS(synchronize=lambda *args: calls.append(args), current_device=lambda: 7))
    waits = sync_waits([GPU0, GPU1, make_lane('torch', 'cpu', 0)], torch)
    waits['no_wait']()
    assert calls == []
    waits['book_synchronize']()
    assert calls == [(7,)]  # the current device only: the mistake shown
    calls.clear()
    waits['every_device']()
    assert calls == [(0,), (1,)]  # every GPU used, by index; the CPU lane needs no wait


def test_kept_together_keeps_each_repeat_and_draws_the_median_one():
    import torch

    from d2l_ext.backends.torch_backend import KeptTogether
    from d2l_ext.parallel.core import kept_timeline, median_index
    from d2l_ext.timing import compare
    with fake_hardware(gpus=0, cores=2):
        lanes = pick_lanes('torch')
    xs = [torch.rand(32, 32) for _ in lanes]
    run = KeptTogether(lanes, xs, [3, 2])
    cmp = compare({'together': run}, lanes=lanes, repeats=3)
    out = run()  # returns each lane's products, as run_on_lanes
    assert [len(ys) for ys in out] == [3, 2] and torch.allclose(out[0][0], xs[0] @ xs[0])
    times = [0.3, 0.1, 0.2]  # the median is the third repeat
    assert median_index(times) == 2 and median_index([0.1, 0.4, 0.2, 0.3]) in (2, 3)
    tl = kept_timeline(run, cmp['together'].times, 'torch', 32, 'thread clock')
    assert len(tl.events) == 5 and {e['lane'] for e in tl.events} == {lane.name for lane in lanes}
    assert all(0 <= e['start'] <= e['end'] for e in tl.events) and all(e['role'].startswith('lane ') for e in tl.events)
    assert len(run.calls) == 1 + 3 + 1  # warm-up, repeats, the call above


def test_measure_parallel_times_the_all_cores_baseline_for_shared_lanes_only_as_before():
    from d2l_ext.parallel import measure_parallel
    with fake_hardware(gpus=0, cores=2):
        lanes = pick_lanes('torch')
    r = measure_parallel(lanes, size=32, iters=2, repeats=1, baseline=True)
    assert r.baseline is not None and r.baseline_lane is None and r.baseline_cores >= 1
    assert statistics.median(r.baseline.repeated()) > 0


# -- the one lane runner (issue 34) ------------------------------------------------------------------------------

def test_one_lane_runner_everywhere():
    """The worked solution, the backend's run_on_lanes and KeptTogether all run parallel.together.run_together."""
    import inspect

    from d2l_ext.backends import torch_backend
    from d2l_ext.parallel import together
    assert together.run_together is torch_backend.run_together
    assert 'run_together(' in inspect.getsource(torch_backend.run_on_lanes)
    assert list(inspect.signature(together.run_together).parameters) == ['lanes', 'works']  # the task's
    names = set(together.run_together.__code__.co_names)  # self-contained: the grader runs its source alone
    assert names <= {'torch', 'ThreadPoolExecutor', 'set_num_threads', 'enumerate', 'kind', 'submit', 'result',
                     'range', 'len', 'cuda', 'synchronize', 'index', 'threads', 'items', 'values', 'shutdown'}, names
    assert 'run_on_lanes(' in inspect.getsource(torch_backend.KeptTogether.__call__)
    assert not hasattr(torch_backend, 'on_lanes')


def test_the_mxnet_worker_loads_no_torch():
    """MXNet's worker imports the measurements, never PyTorch: with torch's OpenMP runtime loaded first, MXNet's engine
    ran exercise 1's products one at a time here (its two workers gained nothing)."""
    import subprocess
    import sys
    code = "import sys, d2l_ext.parallel.exercises, d2l_ext.parallel.core; print('torch' in sys.modules)"
    assert subprocess.run([sys.executable, '-c', code], capture_output=True, text=True).stdout.strip() == 'False'


def test_run_together_runs_cpu_lanes_at_once_each_with_its_threads_and_returns_in_order():
    import torch

    from d2l_ext.parallel.together import run_together
    lanes = [make_lane('torch', 'cpu', i, threads=1) for i in range(2)]
    both = threading.Barrier(2, timeout=10)  # passes only while both lanes run at the same time

    def work(i):
        both.wait()
        return i, torch.get_num_threads(), threading.get_ident()
    for _ in range(2):
        (i0, n0, t0), (i1, n1, t1) = run_together(lanes, [lambda i=i: work(i) for i in range(2)])
        assert (i0, i1) == (0, 1) and n0 == n1 == 1 and t0 != t1 and threading.get_ident() not in (t0, t1)


def test_run_together_raises_only_once_every_cpu_lane_finished():
    from d2l_ext.parallel.together import run_together
    gpu, cpu = make_lane('torch', 'gpu', 0), make_lane('torch', 'cpu', 0, threads=1, name='cpu')
    finished = threading.Event()

    def fails():
        raise RuntimeError('queue full')
    with pytest.raises(RuntimeError, match='queue full'):
        run_together([gpu, cpu], [fails, lambda: (__import__('time').sleep(0.05), finished.set())])
    assert finished.is_set()


# -- pictures and their one line ----------------------------------------------------------------------------------

def _result(together=(0.10, 0.11, 0.105), baseline=(0.2, 0.21, 0.205), baseline_lane=None):
    lanes = [dict(make_lane('torch', 'cpu', i, threads=1).as_dict(), iters=4) for i in range(2)]
    return NS(framework='torch', lanes=lanes, lane_times=[Times.from_times([0.1, 0.1, 0.1], 'a'),
                                                           Times.from_times([0.1, 0.12, 0.11], 'b')],
              together=Times.from_times(together, 'together'), baseline=Times.from_times(baseline, 'base'),
              baseline_lane=baseline_lane, baseline_cores=2, expected=0.11, serial_sum=0.21)


def test_plot_parallel_draws_the_prediction_and_the_guess():
    fig = dp.plot_parallel(_result(), guess=0.15)  # two lanes, together, one device doing both (no sum row)
    assert fig.axes and len(fig.axes[0].get_yticklabels()) == 4


def test_plot_parallel_draws_the_printed_prediction_and_the_line_s_baseline():
    import matplotlib.patches as mp
    fig = dp.plot_parallel(_result(), predicted=0.105)  # 13.3.0: the sum of the lanes alone / the printed speedup
    bars = [p for p in fig.axes[0].patches if isinstance(p, mp.Rectangle) and p.get_hatch()]
    assert [round(b.get_width(), 3) for b in bars] == [0.105]
    no_base = _result()
    no_base.baseline = None  # MXNet: no baseline row, and no sum of the two alone in its place
    with using_language('en'):
        labels = [t.get_text().split('\n')[0] for t in dp.plot_parallel(no_base).axes[0].get_yticklabels()]
        assert labels == ['CPU lane 0', 'CPU lane 1', 'both lanes together']


def test_lane_rows_measure_what_the_lesson_compares_with_the_control_and_print_one_verdict(capsys):
    import torch

    from d2l_ext.parallel import lane_rows
    from d2l_ext.parallel.together import run_together
    with fake_hardware(gpus=0, cores=2):
        lanes = pick_lanes('torch')
    xs = [torch.rand(16, 16) for _ in lanes]
    refs = [x.double() @ x.double() for x in xs]
    with using_language('en'):
        rows = lane_rows(run_together, lanes, xs, [2, 3], refs, repeats=2)
        assert rows.names[2:] == ['both lanes together', 'CPU (2 cores), both jobs',  # no 'one after the other'
                                  'CPU (1 of 2 cores), both jobs']  # the control: the baseline's job on one thread
        assert len(rows.alone) == 2 and rows.iters == [2, 3] and rows.control.threads == 1
        assert dp.alone_line(rows).startswith('Each lane alone, median of 2: CPU lane 0 ')  # before my_guess
        assert ', 3 products ' in dp.alone_line(rows) and '; CPU lane 1 ' in dp.alone_line(rows)
        rows.busy = 0.0  # nobody else busy: the verdict line, no 'cannot measure here'
        fig = dp.plot_lanes_run(rows)
        assert capsys.readouterr().out.splitlines()[0].startswith('together ')  # no guess: the verdict line only
        labels = [x.get_text() for x in fig.axes[0].get_yticklabels()]
        assert not any('a product' in label for label in labels)  # rows by what ran, not a time a product
        assert labels[3].split('\n')[0].startswith('baseline: ') and len(labels) == 5
        assert labels[4].split('\n')[0] == 'control: CPU (1 of 2 cores), both jobs'
        bars = sorted(b.get_width() for b in fig.axes[0].patches if b.get_hatch())  # the baseline is not predicted
        assert bars == pytest.approx([max(rows.alone)])  # together only: the baseline is measured, not modelled
        dp.plot_lanes_run(rows, 0.5)
        assert capsys.readouterr().out.splitlines()[0].startswith('your guess 0.500 s · predicted ')


def test_the_lanes_answer_gives_together_vs_the_model_and_guess_then_the_baseline_and_the_bound():
    from d2l_ext.parallel.together import LaneRows
    from d2l_ext.results import Measurement
    cmp = {name: Measurement(name, [v] * 3) for name, v in zip('abcde', (0.1, 0.11, 0.104, 0.112, 0.2))}
    with fake_hardware(gpus=0, cores=2):
        lanes = pick_lanes('torch')
    rows = LaneRows(cmp, lanes, [10, 10], lanes[0], control=lanes[0], busy=0.0)
    with using_language('en'):
        assert dp.lanes_answer(rows, 0.12) == (  # first together vs max(t1, t2) in % (no rule: no boxes), the guess
            'Worked answer: together 0.104 s: 5.5% below the floor max(t1, t2) 0.110 s. your guess 0.120 s · '
            'predicted 0.110 s · measured 0.104 s. Against the baseline: faster (7.1% less time). r = control '
            '0.200 s / baseline 0.112 s = 1.79: at most 1 − 1.79/2 = 11% saved.')  # on CPU lanes the bound, from r
        rows.cmp['e'] = Measurement('e', [0.25] * 3)  # r > 2: the bound says together must lose
        assert dp.lanes_answer(rows).endswith('1 − 2.23/2 = −12% saved.')
        rows.control = None  # a GPU first lane: no control row, no bound
        assert dp.lanes_answer(rows).endswith('Against the baseline: faster (7.1% less time).')
        assert 'control' not in dp.lanes_answer(rows) and dp.lanes_answer(rows).count('. ') == 1
        rows.busy = 0.9
        assert 'cannot measure here' in dp.lanes_answer(rows)


def _ways(one, together, engine='eager', framework='torch', at_once=1):
    return NS(framework=framework, engine=engine, iters=10, size=8, at_once=at_once, area='parallel', busy=0.0,
              threads=1, times={'one_at_a_time': Times.from_times(one, 'a'),
                                'issued_together': Times.from_times(together, 'b')})


def test_exercise_1_prints_only_the_guess_and_answers_with_the_control(capsys):
    torch = _ways([0.25, 0.26, 0.25], [0.2] * 3)  # faster by the rule, and no control says why: not printed
    mx, naive = _ways([0.4] * 3, [0.2] * 3, 'E', 'mxnet', 2), _ways([0.4] * 3, [0.41] * 3, 'NaiveEngine', 'mxnet')
    mx.workers = 2  # its engine's setting: a worker per core
    with using_language('en'):
        ax = dp.plot_independence([torch, mx, naive], 1.5).axes[0]
        assert capsys.readouterr().out == 'your guess 1.50x · predicted 2.00x · measured 2.00x\n'  # MXNet's engine
        dp.plot_independence([torch, mx, naive])
        assert capsys.readouterr().out == ''  # no guess: nothing printed, the verdict is the worked answer's
        assert dp.independence_answer([torch, mx, naive]).splitlines() == [  # a verdict a line, the question's last
            'Control (NaiveEngine): together 410 ms vs one at a time 400 ms: no clear difference (medians within 5%).',
            'Worked answer: PyTorch: yes: 1.25x as fast as one at a time (200 ms vs 250 ms): faster. MXNet: yes: 2.00x '
            'as fast as one at a time (200 ms vs 400 ms): faster. PyTorch (threads per product: 1) one at a time vs '
            'MXNet together (250 ms vs 200 ms): slower.']  # each framework's own answer, then across
        assert dp.independence_answer([_ways([0.2] * 3, [0.2] * 3), mx, naive]).endswith(  # no cause, the setup fact
            'PyTorch (threads per product: 1) one at a time vs MXNet together (200 ms vs 200 ms): no clear '
            'difference (medians within 5%).')
        assert 'its control too: unclear.' in dp.independence_answer([torch, mx, mx])  # no "yes" here
        assert 'MXNet: no: ' in dp.independence_answer([torch, naive, naive])
        torch.busy = 0.9  # others kept the cores busy (sampled once, kept on the first run): no verdict, no answer
        assert dp.independence_answer([torch, mx, naive]).startswith(
            'Worked answer: issued together vs one at a time: cannot measure here')
        assert dp.independence_answer([_ways([0.25] * 3, [0.2] * 3)]) == (  # no MXNet: PyTorch's, measured alike
            'Worked answer: PyTorch: yes: 1.25x as fast as one at a time (200 ms vs 250 ms): faster.')
    assert len(ax.get_yticklabels()) == 6 and len(ax.collections) >= 6  # two rows a run; every repeat drawn
    assert 'estimate: one at a time ÷ engine threads' in [
        x.get_text() for x in ax.get_legend().texts]
    labels = [x.get_text().split('\n')[0] for x in ax.get_yticklabels()]
    assert 'PyTorch: one at a time (wait after each)' in labels  # a row's name on one line, its median below
    assert 'MXNet NaiveEngine: issued together (one wait)' in labels
    assert ax.get_title(loc='left').split('\n')[1] == ('PyTorch (threads per product: 1); MXNet (engine threads: 2)'
                                                        )  # threads said once; NaiveEngine's rows name it


def test_exercise_2_judges_two_threads_against_one_thread_in_one_format(capsys):
    small = NS(kind='cpu', size=64, products=800, device='cpu', area='parallel', busy=0.0, threads=1, cores=2, times={
        'one_thread': Times.from_times([0.02] * 3, 'a'), 'two_threads': Times.from_times([0.01] * 3, 'b'),
        'batched': Times.from_times([0.004] * 3, 'c'), 'one_core': Times.from_times([0.0201] * 3, 'e')})
    gpu = NS(kind='gpu', cores=16, products=800, times={'one_lane': Times.from_times([0.02] * 3, 'a'),
                                          'two_streams': Times.from_times([0.0201] * 3, 'b'),
                                          'batched': Times.from_times([0.004] * 3, 'c'),
                                          'cuda_graph': Times.from_times([0.003] * 3, 'd')})
    with using_language('en'):
        assert dp.small_ops_answer(small) == (  # the question first, the control by the rule, r by medians, the bound
            'Worked answer: two lanes together, 1 of 2 cores each 10.0 ms vs baseline: one thread, whole CPU (2 cores) '
            '20.0 ms: faster (50% less time). Whole CPU (20.0 ms) vs one core (20.1 ms): no clear difference (medians '
            'within 5%). r = control 20.1 ms / baseline 20.0 ms = 1.00: at most 1 − 1.00/2 = 50% saved; measured 50%. '
            'torch.bmm 4.00 ms vs the baseline: faster (80% less time).')  # one unit form: shares, as the bound's
        small.times['one_core'] = Times.from_times([0.04] * 3, 'e')  # the second core gained: the bound from r
        assert 'Whole CPU (20.0 ms) vs one core (40.0 ms): faster (50% less time). r = ' in dp.small_ops_answer(small)
        small.times['one_core'] = Times.from_times([0.01] * 3, 'e')  # slower than one core: what the control tests
        assert 'vs one core (10.0 ms): slower (100% more time). r = control 10.0 ms / baseline 20.0 ms = 0.50: at ' \
               'most 1 − 0.50/2 = 75% saved; measured 50%.' in dp.small_ops_answer(small)  # the main section's bound
        small.busy = 0.9  # others kept the cores busy: the graders' line, no verdict
        assert dp.small_ops_answer(small).startswith('Worked answer: two lanes vs the baseline: cannot measure')
        gpu.busy = 0.9  # a GPU's rows do not wait for CPU cores
        assert dp.small_ops_answer(gpu) == (
            'Worked answer: two CUDA streams, one GPU 20.1 ms vs baseline: one thread, whole device '
            '20.0 ms: no clear difference (medians within 5%). torch.bmm 4.00 ms vs the baseline: faster '
            '(80% less time).')
        small.busy = 0.0
        assert dp.small_ops_baseline(small) == 'baseline: 20.0 ms'  # printed before the guess, in the figure's unit
        fig = dp.plot_small_ops(small, 10)  # the guess in ms, drawn on the two lanes' row
        assert capsys.readouterr().out == 'your guess 10.0 ms · predicted 20.0 ms · measured 10.0 ms\n'
        names = [x.get_text().split('\n')[0] for x in fig.axes[0].get_yticklabels()]
    assert names == ['baseline: one thread, whole CPU (2 cores)', 'two lanes together, 1 of 2 cores each',  # same cores
                     'one torch.bmm, 2 cores', 'control: 1 core']  # torch.bmm's cores said; the control last
    assert 'estimate: baseline, whole device busy' in [
        x.get_text() for x in fig.axes[0].get_legend().texts]
    bars = [round(b.get_width(), 4) for b in fig.axes[0].patches if b.get_hatch()]
    assert bars == [20.0]  # hatched: the model, two lanes take the baseline's time (one thread fills both cores)


def test_the_recording_draws_and_says_its_verdicts():
    from d2l_ext.display.parallel_recorded import (
        plot_recorded_sync,
        recorded_alone,
        recorded_answer,
        recorded_figure,
        recorded_lines,
        recorded_sync_line,
    )
    from d2l_ext.recorded import newest
    rec = newest()
    if rec is None:
        pytest.skip('no recording shipped')
    with using_language('en'):
        # what the learner predicts from, then the guess checked and ONE verdict line: together vs the baseline
        assert recorded_alone(rec) == ('Recorded on NVIDIA H200, each lane alone: GPU 0 (NVIDIA H200), 1440 products '
                                       '0.499 s; CPU (15 of 16 cores), 26 products 0.416 s')  # no time a product
        # the one guess: the share of the baseline's time saved (0.1 or 10 for 10%), against the model's and measured
        assert recorded_lines(rec, 0.1) == recorded_lines(rec, 10) == (
            'time saved: your guess 10.0% · predicted 1.8% · measured 0.8%')  # the verdict: the worked answer's
        assert recorded_lines(rec) == ''  # no guess: nothing printed
        assert recorded_sync_line(rec) == 'No wait: 1.25 ms; waiting for every device: 131 ms.'
        ax = plot_recorded_sync(rec).axes[0]  # what ran, in the title; no verdict there, so no grey box
        assert ax.get_title(loc='left') == 'Recorded on NVIDIA H200, 2026-12-04: 50 products of 4000 × 4000'
        assert 'grey box: middle half of the repeats' not in [x.get_text() for x in ax.get_legend().texts]
        assert recorded_answer(rec) == (  # what the CPU can take off the GPU at most, then what together saved
            "Worked answer: the CPU takes 26 of 1466 products: at most 26/1466 = 1.8% of the baseline, under "
            "the rule's 5%. Together (0.504 s) saved 0.8% of the baseline (0.508 s): no clear difference "
            '(medians within 5%).')
        fig = recorded_figure(rec, 0.1)
        labels = [x.get_text().rsplit('\n', 1)[0] for x in fig.axes[0].get_yticklabels()]
        assert labels[0].endswith(' alone: 1440 products') and labels[2] == 'both lanes together', labels  # no sum row
        assert labels[-1] == 'baseline: GPU 0 (NVIDIA H200)\n1440 + 26 products', labels
        # hatched: the baseline at the GPU's pace and together at the longer job; the guess a diamond on together's
        # row, at the baseline's median less the guessed share
        bars = sorted(round(b.get_width(), 3) for b in fig.axes[0].patches if b.get_hatch())
        assert bars == [0.499, 0.508] and len(fig.axes[0].collections) > 5
        from matplotlib.collections import PathCollection
        diamonds = [c.get_offsets()[0] for c in fig.axes[0].collections if isinstance(c, PathCollection)
                    and len(c.get_sizes()) and c.get_sizes()[0] == 140]
        assert [round(x, 3) for x, _ in diamonds] == [round(rec.parallel[0].baseline.median * 0.9, 3)]
        assert round(diamonds[0][1]) == 2  # together's row (the third)
        # the rule's 5% drawn around the baseline's median, the grey boxes the text names in the legend, and the
        # timeline on the repeats' time axis (its unit: ms)
        legend = [x.get_text() for x in fig.axes[0].get_legend().texts]
        assert "baseline's median ±5%:\nno clear difference" in legend and fig.axes[0].get_xlim()[1] < 0.9
        assert len(fig.axes) == 2  # the repeats and one run: no panel for the sum (not a baseline: Pitfalls)
        from matplotlib.collections import PolyCollection  # the band's edges: where the rule's 5% half flips
        xs = [c.get_paths()[0].vertices[:, 0] for c in fig.axes[0].collections if isinstance(c, PolyCollection)]
        (lo, hi), b = (min(xs[-1]), max(xs[-1])), rec.parallel[0].baseline.median  # drawn last, over the boxes
        assert [within_share(x, b) for x in (lo * .999, lo * 1.001, hi * .999, hi * 1.001)] == [
            False, True, True, False]
        assert 'grey box: middle half of the repeats' in legend
        assert fig.axes[1].get_xlim() == pytest.approx([v * 1e3 for v in fig.axes[0].get_xlim()])
        assert fig.axes[1].get_xlabel() == fig.axes[0].get_xlabel() == 'time (s)'
    assert recorded_figure(None) is None and recorded_answer(None) == recorded_lines(None) == recorded_alone(None)


def test_the_lanes_table_has_a_row_per_lane():
    lanes = [make_lane('torch', 'cpu', i, threads=1) for i in range(2)]
    with using_language('en'):
        table = dp.lanes_table({'torch': lanes})
        assert list(table.frame.columns) == ['lane', 'hardware'] and repr(table).split()[:3] == ['lane', 'hardware',
                                                                                                '0']
        assert '<th>lane</th>' in table._repr_html_() and '<th></th>' not in table._repr_html_()  # no index column


def test_chinese_lines_put_no_space_after_chinese_punctuation():
    from d2l_ext.display.parallel_recorded import recorded_alone, recorded_answer, recorded_lines
    from d2l_ext.recorded import newest
    rec = newest()
    if rec is None:
        pytest.skip('no recording shipped')
    with using_language('zh'):  # i18n.t's spacing, where labels are filled in
        for text in (recorded_alone(rec), recorded_lines(rec, 0.1), recorded_answer(rec)):
            assert not any(p + ' ' in text for p in '）：，；。'), text


def test_the_lanes_table_is_the_same_html_every_run():
    from d2l_ext.display.parallel import lanes_table
    from d2l_ext.workers import lanes_for
    shown = [lanes_table(lanes_for(['torch'])) for _ in range(2)]
    assert shown[0]._repr_html_() == shown[1]._repr_html_()  # nbval compares both with the committed output
    assert repr(shown[0]) == repr(shown[1]) and 'at 0x' not in repr(shown[0])
