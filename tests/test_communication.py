"""13.3.2: the measurements on CPU lanes (a labelled analogue, every repeat), the one run-and-copy, and the lines and
figures the lesson prints and draws, as golden outputs from small results and the newest GPU recording."""
import json
import os
import queue
from types import SimpleNamespace
from unittest import mock

import pytest

from d2l_ext.communication import (
    expected_overlap,
    measure_comm,
    measure_comm_timelines,
    measure_exercise_three,
    measure_first_copy,
)
from d2l_ext.display import communication as show
from d2l_ext.i18n import using_language
from d2l_ext.lanes import fake_hardware, pick_lanes
from d2l_ext.recorded import load_recordings, newest
from d2l_ext.results import Measurement
from d2l_ext.timing import Comparison


def cpu_lanes():
    """This file tests the CPU analogue: pick CPU lanes on a GPU machine too."""
    with fake_hardware(gpus=0):
        return pick_lanes('torch')


@pytest.fixture(scope='module')
def rec():
    return newest(load_recordings())


# -- the closed forms ---------------------------------------------------------------------------------

def test_expectation_rules():
    from d2l_ext.communication import copy_thread_rule
    assert expected_overlap(1.0, 0.5, 'separate') == 1.0
    # ten products, each copied once done: the shorter of one product and one copy fills or drains the pipeline
    assert expected_overlap(1.0, 0.5, 'separate', iters=10) == pytest.approx(1.05)
    assert expected_overlap(0.5, 1.0, 'separate', iters=10) == pytest.approx(1.05)
    assert expected_overlap(1.0, 0.5, 'one_stream') == 1.5 and expected_overlap(1.0, 0.5, 'engine') == 1.5
    assert copy_thread_rule(1, cores=2) == 'own_core'
    assert copy_thread_rule(2, cores=2) == 'shared' and copy_thread_rule(1, cores=1) == 'shared'
    assert expected_overlap(1.0, 0.5, 'own_core', 1, iters=10, cores=2) == pytest.approx(1.05)
    assert expected_overlap(1.0, 0.5, 'shared', 2, iters=10, cores=2) == pytest.approx(1.25)  # (2 x 1 + 0.5) / 2
    assert expected_overlap(1.0, 0.5, 'shared', 1, cores=1) == pytest.approx(1.5)  # one core: run + copy
    assert expected_overlap(1.0, 0.5, 'thread', 2, cores=2) == expected_overlap(1.0, 0.5, 'shared', 2, cores=2)


# -- one run-and-copy per device kind (issue 34) -----------------------------------------------------

def test_every_cpu_caller_runs_the_one_run_and_copy(monkeypatch):
    import torch

    from d2l_ext.communication import copying
    calls = []
    real = copying.run_and_copy
    monkeypatch.setattr(copying, 'run_and_copy', lambda *a: calls.append(a) or real(*a))
    x = torch.rand(8, 8)
    copier = copying.Copier(None, 8, 3, 'cpu', threads=1)
    out = copier.run_and_copy(x, 3)
    assert len(calls) == 1 and all(torch.allclose(b, x @ x) for b in out)


def test_run_and_copy_fills_the_buffers_and_the_control_hands_off_without_copying():
    import torch

    from d2l_ext.communication import copying, tracing
    lane = cpu_lanes()[0]
    x, w = tracing.operands(lane)
    ref = tracing.reference(x, w)
    for fn in (lambda b: copying.run_and_copy(x, w, b, lane), lambda b: copying.in_order(x, w, b)):
        buffers = tracing.host_buffers(lane, 3)
        assert fn(buffers) is buffers and all(torch.allclose(b.double(), ref, rtol=1e-4) for b in buffers)
    # products alone frees each product once made, as run_and_copy once copied: the last is kept
    ys = copying.products(x, w, 3)
    assert len(ys) == 1 and torch.allclose(ys[0].double(), ref, rtol=1e-4)
    # the control: run_and_copy's thread and hand-offs, every product handed over, none copied
    seen, real = [], queue.Queue.put
    with mock.patch.object(queue.Queue, 'put', lambda q, item: seen.append(item) or real(q, item)):
        buffers = copying.handoffs(x, w, tracing.host_buffers(lane, 3), lane)
    assert len(seen) == 4 and seen[-1] is None and all(b.isnan().all() for b in buffers)
    ways = copying.ways(lane, copying.run_and_copy)  # the figure's rows, in its order
    assert list(ways.variants) == ['in_order', 'run', 'handoffs', 'overlapped']


