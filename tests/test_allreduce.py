"""13.3.4's engine on 2 gloo processes with a tiny MLP: correct results, faults, bad input (no timings asserted)."""
import copy
import inspect
import json
import linecache
import os
import signal
import socket

import psutil
import pytest

from d2l_ext.allreduce import ProcessFailed, make_plan, run_allreduce, steps
from d2l_ext.allreduce import plan as plan_module
from d2l_ext.allreduce.harness import tolerance
from d2l_ext.errors import ResultMismatch, UsageError

TINY = dict(layers=2, width=32, batch=4, repeats=1, warmup=1)


def spawned_children():
    """Processes torch.multiprocessing started from this one and that still exist."""
    return [p for p in psutil.Process().children(recursive=True)
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE and 'spawn_main' in ' '.join(p.cmdline())]


@pytest.fixture(scope='module')
def tiny_run(tmp_path_factory):
    # (d) as a notebook cell defines it: sent as source, its bucket_mb fixed by steps.as_step
    buckets = _notebook_function(inspect.getsource(steps.allreduce_in_buckets), 'allreduce_in_buckets')
    chosen = {**steps.STEPS, 'buckets': buckets, **steps.CONTROLS}  # and (b)'s and (d)'s controls, as the lesson
    return run_allreduce(world_size=2, bucket_mb=[0.001, 1], trace_dir=tmp_path_factory.mktemp('traces'),
                         steps=chosen, **TINY)


@pytest.mark.slow
def test_three_versions_match_one_process_on_the_whole_minibatch(tiny_run):
    r = tiny_run
    ids = [v.id for v in r.versions]
    assert ids == ['backward', 'allreduce', 'serial', 'flat', 'hooks', 'buckets', 'kept', 'buckets_kept', 'beside',
                   'ddp-0.001', 'ddp-1']
    labels = ('(b), buffer made once', '(d), buffers made once')
    assert (r.version('kept').label, r.version('buckets_kept').label) == labels
    assert r.tolerance == tolerance(2, 32)
    for v in r.versions:
        assert v.relative_error < r.tolerance, v
        assert len(v.times) == 1 and len(v.times[0]) == 2  # one repeat, two processes
    assert r.version('serial').checked_against == 'whole'
    assert r.prediction.ring_factor == 1.0 and r.prediction.gradient_bytes == 2 * (32 * 32 + 32) * 4
    d = r.to_dict()
    json.dumps(d)
    assert 'hidden_fraction' not in d and set(d['overlap']) == {'serial', 'flat', 'kept', 'hooks', 'buckets',
                                                                 'buckets_kept', 'beside', 'ddp-0.001', 'ddp-1'}
    assert all(os.path.exists(p) for paths in r.traces.values() for p in paths)
    roles = {e['role'] for e in r.events['hooks']}
    assert {'backward', 'allreduce', 'optimizer'} <= roles
    assert {(e['rank'], e['stream']) for e in r.events['hooks']} == {(0, 'compute'), (0, 'allreduce'),
                                                                     (1, 'compute'), (1, 'allreduce')}
    assert not spawned_children()


@pytest.mark.slow
def test_plots_show_every_repeat_and_each_process_timeline(tiny_run):
    from d2l_ext.display.allreduce import draw_step_timeline, plot_steps
    assert all(tiny_run.has(v) for v in ['serial', 'flat', 'hooks'])
    assert len(plot_steps(tiny_run).axes[0].collections) == 3 * (2 + 1)  # dots, middle, median: (a), (c), top
    fig = draw_step_timeline(tiny_run, 'ddp-1')
    assert [t.get_text().split(' (')[0] for t in fig.axes[0].get_yticklabels()] == [
        'process 0: compute', 'process 0: all-reduce', 'process 1: compute', 'process 1: all-reduce']
    with pytest.raises(UsageError, match='no timeline'):
        draw_step_timeline(tiny_run, 'nothing')
    roles = {vid: {e['name'] for e in tiny_run.events[vid] if e['role'] == 'copy'} for vid in ('serial', 'flat',
                                                                                           'kept', 'buckets')}
    assert not roles['serial'] and {'aten::cat', 'aten::copy_'} <= roles['flat'] & roles['buckets']  # (d)'s: in hooks
    assert 'aten::copy_' in roles['kept'] and 'aten::cat' not in roles['kept']  # (b)'s control: no new flat tensor


def _notebook_function(source: str, name: str):
    """A function as a notebook cell defines it: in __main__, its source known only to linecache."""
    filename = f'<cell {name}>'
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = {'__name__': '__main__'}
    exec(compile(source, filename, 'exec'), namespace)
    return namespace[name]


FORGETS_TO_AVERAGE = """
def summed(model, X, y, optimizer):
    optimizer.zero_grad()
    loss_of(model, X, y).backward()
    for p in model.parameters():
        dist.all_reduce(p.grad)
    optimizer.step()
"""


