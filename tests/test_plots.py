"""13.3.1/13.3.2 pictures from typed results (recorded H200/H100 and fresh CPU runs); no pyplot figures."""
import matplotlib

matplotlib.use('Agg')

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from d2l_ext.communication import measure_comm_timelines  # noqa: E402
from d2l_ext.display import communication as dc  # noqa: E402
from d2l_ext.display import lane_timeline as dl  # noqa: E402
from d2l_ext.display import parallel as dp  # noqa: E402
from d2l_ext.lanes import Lane, fake_hardware, pick_lanes  # noqa: E402
from d2l_ext.parallel import measure_small_ops  # noqa: E402
from d2l_ext.recorded import load_recordings  # noqa: E402


@pytest.fixture(autouse=True)
def no_pyplot_figures():
    before = plt.get_fignums()
    yield
    assert plt.get_fignums() == before  # shown once in Jupyter, never twice


@pytest.fixture(scope='module')
def rec():
    return load_recordings()[-1]


def test_parallel_repeats_and_timeline_from_a_recording(rec):
    fig = dp.plot_parallel(rec.parallel[0])
    assert isinstance(fig, Figure) and fig.axes[0].get_title(loc='left')
    assert 'estimate: from the times alone' in [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    fig = dl.plot_timeline(rec.timelines[0])
    labels = [t.get_text().split('\n')[0].split(': ')[0] for t in fig.axes[0].get_yticklabels()]
    assert set(labels) == {Lane.from_dict(lane).label_in(None) for lane in rec.timelines[0].lanes}


def test_comm_panels_one_per_mode(rec):
    fig = dc.plot_comm(rec.comm[0])
    assert len(fig.axes) >= len(rec.comm[0].rows)


def test_cpu_stream_timeline_and_variants():
    with fake_hardware(gpus=0):  # the CPU lanes' timeline (threads, not streams), on a GPU machine too
        lanes = pick_lanes('torch')
        timelines = measure_comm_timelines(lanes, size=64, iters=3)
    fig = dc.plot_comm_timelines(timelines)
    assert {t.get_text().split('\n')[0] for t in fig.axes[0].get_yticklabels()} == {'compute thread', 'copy thread'}
    assert isinstance(dp.plot_variants(measure_small_ops(lanes, size=16, iters=4, repeats=2)), Figure)