@pytest.mark.skipif(not hasattr(os, 'sched_setaffinity') or len(os.sched_getaffinity(0)) < 2, reason='needs 2 cores')
def test_own_cores_puts_a_started_thread_on_the_next_core_and_restores():
    import threading

    from d2l_ext.communication import copying
    before, seen = sorted(os.sched_getaffinity(0)), {}
    lane = SimpleNamespace(kind='cpu', threads=1)

    def work():
        t = threading.Thread(target=lambda: seen.update(copy=os.sched_getaffinity(0)))
        t.start()
        t.join()
        seen['main'] = os.sched_getaffinity(0)
    copying.own_cores(work, lane)()
    assert seen == {'main': {before[0]}, 'copy': {before[1]}} and sorted(os.sched_getaffinity(0)) == before
    assert copying.own_cores(work, SimpleNamespace(kind='gpu', threads=0)) is work  # a GPU: as is


# -- the measurements on CPU lanes -------------------------------------------------------------------

def test_comm_on_cpu_is_a_labelled_analogue_with_its_rule():
    from d2l_ext.communication import copy_thread_rule
    lanes = cpu_lanes()
    r = measure_comm(lanes, size=64, iters=3, repeats=2)
    assert r.has_link is False and r.link_gbps is None
    (row,) = r.rows
    assert row.mode == 'cpu_analogue' and row.max_rel_error < 1e-4 and row.lane == lanes[0].name
    assert row.expectation == copy_thread_rule(lanes[0].threads)
    assert row.expected == pytest.approx(expected_overlap(row.run, row.copy, row.expectation, lanes[0].threads,
                                                          iters=3))
    assert set(row.times) == {'run', 'copy', 'run_then_copy', 'overlapped'}
    assert all(len(m.times) == 2 for m in row.times.values())
    d = json.loads(json.dumps(r.to_json()))
    assert {'run', 'copy', 'run_then_copy', 'overlapped', 'expected', 'copy_gbps'} <= set(d['rows'][0])
    assert len(r.to_frame()) == 1


def test_timelines_first_copy_and_exercise_three_on_cpu():
    lanes = cpu_lanes()
    from d2l_ext.communication import tracing
    (tl,) = measure_comm_timelines(lanes, size=64, iters=3)  # a CPU draws the timed task's thin products
    s = tracing.setting(lanes[0])
    assert tl.plan == 'cpu_analogue' and tl.lane == lanes[0].name and len(tl.events) == 2 * s.iters
    assert (tl.size, tl.inner) == (s.n, s.inner) and sorted({e['role'] for e in tl.events}) == ['compute', 'copy']
    assert measure_first_copy(lanes).reason == 'communication.first_copy.no_gpu'
    ex = measure_exercise_three(lanes, size=64, iters=2, repeats=1)
    assert set(ex.times) == {'lane1_compute_and_copy', 'lane2_compute', 'together', 'baseline'}  # checked, as each
    sums = [a + b for a, b in zip(ex.times['lane1_compute_and_copy'].times, ex.times['lane2_compute'].times)]
    assert ex.serial_sum == pytest.approx(__import__('statistics').median(sums))
    assert ex.lanes[0]['name'] == lanes[0].name  # ids, not a translated label


def test_exercise_three_with_more_threads_than_cores_records_them():
    with fake_hardware(gpus=0, cores=2):
        lanes = pick_lanes('torch')
        ex = measure_exercise_three(lanes, size=32, iters=1, repeats=1)
    assert ex.copy_threads == 1 and ex.lane_threads == [ln.threads for ln in lanes[:2]] and ex.cores == 2


def test_exercise_three_baseline_computes_on_every_core_and_copies_in_order(monkeypatch):
    # as 13.3.1's baseline: all the device's threads compute; lane 0's copies each follow their product, no copy thread
    import torch

    from d2l_ext.communication import copying
    seen, real = [], copying.in_order
    monkeypatch.setattr(copying, 'in_order', lambda *a: seen.append(torch.get_num_threads()) or real(*a))
    with fake_hardware(gpus=0, cores=2):
        lanes = pick_lanes('torch')
        measure_exercise_three(lanes, size=32, iters=1, repeats=1)
    assert seen and set(seen) == {2}  # every core computes; each copy in that same thread, after its product


