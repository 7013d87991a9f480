"""The CLI's last edges (issue 35 item 4), each one line that names the cause and a way out."""
import io
import os
import stat
import tempfile

import pytest

from d2l_ext import UsageError
from d2l_ext.allreduce.plan import check_gloo as _check_gloo
from d2l_ext.allreduce.plan import memory_advice
from d2l_ext.cli import _Progress
from d2l_ext.lanes import choose_lanes, fake_hardware
from d2l_ext.paths import check_output_file, try_folder


def test_memory_advice_names_the_option_that_caused_it_and_a_smaller_value():
    gib = 2**30
    batch = memory_advice(2, 6, 1024, 10_000_000, free=16 * gib)  # the batch's activations are the cause
    assert batch['option'] == '--batch' and 1 <= batch['fit'] < 10_000_000
    width = memory_advice(2, 6, 200_000, 128, free=16 * gib)  # the weights are the cause
    assert width['option'] == '--width' and 1 <= width['fit'] < 200_000
    assert memory_advice(2, 6, 1024, 128, free=16 * gib) is None
    tight = memory_advice(2, 6, 1024, 10, free=0.001 * gib)  # never a value at or above the one in use
    assert tight['fit'] < (10 if tight['option'] == '--batch' else 1024)


def test_a_batch_too_large_is_refused_naming_the_batch():
    with pytest.raises(UsageError, match=r'--batch 10000000 need about .* choose --batch \d+ or less') as e:
        _check_gloo(2, '6', '1024', '10000000')
    assert int(str(e.value).split('choose --batch ')[1].split()[0]) < 10_000_000


def test_world_size_on_one_core_says_only_two_and_that_they_take_turns():
    with fake_hardware(cores=1), pytest.raises(UsageError) as e:
        _check_gloo('4', '6', '64', '8')
    assert str(e.value) == ('--world-size can only be 2 here, got 4: this machine has 1 core for 2 processes: they '
                            'take turns, so no overlap or speedup can be measured here')


@pytest.mark.parametrize('names', [',', ',,', ' ', []])
def test_an_empty_lane_list_names_the_lanes_available(names):
    with pytest.raises(UsageError, match=r'^name at least one lane: cpu0, cpu1$'):
        with fake_hardware(gpus=0, cores=2):
            choose_lanes('torch', names)


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_waits_for_its_delay_and_is_erased_before_the_table(monkeypatch):
    monkeypatch.delenv('TQDM_DISABLE', raising=False)
    now = [0.0]
    out = _Terminal()
    bar = _Progress(True, 'parallel torch', stream=out, clock=lambda: now[0])
    bar(1, 10)
    now[0] = bar.DELAY_S - 0.1
    bar(2, 10)
    assert out.getvalue() == ''  # nothing before the delay
    now[0] = bar.DELAY_S + 0.1
    bar(5, 10)
    drawn = out.getvalue()
    assert drawn.startswith('\rparallel torch: [') and drawn.endswith('5/10')
    bar.close()
    assert out.getvalue().endswith('\r' + ' ' * len(drawn.lstrip('\r')) + '\r')  # blanked, back to column 0
    bar(10, 10)  # a late report draws nothing
    assert out.getvalue().endswith('\r')
    quiet = _Terminal()
    short = _Progress(True, 'comm torch', stream=quiet, clock=lambda: 0.0)
    short(1, 1)
    short.close()
    assert quiet.getvalue() == ''  # a run shorter than the delay never shows a bar


def test_out_in_a_folder_that_takes_no_files_suggests_a_writable_place():
    if not os.path.isdir('/sys/kernel'):
        pytest.skip('no /sys/kernel here')
    with pytest.raises(UsageError) as e:
        check_output_file('/sys/kernel')
    message = str(e.value)
    assert message.startswith('/sys/kernel is a folder: pass --out with a file name, e.g. ')
    suggested = message.rsplit('e.g. ', 1)[1]
    assert not suggested.startswith('/sys/') and os.access(os.path.dirname(suggested), os.W_OK)


def test_trace_dir_on_a_device_or_a_fifo_says_what_it_is_and_where_to_write():
    if os.path.exists('/dev/null') and stat.S_ISCHR(os.stat('/dev/null').st_mode):
        with pytest.raises(UsageError, match=r'^/dev/null is a device, not a folder: choose another --trace-dir, '
                                             r'e\.g\. .*d2l_ext-traces$'):
            try_folder('/dev/null', '--trace-dir', create=True)
    with tempfile.TemporaryDirectory() as tmp:
        fifo = os.path.join(tmp, 'pipe')
        os.mkfifo(fifo)
        with pytest.raises(UsageError, match=r'is a named pipe \(FIFO\), not a folder: choose another --trace-dir'):
            try_folder(fifo, '--trace-dir', create=True)
        with pytest.raises(UsageError, match=r'is not a regular file but a named pipe \(FIFO\).* e\.g\. '):
            check_output_file(fifo, force=True)


class _FakeRun:
    backend, processes, cores = 'gloo', 2, 1

    def summary(self):
        return '(c) DDP, 1 MiB buckets: overlap 98%'

    def to_dict(self):
        return {'processes': 2}


def test_allreduce_on_fewer_cores_than_processes_says_they_took_turns_before_any_overlap(capsys):
    from d2l_ext.allreduce.cli import _print
    _print(_FakeRun(), as_json=False)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ['this machine has 1 core for 2 processes: they take turns, so no overlap or speedup can be '
                     'measured here', '(c) DDP, 1 MiB buckets: overlap 98%']
    _print(_FakeRun(), as_json=True)
    assert '"caveats": [\n  "this machine has 1 core for 2 processes' in capsys.readouterr().out
    enough = _FakeRun()
    enough.cores = 2
    _print(enough, as_json=False)
    assert capsys.readouterr().out.splitlines() == ['(c) DDP, 1 MiB buckets: overlap 98%']
