"""The 13.3.3 panel without a browser: sliders update the model, Run measures, errors stay inside."""

import matplotlib

matplotlib.use('Agg')

import pytest  # noqa: E402

pytest.importorskip('ipywidgets')

from d2l_ext import depgraph  # noqa: E402
from d2l_ext.display.graph_panel import GraphSchedulePanel  # noqa: E402


@pytest.fixture
def panel():
    return GraphSchedulePanel(lanes=['cpu', 'cpu'], batch=32, hidden=32, repeats=1).show()


def classes(w):
    return set(w._dom_classes)


def test_css_classes_for_the_browser_test(panel):
    assert 'd2l-size' in classes(panel.batch)
    assert 'd2l-iters' in classes(panel.hidden)
    assert 'd2l-run' in classes(panel.run_button)
    assert 'd2l-results' in classes(panel.table)
    assert 'd2l-plot' in classes(panel.plot)
    sliders = (panel.batch, panel.hidden, panel.lane0, panel.lane1, panel.server, panel.link)
    assert all(s.continuous_update is False for s in sliders)


def test_panel_draws_the_model_once_when_shown(panel):
    assert panel.count == 1 and panel.message.value == ''
    assert '<table' in panel.table.value and 'model' in panel.table.value
    assert panel.figure is not None and panel.figure.axes[0].patches  # the timeline's bars
    r = panel.last
    assert r.critical_path_s <= r.total <= r.serial_total


def test_each_slider_recomputes_the_model(panel):
    for slider, value in ((panel.batch, 512), (panel.hidden, 1024), (panel.lane0, 100.0),
                          (panel.server, 5.0), (panel.link, 1.0)):
        before = panel.table.value
        slider.value = value
        assert panel.table.value != before, slider.description
        assert panel.message.value == ''
    # The panel's model is schedule_step on the meta-device graph at the slider values.
    expect = depgraph.schedule_step(depgraph.model_graph(512, 1024), **panel.setting())
    assert panel.last.total == pytest.approx(expect.total)


def test_a_slower_link_makes_the_step_longer(panel):
    panel.link.value = 100.0
    fast = panel.last.total
    panel.link.value = 0.5
    assert panel.last.total > fast


def test_rows_are_capped_but_numbered_on(panel):
    for b in range(48, 48 + 16 * 12, 16):
        panel.batch.value = b
    assert len(panel.rows) == panel.max_rows
    assert panel.rows[-1]['#'] == panel.count


def test_run_measures_on_this_machine(panel):
    before = panel.table.value
    panel.run_button.click()
    # empty, or (on a busy machine) the one-thread test of why the boxes summed high; never an error
    assert panel.message.value == '' or panel.message.value.startswith('a test:'), panel.message.value
    assert panel.table.value != before
    row = list(panel.rows[-1].values())
    assert row[1] == 'measured here' and row[-1] > 0
    assert 'None' not in panel.table.value and '—' in panel.table.value  # model rows: a dash, explained below
    assert 'not measured' in panel.table.value
    assert not panel.run_button.disabled


def test_errors_are_shown_in_the_panel_not_raised(panel, monkeypatch):
    def broken(*a, **k):
        raise RuntimeError('no graph today')
    monkeypatch.setattr(depgraph, 'model_graph', broken)
    panel.batch.value = 64  # must not raise
    assert 'no graph today' in panel.message.value
    monkeypatch.setattr(depgraph, 'measure_node_costs', broken)
    panel.run_button.click()
    assert 'RuntimeError' in panel.message.value and not panel.run_button.disabled


def test_run_says_when_one_thread_was_much_faster_than_all_cores(panel, monkeypatch):
    real = depgraph.measure_node_costs

    def slow_on_all_cores(*a, **k):
        g, costs = real(*a, **k)
        costs.one_thread = {k: 1e-6 for k in costs.one_thread or {n['id']: 0 for n in g['nodes']
                                                                    if not n['lane'].startswith('lane ')}}
        for k in costs.one_thread:
            costs[k] = 1e-3  # a thousand times the one-thread time: the split over the cores slowed them
        costs.threads = 2
        return g, costs
    monkeypatch.setattr(depgraph, 'measure_node_costs', slow_on_all_cores)
    panel.run_button.click()
    assert panel.message.value.startswith('a test:') and 'slowed it' in panel.message.value