def test_freed_memory_is_kept_for_the_next_product():
    import subprocess
    import sys
    if not sys.platform.startswith('linux'):
        pytest.skip('mallopt is glibc-only')
    # A fresh process: a test runner's own heap (other tests, their threads' arenas) must not decide it.
    code = """if True:
        import resource, sys, torch
        from d2l_ext.communication import tracing
        if not tracing.keep_freed_memory():
            print('no-mallopt'); sys.exit()
        def faults_for_products():
            before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            ys = [torch.ones(1000, 1000) for _ in range(10)]  # 10 results of 4 MB alive at once, as run then copy keeps
            del ys
            return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before
        faults_for_products()
        print(min(faults_for_products() for _ in range(3)))  # the least of three: other work may fault too
    """
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=120).stdout.split()
    if out[-1:] == ['no-mallopt']:
        pytest.skip('mallopt is glibc-only')
    assert int(out[-1]) < 1000  # 40 MB of fresh pages would be ~9,800 faults; kept memory is reused


def test_traced_run_on_a_cpu_reports_the_cores_it_kept_busy():
    from d2l_ext.communication import copying, tracing
    run = tracing.traced_run(copying.run_and_copy, cpu_lanes()[0])
    assert run['wall'] > 0 and 0 < run['cores'] <= (os.cpu_count() or 1) + 0.5  # CPU time / wall clock
    assert {e['role'] for e in run['events']} == {'compute', 'copy'}


# -- what the lesson prints: one line per measuring cell (golden outputs) -----------------------------

def _comparison(**times):
    return Comparison({k: Measurement(k, v) for k, v in times.items()})


def test_measured_lines_and_worked_answer_use_measured_rows_only():
    c = _comparison(in_order=[0.0094, 0.0095, 0.0096, 0.0097], run=[0.005, 0.0051, 0.0052, 0.0053],
                    handoffs=[0.0060, 0.0061, 0.0062, 0.0063], overlapped=[0.0061, 0.0062, 0.0063, 0.0064])
    with using_language('en'):
        # the guess's two rows before it: products alone and in order
        assert show.rates_text(c) == 'products alone 5.15 ms; in order 9.55 ms'
        # the one verdict line: against the baseline, in order, as measured
        assert show.measured_text(c) == 'run_and_copy 6.25 ms vs in order 9.55 ms: faster (35% less time)'
        # the worked answer: what the copies (in order - products alone) and the thread and hand-offs (control -
        # products alone) cost, as differences of medians, so what overlap can save at most; then the rule vs in order
        assert show.measured_answer(c) == (
            'Worked answer: the copies cost 4.40 ms (in order − products alone); the thread and hand-offs cost 1.00 ms '
            '(control − products alone): here overlap can save at most 3.40 ms. run_and_copy 6.25 ms vs in order '
            '9.55 ms: faster (35% less time).')
        slow = _comparison(**{**{k: m.times for k, m in c.measurements.items()}, 'handoffs': [0.0100, 0.0101],
                              'overlapped': [0.0120, 0.0122]})
        # a control costlier than the copies: nothing to save; the rule still judges run_and_copy against in order
        assert show.measured_answer(slow).endswith(
            'cost 4.90 ms (control − products alone): more than the copies: overlap cannot save time here. '
            'run_and_copy 12.1 ms vs in order 9.55 ms: slower (27% more time).')
        fig = show.plot_measured(c, guess=5.0, threads=1)  # ms, as printed
    assert [x.get_text().split('\n')[:2] for x in fig.axes[0].get_yticklabels()] == [  # each row's threads
        ['baseline: in order', 'threads: 1'], ['products alone', 'threads: 1'],
        ['control: thread, hand-offs, no copies', 'threads: 1 + copy'], ['run_and_copy', 'threads: 1 + copy']]
    # no model drawn: nothing hatched, no bound named
    assert not fig.axes[0].texts and not [p for p in fig.axes[0].patches if p.get_hatch() == '///']
    with using_language('zh'):
        assert show.measured_text(c) == '边计算边复制6.25毫秒，每次乘完就复制9.55毫秒：更快（执行时间少35%）'
        assert show.measured_answer(c) == (
            '参考答案：复制花了4.40毫秒（每次乘完就复制 − 只做乘法）；复制线程与交接花了1.00毫秒（对照 − 只做乘法）：'
            '在本机上重叠最多能省下3.40毫秒。边计算边复制6.25毫秒，每次乘完就复制9.55毫秒：更快（执行时间少35%）。')
        assert show.rates_text(c) == '只做乘法5.15毫秒；每次乘完就复制9.55毫秒'
        assert '交接花了4.90毫秒（对照 − 只做乘法）：比复制还多，所以重叠在本机上省不了时间。' in (
            show.measured_answer(slow))


