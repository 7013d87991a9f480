"""13.3.3's panel: the schedule of one two-lane training step, modelled and measured.

Sliders set the model (batch size, hidden size, each lane's speed, the server's speed, the link
bandwidth); moving one recomputes the model at once (arithmetic on the graph recorded on PyTorch's
meta device, so any size takes milliseconds) and adds a row to the table. The button measures
each box of the step on this machine's lanes, schedules those costs (the prediction), and times
the real step with both lanes running, so the prediction sits beside what happened.

Sliders never start a measurement, the panel draws once when shown, errors land in the panel as
one readable line, and the button is re-enabled whatever happens. CSS classes for the browser
test: d2l-size (batch), d2l-iters (hidden size), d2l-run, d2l-results, d2l-plot.
"""
from __future__ import annotations

import html

import ipywidgets as W

from .. import depgraph
from ..i18n import t
from . import style, tables
from .graph import draw_schedule, thread_test_text
from .panels import Panel, show_in

GIGA = 1e9
_WIDE = {'style': {'description_width': 'initial'}, 'layout': W.Layout(width='400px'), 'continuous_update': False}


def _int_slider(cls, description, value, lo, hi, step):
    s = W.IntSlider(value=value, min=lo, max=hi, step=step, description=description, **_WIDE)
    s.add_class(cls)
    return s


def _log_slider(description, value, lo_exp, hi_exp):
    """A slider over orders of magnitude: device speeds span 1 GFLOP/s to 100 TFLOP/s."""
    return W.FloatLogSlider(value=value, base=10, min=lo_exp, max=hi_exp, step=0.05, description=description,
                            readout_format='.3g', **_WIDE)


class GraphSchedulePanel(Panel):
    """13.3.3: batch, hidden size, speeds and bandwidth -> serial, scheduled, critical path; measured here on demand.

    `lanes`: this machine's lanes (find_lanes('torch')) for the measurement. `setting`: the
    model's starting values, {'device_speed': {...}, 'link_bandwidth': B/s} (default BOOK_SETTING).
    On the panel base: its Run button is 'Measure here'; the sliders redraw the model without running.
    """

    run_key = 'graph.panel.measure'
    interrupted_key = 'graph.panel.interrupted'

    def __init__(self, lanes=None, batch=256, hidden=256, setting=None, max_size=2048, repeats=3, max_rows=10):
        setting = setting or depgraph.BOOK_SETTING
        speed = setting['device_speed']
        self.lanes = depgraph.as_lanes(lanes)
        self.repeats, self.max_rows = repeats, max_rows
        self.batch = _int_slider('d2l-size', t('graph.panel.batch'), batch, 16, max_size, 16)
        self.hidden = _int_slider('d2l-iters', t('graph.panel.hidden'), hidden, 16, max_size, 16)
        self.lane0 = _log_slider(t('graph.panel.lane_speed', i=0), speed['lane 0'] / GIGA, 0, 5)
        self.lane1 = _log_slider(t('graph.panel.lane_speed', i=1), speed['lane 1'] / GIGA, 0, 5)
        self.server = _log_slider(t('graph.panel.server_speed'), speed[depgraph.SERVER] / GIGA, 0, 5)
        self.link = _log_slider(t('graph.panel.link'), setting['link_bandwidth'] / GIGA, -1, 3)
        names = ', '.join(t('graph.panel.lane_is', i=i, label=lane.label) for i, lane in enumerate(self.lanes))
        self.where = W.HTML(f"<small>{html.escape(t('graph.panel.measures_on', lanes=names))}</small>")
        self.rows: list[dict] = []
        self.count = 0
        self.last = None  # the last StepSchedule, for tests and curious learners
        self.figure = None  # the last timeline drawn
        super().__init__([self.batch, self.hidden, self.lane0, self.lane1, self.server, self.link])
        self.run_button.tooltip = t('graph.panel.measure_tip')
        for w in (self.batch, self.hidden, self.lane0, self.lane1, self.server, self.link):
            w.observe(lambda _: self.update(), names='value')

    def _rows(self, controls: list) -> list[list]:
        """Two sliders a row, then Measure here and where it measures."""
        return [controls[0:2], controls[2:4], controls[4:6], [self.run_button, self.progress, self.where]]

    def setting(self) -> dict:
        """The model's speeds and bandwidth from the sliders, in FLOP/s and bytes/s."""
        return {'device_speed': {'lane 0': self.lane0.value * GIGA, 'lane 1': self.lane1.value * GIGA,
                                 depgraph.SERVER: self.server.value * GIGA},
                'link_bandwidth': self.link.value * GIGA}

    def model(self):
        """schedule_step of the model graph at the sliders' sizes, speeds and bandwidth."""
        return depgraph.schedule_step(depgraph.model_graph(self.batch.value, self.hidden.value), **self.setting())

    def update(self):
        """Recompute the model, add a row, redraw; never raises into the notebook."""
        self.message.value = ''
        try:
            r = self.model()
            self._add_row(r, t('graph.panel.row_model'), None)
            self._draw(r, t('graph.panel.title_model'))
        except Exception as e:  # keep the panel alive and say what happened
            self.message.value = html.escape(t('panels.failed', kind=type(e).__name__, message=e))

    def starting(self) -> str:
        return f"<i>{html.escape(t('graph.panel.measuring'))}</i>"

    def _run_once(self, notes: list[str]):
        """Measure each box here at the current sizes, schedule them, and time the real step with both lanes."""
        problem = depgraph.make_problem(batch=self.batch.value, hidden=self.hidden.value)
        g, costs = depgraph.measure_node_costs(self.lanes, problem, repeats=self.repeats)
        r = depgraph.schedule_step(g, measured=costs)
        real = depgraph.time_step(self.lanes, problem, repeats=self.repeats, variants=(depgraph.TOGETHER,),
                                  overlap=False)
        self._add_row(r, t('graph.panel.row_measured'), real.measurements[depgraph.TOGETHER].median)
        self._draw(r, t('graph.panel.title_measured', lanes=' + '.join(lane.label for lane in self.lanes)))
        why = thread_test_text(r, slow_only=True)  # why the boxes sum high, where the one-thread test says so
        if why:
            notes.append(why)

    def _add_row(self, r, kind, real):
        self.count += 1
        self.last = r
        # model rows are computed, not timed: their real-step cell is a dash, explained under the table
        self.rows.append({'#': self.count, t('graph.panel.col_costs'): kind, t('graph.panel.batch'): self.batch.value,
                          t('graph.panel.hidden'): self.hidden.value, t('graph.panel.col_serial'): r.serial_total,
                          t('graph.panel.col_scheduled'): r.total, t('graph.panel.col_bound'): r.critical_path_s,
                          t('graph.panel.col_speedup'): r.speedup,
                          t('graph.panel.col_real'): real})
        self.rows = self.rows[-self.max_rows:]
        import pandas as pd
        col = t('graph.panel.col_real')
        shown = [{**row, col: '—' if row[col] is None else f'{row[col]:.4g}'} for row in self.rows]
        note = f"<small>{html.escape(t('graph.panel.not_measured'))}</small>" \
            if any(row[col] is None for row in self.rows) else ''
        self.table.value = tables.html(pd.DataFrame(shown), na='—') + note

    def _draw(self, r, title):
        fig, ax = style.figure(height=3.6)
        draw_schedule(r, ax=ax, title=title)
        self.figure = fig
        show_in(self.plot, fig)  # not `with self.plot:` (see panels.show_in)

    def show(self):
        """Display the panel and draw the model once (measuring waits for the button)."""
        super().show(run_now=False)
        self.update()
        return self
