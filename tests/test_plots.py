"""Plots return Figures with the expected bars, rows and lines, and never touch pyplot."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from d2l_ext import plots  # noqa: E402


def result(framework, lane=0.5, together=0.52):
    return {"framework": framework,
            "lanes": [{"label": "CPU lane 1 (1 of 2 cores)"}, {"label": "CPU lane 2 (1 of 2 cores)"}],
            "lane_times": [{"median": lane, "iqr": 0.01}, {"median": lane, "iqr": 0.02}],
            "serial_sum": 2 * lane, "together": {"median": together, "iqr": 0.01},
            "ideal": lane, "speedup": 2 * lane / together}


def bars(ax):
    return [p for c in ax.containers for p in getattr(c, "patches", [])]


@pytest.fixture(autouse=True)
def no_pyplot_figures():
    before = plt.get_fignums()
    yield
    # The plots build Figures without pyplot, so Jupyter cannot show them twice.
    assert plt.get_fignums() == before


def test_timeline_has_one_row_per_lane_and_one_bar_per_event():
    events = [{"lane": "gpu0", "name": "a", "start": 0.0, "end": 1.0},
              {"lane": "gpu1", "name": "b", "start": 0.0, "end": 2.0},
              {"lane": "cpu", "name": "c", "start": 2.0, "end": 2.5},
              {"lane": "gpu0", "name": "d", "start": 1.0, "end": 1.5}]
    fig = plots.draw_timeline(events, title="t")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["gpu0", "gpu1", "cpu"]
    assert len(bars(ax)) == 4
    assert ax.get_xlabel() == "time (s)" and ax.get_title() == "t"
    assert "b" in [t.get_text() for t in ax.texts]  # the long bar is labelled


def test_timeline_uses_milliseconds_for_short_runs():
    fig = plots.draw_timeline([{"lane": "x", "name": "a", "start": 0.0, "end": 0.004}])
    assert fig.axes[0].get_xlabel() == "time (ms)"


def test_timeline_draws_into_a_given_axes():
    fig = Figure()
    ax = fig.add_subplot()
    assert plots.draw_timeline([{"lane": "x", "name": "a", "start": 0, "end": 1}], ax=ax) is fig


def test_parallel_bars_five_per_framework_with_iqr_error_bars():
    fig = plots.plot_parallel_bars([result("torch"), result("mxnet", 0.6, 0.8)])
    ax = fig.axes[0]
    assert len(bars(ax)) == 10
    assert [t.get_text() for t in ax.get_xticklabels()] == ["torch", "mxnet"]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0] == "lane 1: CPU lane 1 (1 of 2 cores)"
    assert legend[2:] == ["serial sum", "both together", "ideal max(lanes)"]
    serial = [c for c in ax.containers if c.get_label() == "serial sum"][0]
    assert [p.get_height() for p in serial.patches] == pytest.approx([1.0, 1.2])
    together = [c for c in ax.containers if c.get_label() == "both together"][0]
    assert together.errorbar is not None


def test_scaling_one_measured_and_one_ideal_line_per_framework():
    points = [{"framework": fw, "size": n, "speedup": s, "ideal_speedup": 2.0}
              for fw in ("torch", "mxnet") for n, s in ((256, 1.1), (512, 1.6), (1024, 1.9))]
    ax = plots.plot_scaling(points).axes[0]
    labelled = [ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith("_")]
    assert labelled == ["torch measured", "torch ideal", "mxnet measured", "mxnet ideal"]
    assert list(ax.get_lines()[0].get_xdata()) == [256, 512, 1024]


def test_comm_bars_five_per_mode_and_missing_values_left_out():
    rows = [{"mode": "pageable, same stream", "run": 1.0, "copy": 0.6, "run_then_copy": 1.6,
             "overlapped": 1.6, "ideal": 1.0},
            {"mode": "pinned, side stream", "run": 1.0, "copy": 0.4, "run_then_copy": 1.4,
             "overlapped": None, "ideal": 1.0}]
    ax = plots.plot_comm_bars(rows).axes[0]
    assert len(bars(ax)) == 9
    assert [t.get_text() for t in ax.get_xticklabels()] == ["pageable,\nsame stream",
                                                            "pinned,\nside stream"]


def test_bandwidth_bars_and_link_line():
    rows = [{"mode": "pageable", "gbps": 12.0}, {"mode": "pinned", "bytes": 4e9, "copy": 0.08}]
    ax = plots.plot_bandwidth(rows, link_gbps=55.0).axes[0]
    assert [p.get_height() for p in bars(ax)] == pytest.approx([12.0, 50.0])
    hlines = [ln for ln in ax.get_lines() if list(ln.get_ydata()) == [55.0, 55.0]]
    assert len(hlines) == 1


def test_timeline_outlines_highlighted_events():
    events = [{"lane": "a", "name": "x", "start": 0.0, "end": 1.0},
              {"lane": "b", "name": "y", "start": 0.0, "end": 2.0}]
    ax = plots.draw_timeline(events, highlight=["y"]).axes[0]
    edges = {tuple(p.get_edgecolor()) for p in bars(ax) if p.get_width() == 2.0}
    assert edges == {(0.0, 0.0, 0.0, 1.0)}
    assert ax.get_legend() is not None