def test_recorded_lines_come_from_the_recording(rec):
    rows = {r.mode: r for r in rec.comm[0].rows}
    side, same, book = rows[show.SIDE_PLAN], rows[show.SAME_PLAN], rows[show.BOOK_PLAN]
    ms = lambda v: show.verdict.num(v, 'ms')  # noqa: E731 (the lesson's unit)
    with using_language('en'):
        # what the learner predicts from: products alone, copies alone into pinned buffers, then the book's copies
        assert show.recorded_alone(rec) == (
            f"recorded on {rec.machine['gpus'][0]}, medians of {rec.comm[0].repeats} repeats: products alone "
            f"{ms(same.run)}, copies alone into pinned buffers {ms(same.copy)}\nthe book's copies: "
            f"copy_to_cpu(y) {ms(rows[show.BOOK_PAGEABLE].copy)}, copy_to_cpu(y, True) {ms(book.copy)}")
        assert 'copy_to_cpu(y) 2110 ms' in show.recorded_alone(rec)  # one unit for every copy time: ms
        # per way its total (guessed in ms, as the figure draws it): guessed, predicted, recorded; then the verdict
        one, two, line = show.recorded_lines(rec, (190, 135)).split('\n')
        assert one == (f'run then copy: your guess 190 ms · predicted {ms(book.expected)} · measured '
                       f'{ms(book.overlapped)}')
        assert two == (f'run_and_copy: your guess 135 ms · predicted {ms(side.expected)} · measured '
                       f'{ms(side.overlapped)}')
        assert line == show.verdict.line('run_and_copy', side.times['overlapped'], 'run then copy',
                                         book.times['overlapped'], 'ms')  # the baseline: run then copy, measured
        assert show.recorded_lines(rec) == line  # no guess: the verdict alone
        # the worked answer: each way's share hidden, with the times it comes from (one stream: the parts added)
        answer = show.recorded_answer(rec)
        base = book.times['overlapped']  # run then copy, measured; the parts added are a model: no rule for it
        assert answer.startswith('Worked answer: ' + show.verdict.vs_model(  # verdict's one wording for a model
            'run then copy', book.overlapped, 'products alone + copies alone', book.run + book.copy, 'ms') + '.')
        assert answer.startswith(f'Worked answer: run then copy {ms(book.overlapped)}: within 5% of products alone')
        assert f'vs run then copy {ms(book.overlapped)}, faster' in answer
        assert f"it hid {show.verdict.num(show.hidden_share(side, base), '%')} of the copy time." in answer
        assert 'hid' not in answer.split('. ')[0]  # run then copy, no clear difference: the verdict alone
        assert show.hidden_share(side, base) > 0.5
        assert show.hidden_share(side, base) == pytest.approx(min(1.0, (book.overlapped - side.overlapped) /
                                                                  side.copy))  # against run then copy, measured
        assert abs(side.expected - side.overlapped) < 0.1 * side.copy  # the model held
        assert show.recorded_alone(None) == 'No GPU recording here.'
    assert side.overlapped < same.overlapped  # the picture of the point: two streams beat one


