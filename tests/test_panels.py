"""13.3.1/13.3.2 panels: a run adds table rows; out-of-range values, long runs and failures end in one message."""
import pytest

pytest.importorskip('ipywidgets')

from d2l_ext.display import panels  # noqa: E402
from d2l_ext.errors import WorkerFailed  # noqa: E402


@pytest.mark.slow
def test_parallel_panel_runs_and_reports_a_clamped_value():
    p = panels.ParallelPanel(size=64, iters=2, repeats=1)
    p.size.widget.value = 5
    p.run()
    assert 'outside 16-4000' in p.message.value and p.size.widget.value == 16
    assert '<table' in p.table.value and not p.run_button.disabled and len(p.results) == 1


def test_long_run_refused_with_the_estimate():
    p = panels.ParallelPanel(size=64, iters=2, repeats=1)
    p.size.widget.value, p.iters.widget.value = 4000, 100
    p.run()
    assert 'would take about' in p.message.value and not p.results and not p.run_button.disabled


def test_worker_failure_is_one_message_and_run_stays_enabled(monkeypatch):
    def dead(*a, **k):
        raise WorkerFailed('the PyTorch worker process stopped')
    monkeypatch.setattr('d2l_ext.workers.dispatch', dead)
    p = panels.CommPanel(size=64, iters=2, repeats=1)
    p.run()
    assert 'WorkerFailed' in p.message.value and not p.run_button.disabled


def test_comm_and_pipeline_panels():
    c = panels.CommPanel(size=64, iters=2, repeats=1)
    c.run()
    assert c.message.value == '' and '<table' in c.table.value
    q = panels.PipelinePanel()
    q.update()
    assert 'ms' in q.summary.value


def test_comm_panel_choices_are_labelled_in_the_learners_language():
    from d2l_ext.i18n import using_language
    with using_language('zh'):
        c = panels.CommPanel(size=64, iters=2, repeats=1, gpu=True)
    assert [label for label, _ in c.dest.options] == ['可分页内存', '锁页内存'] and c.dest.value == 'pinned'
    assert [label for label, _ in c.stream.options] == ['同一个流', '复制流'] and c.stream.value == 'side'


def test_the_framework_choice_shows_framework_names_and_keeps_ids():
    from d2l_ext.i18n import using_language
    with using_language('zh'):
        p = panels.ParallelPanel(size=64, iters=2, repeats=1, frameworks=['torch', 'mxnet'])
        c = panels.CommPanel(size=64, iters=2, repeats=1, frameworks=['torch'])
    assert list(p.framework.options) == [('PyTorch', 'torch'), ('MXNet', 'mxnet')] and p.framework.value == 'torch'
    assert list(c.framework.options) == [('PyTorch', 'torch')]


def test_the_pipeline_model_names_its_rows_in_the_learners_language(monkeypatch, faked_cjk_font):
    from d2l_ext.i18n import using_language
    figures = []
    monkeypatch.setattr(panels, 'show_in', lambda out, fig: figures.append(fig))
    with using_language('zh'):
        panels.PipelinePanel().update()
    rows = [t.get_text().split('\n')[0] for ax in figures[0].axes for t in ax.get_yticklabels()]
    assert not {'one stream', 'compute stream', 'copy stream'} & set(rows) and len(rows) == 3
