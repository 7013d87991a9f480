"""13.3.4's sentences, titles and bucket panel: chosen from the numbers, in both languages, never a traceback."""
import pytest

from d2l_ext.allreduce import AllreduceResult, Prediction, Version
from d2l_ext.display import allreduce as show
from d2l_ext.i18n import using_language

TINY = dict(layers=2, width=32, batch=4)


def fake(serial, hooks, ddp, backward=0.10, alone=0.04, spread=0.001):
    """A result with three repeats per version around the given medians (no processes started)."""
    def v(vid, median, mb=None):
        return Version(vid, vid, mb, [[median - spread, median - spread], [median, median],
                                      [median + spread, median]], 1e-7, 'whole')
    versions = [v('backward', backward), v('allreduce', alone), v('serial', serial), v('hooks', hooks),
                v('ddp-1', ddp, 1.0)]
    pred = Prediction.from_measurements(2, 25_000_000, 100_000_000, [0.16, 0.16], backward)
    spans = (('compute', 'backward', 0.0, 0.10), ('allreduce', 'allreduce', 0.03, 0.12))
    events = {'ddp-1': [{'rank': r, 'stream': s, 'role': role, 'name': 'x', 'start': a, 'end': b, 'lane': ''}
                        for r in (0, 1) for s, role, a, b in spans]}
    return AllreduceResult('gloo', 2, ['cpu', 'cpu'], 6, 1024, 128, 1, versions, pred, {}, events)


@pytest.mark.parametrize('hooks, words', [
    (0.115, 'more than half'),      # (0.14 - 0.115) / 0.04 = 62%
    (0.130, 'less than half'),      # 25%
    (0.139, 'no clear difference'),  # within the spread
    (0.160, 'slower than (a)'),
    (0.050, 'more than the whole'),  # 225%: noise, not overlap
])
def test_the_hidden_sentence_follows_the_numbers(hooks, words):
    r = fake(serial=0.14, hooks=hooks, ddp=0.14)
    assert words in show.hidden_sentence(r, r.version('hooks'))


def test_per_call_cost_is_stated_only_when_measured():
    costly, cheap = fake(0.14, 0.13, 0.13, alone=0.06), fake(0.14, 0.13, 0.13, alone=0.04)
    assert 'each call adds' in show.per_call_text(costly)  # predicted 0.04 s for the bytes
    assert 'close to' in show.per_call_text(cheap)


def test_titles_state_the_finding_in_chinese_too():
    r = fake(serial=0.14, hooks=0.13, ddp=0.12)
    assert show._title(r).startswith('(c) DDP')  # the version that hid most
    assert 'ms before backward ends' in show._timeline_title(r, 'ddp-1')
    with using_language('zh'):
        assert '全归约' in show.hidden_text(r) and '全归约' in show.per_call_text(r)
        assert '反向传播结束前' in show._timeline_title(r, 'ddp-1')
        assert '个进程' in show.machine_text('gloo', 2)


def test_the_panel_runs_once_keeps_rows_and_turns_failures_into_one_line(monkeypatch):
    from d2l_ext.allreduce import ProcessFailed
    from d2l_ext.display import allreduce_panel
    from d2l_ext.errors import UsageError
    panel = allreduce_panel.BucketPanel(bucket_mb=1.0, repeats=1, **TINY).show()
    assert len(panel.rows) == 1 and 'd2l-table' in panel.table.value and panel.figure is not None
    assert not panel.run_button.disabled and 'Error' not in panel.message.value

    def dies(**_):
        raise ProcessFailed('process 1 ended unexpectedly (exit code -9); every other process was stopped')
    monkeypatch.setattr('d2l_ext.allreduce.run_allreduce', dies)
    panel.run()
    assert 'process 1 ended' in panel.message.value and '\n' not in panel.message.value
    assert not panel.run_button.disabled and len(panel.rows) == 1
    with pytest.raises(UsageError, match='not on the slider'):
        allreduce_panel.BucketPanel(bucket_mb=3.0)


def test_bad_input_in_the_panel_is_a_message():
    from d2l_ext.display.allreduce_panel import BucketPanel
    panel = BucketPanel(world_size=1, **TINY).show()
    assert 'use 2 or more' in panel.message.value and not panel.rows and not panel.run_button.disabled