def test_the_recorded_figure_puts_repeats_and_timelines_on_one_time_axis(rec):
    with using_language('en'):
        fig = show.plot_recorded(rec, (190, 135))
    repeats, *timelines = fig.axes[:3]
    rows = [x.get_text().split('\n')[0] for x in repeats.get_yticklabels()]
    # the book's, ours: one name per way in the figures, the lines and the prose
    assert rows == ['run then copy (copy_to_cpu(y, True))', 'run_and_copy (copy stream + events)']  # measured only
    assert [ax.get_title(loc='left').split(':')[0] for ax in timelines] == rows
    assert len({ax.get_xlim() for ax in fig.axes[:3]}) == 1 and rec.machine['gpus'][0] in fig._suptitle.get_text()
    # the diamonds are the guessed totals, on the figure's ms axis; the hatch says what it is
    legend = [tx.get_text() for tx in repeats.get_legend().get_texts()]
    assert 'estimate: from the times alone' in legend
    marks = [c for c in repeats.collections if hasattr(c, 'get_sizes') and list(c.get_sizes()) == [140]]
    diamonds = [x for c in marks for x, _ in c.get_offsets()]  # plot_repeats draws a guess 140 pt², one per way
    assert sorted(round(x) for x in diamonds) == [135, 190]
    assert show.plot_recorded(None) is None


def test_the_recorded_figure_shares_one_time_axis(rec):
    with using_language('en'):
        panels = show.plot_comm(rec.comm[0]).axes  # the CommPanel's figure
    assert len(panels) == len(rec.comm[0].rows) and len({ax.get_xlim() for ax in panels}) == 1
    # the hatch is an estimate from run and copy alone, named so
    legends = [[t.get_text() for t in ax.get_legend().get_texts()] for ax in panels]
    assert all('estimate: from the parts alone' in legend for legend in legends)


def test_the_pitfalls_numbers(rec):
    # the lesson's pitfalls say new and pageable memory made the recorded copies slower: held to the recording
    rows = {r.mode: r for r in rec.comm[0].rows}
    book, pinned = rows['book: copy_to_cpu(y)'], rows[show.SAME_PLAN]
    reused = rows.get('pageable, preallocated, same stream', pinned)
    assert book.copy > reused.copy >= pinned.copy


def test_hazard_and_copied_lines():
    import torch
    ys = [torch.ones(2)]
    ref = torch.ones(4, dtype=torch.float64)
    with using_language('en'):
        assert show.copied_text(ys, ys).endswith('y itself: nothing was copied.')
        assert show.copied_text(ys, [y.clone() for y in ys]).startswith('Copied')
        # what the host read before the wait: zeros (the copy had not happened), part of it, or already the result;
        # the wait named as it was shown: a GPU's synchronize(), a CPU stand-in's join()
        assert show.hazard_text(torch.zeros(4), torch.ones(4), ref) == (
            'read before synchronize(): all zeros (out not yet written); after: relative error 0.0e+00 vs float64')
        assert show.hazard_text(torch.tensor([1., 1., 0., 0.]), torch.ones(4), ref, gpu=False).startswith(
            'read before join(): relative error 0.71;')
        assert 'It landed first' in show.hazard_text(torch.ones(4), torch.ones(4), ref)
    with using_language('zh'):
        assert show.hazard_text(torch.zeros(4), torch.ones(4), ref, False).startswith(
            '在join()之前读取：全是0，out中还没有写入乘积')
        assert show.hazard_text(torch.zeros(4), torch.ones(4), ref, False).endswith(
            'join()之后：与float64结果的相对误差0.0e+00')


def _ex3(together, alone=(1.0, 0.8), rule='separate', baseline=(1.7, 1.71, 1.72)):
    from d2l_ext.communication import ExerciseThreeResult
    times = {'lane1_compute_and_copy': Measurement('a', [alone[0]] * 3),
             'lane2_compute': Measurement('b', [alone[1]] * 3), 'together': Measurement('t', together),
             'baseline': Measurement('base', list(baseline))}
    lanes = [dict(kind='cpu', index=i, threads=1) for i in range(2)]
    return ExerciseThreeResult(lanes, 64, [2, 2], times, sum(alone), max(alone), rule, 0.0, [1, 1], 1, 2)


