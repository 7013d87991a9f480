"""The simulated GPU (grading/simulated_gpu.py): CUDA's stream order replayed, so the GPU branch of 13.3.1's and
13.3.2's "Build it" tasks is graded on any machine. 13.3.2's wrong versions: tests/test_task_copy.py."""
import inspect

import pytest

from d2l_ext.grading import lanes
from d2l_ext.grading import simulated_gpu as sim
from d2l_ext.grading.core import load_submission
from d2l_ext.parallel.together import run_together
from tests.wrong_versions import LANES_WRONG_GPU


def lanes_streams(source):
    return lanes.streams(load_submission(lanes.TASK, source).functions['run_together'], lanes.graded_lanes())


def test_run_together_waits_for_the_simulated_gpu_and_no_synchronize_does_not():
    assert lanes_streams(inspect.getsource(run_together)).key == 'task.lanes.sim_ok'
    got = lanes_streams(LANES_WRONG_GPU['no_synchronize'][1])
    assert (got.passed, got.key) == (False, 'task.lanes.sim_unsafe')


def test_a_version_that_skips_a_lane_is_told_how_many_calls_it_made():
    source = inspect.getsource(run_together).replace('gpu = {i: works[i]()', 'gpu = {i: None')
    assert (lanes_streams(source).key, lanes_streams(source).fields) == ('task.lanes.sim_calls', {'calls': 1})


@pytest.mark.parametrize('wait, host_waits', [('stream.synchronize()', True), ('event.synchronize()', True),
                                              ('other.wait_stream(stream)', False), ('pass', False)])
def test_the_host_waits_only_where_it_synchronizes(wait, host_waits):
    rep = sim.Replay()
    cuda = sim.SimCuda(rep)
    stream, other, event = cuda.Stream(), cuda.Stream(), cuda.Event()  # noqa: F841 (used by exec)
    with cuda.stream(stream):
        rep.queue('compute', rep.current, (), ('y',), False)
        event.record()
    exec(wait)
    assert (rep.host >= rep.written['y']) is host_waits
    assert rep.ready[stream] == rep.written['y'] == sim.ISSUE + sim.PRODUCT


def test_a_stream_waits_for_an_event_recorded_after_the_product_not_for_one_recorded_before():
    rep = sim.Replay()
    cuda = sim.SimCuda(rep)
    side, before, after = cuda.Stream(), cuda.Event(), cuda.Event()
    before.record()
    rep.queue('compute', rep.current, (), ('y',), False)
    after.record()
    for event, early in ((before, True), (after, False)):
        rep.early.clear()
        side.wait_event(event)
        rep.queue('copy', side, ('y',), ('buf',), False)
        assert bool(rep.early) is early