@pytest.mark.slow
def test_a_step_from_a_notebook_cell_runs_as_shown_and_a_wrong_one_stops_the_run():
    summed = _notebook_function(FORGETS_TO_AVERAGE, 'summed')
    assert make_plan(steps={'summed': summed}, **TINY).steps['summed'][0] == 'source'
    with pytest.raises(ResultMismatch, match='summed, process .: wrong gradient, relative error 1.00e'):
        run_allreduce(world_size=2, steps={'summed': summed}, **TINY)
    assert not spawned_children()


def _run_and_hurt(how, **options):
    def progress(msg):
        if msg['rank'] == 1 and msg['phase'] == 'repeat':
            how(msg['pid'])
    return run_allreduce(world_size=2, progress=progress, **{**TINY, 'repeats': 3, **options})


def _interrupt(pid):
    raise KeyboardInterrupt


@pytest.mark.slow
@pytest.mark.parametrize('how, raised, options', [
    (lambda pid: os.kill(pid, signal.SIGKILL), pytest.raises(ProcessFailed, match='process 1 ended unexpectedly'), {}),
    (lambda pid: os.kill(pid, signal.SIGSTOP), pytest.raises(ProcessFailed, match='process 1 was stopped'),
     {'timeout': 3}),
    (_interrupt, pytest.raises(KeyboardInterrupt), {})], ids=['killed', 'stopped', 'interrupted'])
def test_a_killed_or_stopped_process_or_an_interrupt_ends_the_run_named_and_no_orphans(how, raised, options):
    with raised:
        _run_and_hurt(how, **options)
    assert not spawned_children()


@pytest.mark.parametrize('kwargs, words', [
    (dict(world_size=1), 'from 2 to 2'),
    (dict(world_size=3), 'from 2 to 2'),
    (dict(world_size='two'), 'whole number'),
    (dict(backend='nccl'), "use 'gloo'"),
    (dict(backend='mpi'), "use 'gloo'"),
    (dict(bucket_mb=0), 'above 0'),
    (dict(bucket_mb='1,-4'), 'above 0'),
    (dict(bucket_mb='big'), 'above 0'),
    (dict(repeats=0), 'at least 1'),
    (dict(port=70000), 'from 1024 to 65535'),
    (dict(timeout=0), 'from 1 to 3600'),
])
def test_bad_input_says_what_to_change(monkeypatch, kwargs, words):
    monkeypatch.setattr(plan_module, 'cpu_cores', lambda: 2)
    with pytest.raises(UsageError, match=words):
        make_plan(**kwargs)


def test_a_busy_port_is_refused():
    with socket.socket() as s:
        s.bind(('127.0.0.1', 0))
        s.listen()
        with pytest.raises(UsageError, match='in use'):
            make_plan(port=s.getsockname()[1])


def test_the_cli_names_gloo_for_nccl_in_one_line(capsys):
    from d2l_ext.allreduce.cli import main
    with pytest.raises(SystemExit) as e:
        main(['--backend', 'nccl'])
    err = capsys.readouterr().err
    assert e.value.code == 2 and err.count('\n') == 1 and "'nccl'" in err and 'gloo' in err


def test_cli_bad_input_is_one_line_and_exit_code_2(capsys):
    from d2l_ext.allreduce.cli import main
    assert main(['--bucket-mb', '-1']) == 2
    err = capsys.readouterr().err
    assert err.count('\n') == 1 and 'above 0' in err and 'Traceback' not in err


@pytest.mark.slow
def test_overlap_comes_from_the_profiled_intervals_and_calls_are_counted(tiny_run):
    r = tiny_run
    # one call per gradient tensor for (a), one for flat; DDP: 2 buckets of one layer each, then one bucket
    assert [r.version(v).calls for v in ('serial', 'flat', 'ddp-0.001', 'ddp-1')] == [4, 1, 2, 1]
    assert [r.predicted(v)['calls'] for v in ('serial', 'flat', 'ddp-0.001', 'ddp-1')] == [4, 1, 2, 1]
    for v in r.versions:
        assert v.overlap is None or 0.0 <= v.overlap <= 1.0
        if v.id not in ('backward', 'allreduce'):
            assert 0.0 <= r.predicted(v.id)['overlap'] <= 1.0
    assert r.version('backward').overlap is None  # sent nothing
    assert r.predicted('serial')['overlap'] == 0.0 and r.predicted('flat')['overlap'] == 0.0
    assert r.one_bucket(r.version('ddp-1')) and not r.one_bucket(r.version('ddp-0.001'))
    assert r.predicted('ddp-1')['overlap'] == 0.0  # one bucket: starts when backward ends
    p = r.prediction
    assert p.per_call >= 0 and p.bus_bandwidth > 0 and p.tensor_bytes == [128, 4096, 128, 4096]
    assert r.version('buckets').calls == r.predicted('buckets')['calls'] == 1  # 1 MiB holds this tiny model


@pytest.mark.slow
def test_no_trace_folder_means_no_trace_files_but_the_overlap_is_still_measured():
    r = run_allreduce(world_size=2, bucket_mb=1, steps={}, **TINY)
    assert r.traces == {} and r.version('ddp-1').stats and 'ddp-1' in r.events
    assert r.version('ddp-1').overlap is not None and 'trace of' not in r.summary()