def test_exercise_three_judges_together_against_the_floor_and_the_baseline():
    with using_language('en'):
        # the setup as the code made it is stated where the lanes run alone, beside their times and the baseline's
        assert show.exercise_three_alone_text(_ex3([1.4])) == (
            'threads on lane 0: 1 computing, 1 copying; lane 1: 1 computing (3 threads, 2 cores)\n'
            'alone (2 and 2 products of 64 × 64): t1 = 1000 ms (lane 0), t2 = 800 ms (lane 1); baseline 1710 ms')
        # the answer: together against the floor max(t1, t2) (no rule: it has no repeats), then the baseline by the rule
        assert show.exercise_three_text(_ex3([1.4, 1.41, 1.42])) == (
            'Worked answer: together 1410 ms: 41% above the floor max(t1, t2) 1000 ms; together 1410 ms vs the '
            'baseline 1710 ms: faster (18% less time).')
        assert show.exercise_three_text(_ex3([1.02, 1.03, 1.01])).startswith(
            'Worked answer: together 1020 ms: within 5% of the floor max(t1, t2) 1000 ms;')
        gpu = _ex3([1.4, 1.41, 1.42])
        gpu.lanes[0]['kind'] = 'gpu'
        assert show.exercise_three_alone_text(gpu).startswith('lane 0: the GPU and its copy engine; lane 1: the CPU\n')
        ax = show.plot_exercise_three(_ex3([1.4, 1.5]), guess=1200).axes[0]
        fast = _ex3([0.04, 0.041, 0.042], alone=(0.03, 0.02), baseline=(0.05,))  # ms: the lesson's one unit
        assert show.exercise_three_alone_text(fast).endswith('t1 = 30.0 ms (lane 0), t2 = 20.0 ms (lane 1); '
                                                              'baseline 50.0 ms')
        assert show.exercise_three_text(fast).startswith('Worked answer: together 41.0 ms: 37% above '
                                                         'the floor max(t1, t2) 30.0 ms')
    # under together, one hatched bar: the floor max(t1, t2), named in the legend; no t1 + t2; drawn in ms
    bars = sorted(p.get_width() for p in ax.patches if p.get_hatch() == '///')
    assert bars == pytest.approx([1000])
    assert 'the floor max(t1, t2)' in [tx.get_text() for tx in ax.get_legend().get_texts()]
    marks = [c for c in ax.collections if hasattr(c, 'get_sizes') and list(c.get_sizes()) == [140]]
    assert [x for c in marks for x, _ in c.get_offsets()] == pytest.approx([1200])  # the guess's diamond
    rows = [lb.get_text().split('\n')[0] for lb in ax.get_yticklabels()]
    assert rows == ['lane 0 alone: products + copies', 'lane 1 alone: products',
                    "baseline: CPU (2 threads): both jobs and lane 0's copies, in order",
                    'together']  # device, threads, lane 0's copies, order
    with using_language('zh'):
        assert show.exercise_three_text(_ex3([1.4, 1.41, 1.42])).startswith(
            '参考答案：同时运行1410毫秒，比下界max(t1, t2) 1000毫秒高41%；')


def test_touching_narrow_bars_are_parted_one_by_one(rec):
    # one stream: 50 copies back to back, each too narrow for an edge: 49 parting lines, so each copy is drawn
    from d2l_ext.display.communication_timelines import touching_starts
    book = next(tl for tl in rec.comm_timelines if tl.plan == show.BOOK_PLAN)
    copies = sum(e['role'] == 'copy' for e in book.events)
    parts = touching_starts([e for e in book.events if e['role'] == 'copy'], px_per_second=1000.0)
    assert len(parts) == copies - 1
    assert not touching_starts(book.events, px_per_second=1e6)  # wide enough for edges: nothing to part


def test_short_bars_with_room_are_drawn_wider_and_touching_ones_are_not():
    # a busy copy stream of short copies must look busy: each widened about its middle into the free time beside it
    from d2l_ext.display.communication_timelines import widened
    lone = [dict(lane='copy stream', start=1.0, end=1.1), dict(lane='copy stream', start=1.3, end=1.4)]
    ends = lambda events: [x for e in events for x in (e['start'], e['end'])]  # noqa: E731
    assert ends(widened(lone, 0.2)) == pytest.approx([0.95, 1.15, 1.25, 1.45])
    near = [dict(lane='c', start=0.0, end=0.1), dict(lane='c', start=0.15, end=0.2)]  # never over a neighbour
    assert ends(widened(near, 0.2)) == pytest.approx([0.0, 0.15, 0.1, 0.275])
    touching = [dict(lane='c', start=0.0, end=0.1), dict(lane='c', start=0.1, end=0.2)]  # the last one has room after
    assert ends(widened(touching, 0.2)) == pytest.approx([0.0, 0.1, 0.1, 0.25]) and widened(lone, 0.05) == lone


def test_profile_table_lists_each_way_and_the_answer_counts_the_copies():
    # exercise 4: which operators each profile lists and how often; run_and_copy's copies missing on a CPU
    mm, copy = (SimpleNamespace(key=k, self_cpu_time_total=v, count=20) for k, v in (('aten::mm', 5e3), ('aten::copy_',
                                                                                                          3e3)))
    tiny = SimpleNamespace(key='aten::resolve_conj', self_cpu_time_total=9.0, count=60)
    profs = {'overlapped': SimpleNamespace(key_averages=lambda: [mm, tiny]),
             'in_order': SimpleNamespace(key_averages=lambda: [mm, copy, tiny])}
    with using_language('en'):
        frame = show.profile_frame(profs, gpu=False)
        assert list(frame.columns) == ['operator', 'calls']  # no self time: one profiled call, not the timed
        assert frame.index.name == 'way'  # the way is the index: no stray 0, 1, 2
        assert list(frame.index) == ['run_and_copy', 'in order', 'in order'] and list(frame['calls']) == [20] * 3
        assert list(frame['operator']) == ['aten::mm', 'aten::mm', 'aten::copy_']  # under 1%: left out
        assert show.profile_answer(profs, False, 20, 20) == (
            "Worked answer: run_and_copy's profile lists 0 of 20 copies; in order's, 20 of 20. A CPU profile sees only "
            'its own thread. The H200 timeline shows when each copy ran. Your guess: 20.')
        assert 'A CPU profile' not in show.profile_answer(profs, True, 20)  # on a GPU it lists both: no cause to name
        # a GPU profile lists the copies of both: no cause to name
        both = {'overlapped': profs['in_order'], 'in_order': profs['in_order']}
        assert show.profile_answer(both, True, 20).startswith(
            "Worked answer: run_and_copy's profile lists 20 of 20 copies; in order's, 20 of 20.")
    with using_language('zh'):
        assert list(show.profile_frame(profs, gpu=False).reset_index().columns) == ['方式', '操作符', '调用次数']
        assert show.profile_answer(profs, False, 20).startswith('参考答案：边计算边复制的20次复制，分析器列出0次；')


def test_profile_frame_shortens_kernel_names():
    long = 'sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x16_stage4_warpsize2x2x1_tensor'
    prof = SimpleNamespace(key_averages=lambda: [SimpleNamespace(key=long, self_device_time_total=1e3)])
    with using_language('en'):
        name = list(show.profile_frame({'overlapped': prof}, gpu=True)['operator'])[0]
    assert len(name) <= 32 and name.startswith('sm80_xmma_gemm') and name.endswith('…')


# -- the recorded figures -----------------------------------------------------------------------------

def test_recorded_timeline_titles_give_their_one_run_time(rec):
    # the title names the way as the repeats' row does and gives this one run's time, to set beside the row's median
    tl = next(tl for tl in rec.comm_timelines if tl.plan == show.SIDE_PLAN)
    total = max(e['end'] for e in tl.events) - min(e['start'] for e in tl.events)
    with using_language('en'):
        from d2l_ext.display.communication_timelines import timeline_title
        assert timeline_title(tl) == f"run_and_copy (copy stream + events): one run, {show.verdict.num(total, 'ms')}"
        fig = show.plot_comm_timelines(rec.comm_timelines)
    assert len(fig.axes) == len(rec.comm_timelines)