@pytest.mark.parametrize('in32, in64', [(0.0, 1e-30), (1e-30, -1e-30)])
def test_the_reference_takes_its_relu_gates_from_the_float32_step(in32, in64):
    """A pre-activation on the other side of 0 in float64 (seen on an H200 host) must not fail a correct step."""
    import torch
    from torch import nn

    from d2l_ext.allreduce.worker import _reference

    class Flips(nn.Linear):  # a pre-activation near 0 whose sign differs between float32 and float64
        def forward(self, x):
            return super().forward(x) + (in64 if x.dtype == torch.float64 else in32)

    model = nn.Sequential(Flips(1, 1), nn.ReLU(), nn.Linear(1, 1))
    with torch.no_grad():
        model[0].weight.fill_(1.0)
        model[0].bias.fill_(0.0)
        model[2].weight.fill_(2.0)
    X, y = torch.zeros(1, 1), torch.ones(1, 1)
    m64 = copy.deepcopy(model).double()
    naive = copy.deepcopy(m64)
    nn.functional.mse_loss(naive(X.double()), y.double()).backward()
    nn.functional.mse_loss(model(X), y).backward()
    assert (naive[0].bias.grad.item() == 0.0) != (model[0].bias.grad.item() == 0.0)  # float64 alone disagrees
    gated, _ = _reference(m64, X, y, False, 1, 0.0)
    assert gated[1].item() == pytest.approx(model[0].bias.grad.item())  # as the float32 step computed it


def test_the_tolerance_follows_from_float32_sums_over_n_processes():
    assert tolerance(8, 1024) > tolerance(2, 1024)
    assert tolerance(2, 1024) == pytest.approx(16 * 2 ** -24 * 1025)
    assert tolerance(64, 4096) < 0.01  # a missing average (error n - 1) stays far above


@pytest.mark.slow
def test_the_gradient_check_passes_with_8_processes_sharing_2_cores(monkeypatch):
    monkeypatch.setattr(plan_module, 'cpu_cores', lambda: 2)
    with pytest.raises(UsageError, match='from 2 to 2'):
        make_plan(world_size=8)
    r = run_allreduce(world_size=8, share_cores=True, bucket_mb=1, layers=2, width=8, batch=2, repeats=1, warmup=0)
    assert r.processes == 8 and all(v.relative_error <= r.tolerance for v in r.versions)
    assert r.tolerance == tolerance(8, 8)
    assert not spawned_children()


def test_one_answer_for_the_world_size_a_machine_allows(monkeypatch):
    monkeypatch.setattr(plan_module, 'cpu_cores', lambda: 1)
    assert plan_module.world_sizes('gloo') == (2, 2)  # one core: the two processes take turns
    plan = make_plan(world_size=2)
    assert plan.world_size == 2 and plan.cores == 1
    with pytest.raises(UsageError, match='can only be 2 here, got 3'):
        make_plan(world_size=3)
    assert plan_module.world_sizes('gloo', share_cores=True) == (2, plan_module.SHARED_PER_CORE)
    monkeypatch.setattr(plan_module, 'cpu_cores', lambda: 16)
    assert plan_module.world_sizes('gloo') == (2, 16)


def test_an_empty_bucket_list_plans_no_ddp_version_but_text_must_name_a_size():
    from d2l_ext.errors import UsageError
    assert plan_module.bucket_sizes([]) == () and make_plan('gloo', 2, bucket_mb=[], steps={}).bucket_mb == ()
    with pytest.raises(UsageError):
        plan_module.bucket_sizes('')  # the command line's --bucket-mb still needs a size


def test_each_version_in_steps_matches_a_plain_step_with_a_tied_and_a_frozen_weight(tmp_path):
    """(a)-(d) on one gloo process: the same parameters as a plain SGD step (a tied weight summed once, a frozen one
    left alone); the graders run them on two processes against float64."""
    import torch
    import torch.distributed as dist
    from torch import nn

    def model():
        torch.manual_seed(0)
        m = nn.Sequential(nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8), nn.ReLU(), nn.Linear(8, 8))
        m[4].weight = m[0].weight  # tied: listed once by parameters()
        m[2].bias.requires_grad_(False)  # frozen: its grad stays None
        return m
    X, y = torch.randn(4, 8), torch.randn(4, 8)
    dist.init_process_group('gloo', init_method=f'file://{tmp_path}/store', rank=0, world_size=1)
    try:
        expected = model()
        steps.local_step(expected, X, y, torch.optim.SGD(expected.parameters(), lr=0.1))
        for fn in (*steps.SOLUTIONS.values(), steps.as_step(steps.allreduce_in_buckets)):
            m = model()
            step = fn if 'bucket_mb' not in inspect.signature(fn).parameters else steps.as_step(fn)
            step(m, X, y, torch.optim.SGD(m.parameters(), lr=0.1))
            assert all(torch.allclose(a, b) for a, b in zip(m.parameters(), expected.parameters())), fn
    finally:
        dist.destroy_process_group()