def test_titles_fit_their_figure_in_both_languages(rec):
    # zh reader: titles must not run past the figure (nor be wrapped mid-phrase): drawn with the CJK font
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from d2l_ext.display.fonts import cjk_font
    if cjk_font() is None:
        pytest.skip('no CJK font here')
    for lang in ('zh', 'en'):
        with using_language(lang):
            figs = [show.plot_comm(rec.comm[0]),
                    show.plot_recorded(rec), show.plot_comm_timelines(rec.comm_timelines),
                    show.plot_exercise_three(_ex3([1.4]))]
            for fig in figs:
                renderer = FigureCanvasAgg(fig).get_renderer()
                fig.draw(renderer)
                texts = [tx for ax in fig.axes for tx in (ax.title, ax._left_title)]
                texts += [fig._suptitle] if fig._suptitle else []
                for text in texts:
                    if text.get_text():
                        box = text.get_window_extent(renderer)
                        assert '\n' not in text.get_text() and 0 <= box.x0 and box.x1 <= fig.bbox.width, text.get_text()


# -- the lesson's source ----------------------------------------------------------------------------------

SRC = os.path.join(os.path.dirname(__file__), '..', 'notebooks', 'src',
                   '13.3.2-Parallel-Computation-and-Communication.py')


def test_answers_are_hidden_and_the_guesses_carry_their_unit():
    import jupytext
    cells = jupytext.read(SRC).cells
    code = [c for c in cells if c.cell_type == 'code']
    profile = next(c for c in code if 'profile(activities=activities)' in c.source)
    # exercise 4: the copies guessed (a count) in the cell before; the open cell's table lists each way's operators
    assert 'my_guess_copies = None' in code[code.index(profile) - 1].source
    assert 'show.profile_frame(profs, GPU)' in profile.source and 'jupyter' not in profile.metadata
    for marker in ('print(show.measured_answer', 'print(show.recorded_answer', 'show.exercise_three_text(ex3)',
                   'print(show.profile_answer', '#@source d2l_ext.communication.copying.run_and_copy'):
        hidden = next(c for c in code if marker in c.source)
        assert hidden.metadata['jupyter'] == {'source_hidden': True, 'outputs_hidden': True}, marker
    guess = next(i for i, c in enumerate(code) if 'my_guess = None  # ms:' in c.source)  # the unit rates_text prints
    measured = next(i for i, c in enumerate(code) if 'show.measured_text' in c.source)
    assert '#zh: 毫秒' in code[guess].source and guess < measured  # the guess is written before the prediction shows
    assert 'show.plot_measured(measured, guess=my_guess' in code[measured].source
    # the GPU picture comes first and open: guessed (ms) before it shows, drawn before the ingredients and Build it
    recorded = next(i for i, c in enumerate(code) if 'show.plot_recorded(rec, my_guess)' in c.source)
    shares = next(i for i, c in enumerate(code) if 'my_guess = (None, None)  # ms, the total of each way' in c.source)
    task = next(i for i, c in enumerate(code) if "d2l_ext.check('13.3.2-copy'" in c.source)
    assert shares < recorded < task and 'jupyter' not in code[recorded].metadata
    # exercise 3: the guess (ms) written after the lanes alone print, before the open figure; the answer hidden
    alone = next(i for i, c in enumerate(code) if 'show.exercise_three_alone_text(ex3)' in c.source)
    ex3 = next(i for i, c in enumerate(code) if 'show.plot_exercise_three(ex3, my_guess)' in c.source)
    assert alone + 1 < ex3 and 'my_guess = None  # ms' in code[alone + 1].source and 'jupyter' not in code[ex3].metadata
    assert 'show.exercise_three_text(ex3)' in code[ex3 + 1].source


def test_the_lesson_worked_solution_is_the_package_run_and_copy():
    import sys

    sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'tools'))
    from build_notebooks import harvest

    from d2l_ext.communication import copying
    cell = '#@source d2l_ext.communication.copying.run_and_copy'
    assert cell in open(SRC, encoding='utf-8').read()
    assert 'def run_and_copy(x, w, buffers, lane):' in harvest(cell) and copying.run_and_copy.__name__ in harvest(cell)


def test_every_result_keeps_its_statistics_for_details(rec):
    ex = _ex3([1.4, 1.5, 1.6])
    with using_language('en'):
        table = ex.details().table
        assert {'median (s)', 'IQR (s)', 'every repeat (s)'} <= set(table.columns) and len(table) >= 3
        comm = rec.comm[0].details().table
    assert len(comm) == 4 * len(rec.comm[0].rows) and 'every repeat (s)' in comm.columns
    timeline = rec.comm_timelines[0]
    assert len(rec.first_copy.details().table) and len(timeline.details().table) == len(timeline.events)
