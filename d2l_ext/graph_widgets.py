"""13.3.3's panel: the schedule of one two-lane training step, modelled and measured.

Sliders set the model (batch size, hidden size, each lane's speed, the server's speed, the
link bandwidth); moving one recomputes the model at once (it is arithmetic on the graph, which
is recorded on PyTorch's meta device, so any size takes milliseconds) and adds a row to the
table. The Run button measures each node of the step on this machine's lanes at the chosen
batch and hidden size, schedules those costs, and also times the real step with both lanes
running, so the prediction can be compared with what happened.

Same conventions as widgets.py: sliders never start a measurement, the panel draws once when
shown, errors land in the panel as one readable line, and the button is re-enabled whatever
happens. CSS classes for the browser test: d2l-size (batch), d2l-iters (hidden size), d2l-run,
d2l-results, d2l-plot.
"""
from __future__ import annotations

import html

import ipywidgets as W
from IPython.display import display

from . import depgraph, plots
from .widgets import results_area, show_in

GIGA = 1e9


def _int_slider(cls, description, value, lo, hi, step):
    s = W.IntSlider(value=value, min=lo, max=hi, step=step, description=description,
                    continuous_update=False, style={'description_width': 'initial'},
                    layout=W.Layout(width='380px'))
    if cls:
        s.add_class(cls)
    return s


def _log_slider(description, value, lo_exp, hi_exp):
    """A slider over orders of magnitude: device speeds span 1 GFLOP/s to 100 TFLOP/s."""
    return W.FloatLogSlider(value=value, base=10, min=lo_exp, max=hi_exp, step=0.05,
                            description=description, continuous_update=False, readout_format='.3g',
                            style={'description_width': 'initial'}, layout=W.Layout(width='380px'))


def _fmt(seconds):
    """Short time for the table: µs below a millisecond, else ms, else s."""
    if seconds < 1e-3:
        return f'{seconds * 1e6:.1f} µs'
    if seconds < 1:
        return f'{seconds * 1e3:.2f} ms'
    return f'{seconds:.3f} s'


class GraphSchedulePanel:
    """13.3.3: batch, hidden size, speeds and bandwidth -> serial, scheduled, critical path.

    `lanes`: this machine's lanes (find_lanes('torch')) for the Run button's measurement.
    `setting`: the model's starting values, {'device_speed': {...}, 'link_bandwidth': B/s}
    (default depgraph.BOOK_SETTING: two GPUs and a CPU over PCIe).
    """
    columns = ('#', 'costs', 'batch', 'hidden', 'serial', 'scheduled', 'critical path',
               'speedup', 'real step, lanes together')

    def __init__(self, lanes=None, batch=256, hidden=256, setting=None, max_size=2048,
                 repeats=3, max_rows=10):
        setting = setting or depgraph.BOOK_SETTING
        speed = setting['device_speed']
        self.lanes = depgraph.as_lanes(lanes)
        self.repeats = repeats
        self.max_rows = max_rows
        self.batch = _int_slider('d2l-size', 'batch size (both lanes)', batch, 16, max_size, 16)
        self.hidden = _int_slider('d2l-iters', 'hidden units', hidden, 16, max_size, 16)
        self.lane0 = _log_slider('lane 0 GFLOP/s', speed['lane 0'] / GIGA, 0, 5)
        self.lane1 = _log_slider('lane 1 GFLOP/s', speed['lane 1'] / GIGA, 0, 5)
        self.server = _log_slider('server (CPU) GFLOP/s', speed[depgraph.SERVER] / GIGA, 0, 5)
        self.link = _log_slider('link GB/s (each direction)', setting['link_bandwidth'] / GIGA, -1, 3)
        self.run_button = W.Button(description='Measure here', button_style='primary', icon='play',
                                   tooltip="time each node on this machine's lanes at this batch and hidden size")
        self.run_button.add_class('d2l-run')
        self.message, self.table, self.plot = results_area()
        self.rows: list[list[str]] = []
        self.count = 0
        self.last = None  # the last schedule_step result, for tests and curious learners
        self.figure = None  # the last timeline drawn
        for w in (self.batch, self.hidden, self.lane0, self.lane1, self.server, self.link):
            w.observe(lambda _: self.update(), names='value')
        self.run_button.on_click(lambda _: self.run())
        lane_names = ', '.join(f'lane {i} = {lane.label}' for i, lane in enumerate(self.lanes))
        self.box = W.VBox([
            W.HBox([self.batch, self.hidden]),
            W.HBox([self.lane0, self.lane1]),
            W.HBox([self.server, self.link]),
            W.HBox([self.run_button, W.HTML(f'<small>measures on {html.escape(lane_names)}</small>')]),
            self.message, self.table, self.plot])

    # -- the model ------------------------------------------------------------------------
    def setting(self) -> dict:
        """The model's speeds and bandwidth from the sliders, in FLOP/s and bytes/s."""
        return {'device_speed': {'lane 0': self.lane0.value * GIGA, 'lane 1': self.lane1.value * GIGA,
                                 depgraph.SERVER: self.server.value * GIGA},
                'link_bandwidth': self.link.value * GIGA}

    def model(self) -> dict:
        """schedule_step of the model graph at the sliders' sizes, speeds and bandwidth."""
        g = depgraph.model_graph(self.batch.value, self.hidden.value)
        return depgraph.schedule_step(g, **self.setting())

    def update(self):
        """Recompute the model, add a row, redraw; never raises into the notebook."""
        self.message.value = ''
        try:
            r = self.model()
            self._add(r, 'model', '')
            self._draw(r, 'model: ' + self._speeds_label())
        except Exception as e:  # keep the panel alive and say what happened
            self._error(e)

    # -- measured on this machine ---------------------------------------------------------
    def run(self):
        """Measure each node here at the current sizes, schedule it, and time the real step."""
        self.run_button.disabled = True
        self.message.value = '<i>measuring each node, then the real step...</i>'
        try:
            problem = depgraph.make_problem(batch=self.batch.value, hidden=self.hidden.value)
            g, costs = depgraph.measure_node_costs(self.lanes, problem, repeats=self.repeats)
            r = depgraph.schedule_step(g, measured=costs)
            real = depgraph.time_step(self.lanes, problem, repeats=self.repeats,
                                      variants=('two lanes together',))
            self._add(r, 'measured here', _fmt(real['times']['two lanes together']['median']))
            self._draw(r, 'measured on this machine: ' + ' + '.join(lane.label for lane in self.lanes))
            self.message.value = ''
        except KeyboardInterrupt:
            self.message.value = '<b>Interrupted.</b> Press the button to measure again.'
        except Exception as e:
            self._error(e)
        finally:
            self.run_button.disabled = False

    # -- output ---------------------------------------------------------------------------
    def _speeds_label(self):
        return (f'lanes {self.lane0.value:.3g} and {self.lane1.value:.3g} GFLOP/s, '
                f'server {self.server.value:.3g} GFLOP/s, link {self.link.value:.3g} GB/s')

    def _add(self, r, kind, real):
        self.count += 1
        self.last = r
        self.rows.append([str(self.count), kind, str(self.batch.value), str(self.hidden.value),
                          _fmt(r['serial_total']), _fmt(r['total']), _fmt(r['critical_path_s']),
                          f"{r['serial_total'] / r['total']:.2f}x", real])
        self.rows = self.rows[-self.max_rows:]
        head = ''.join(f'<th>{html.escape(c)}</th>' for c in self.columns)
        body = ''.join('<tr>' + ''.join(f'<td>{html.escape(v)}</td>' for v in row) + '</tr>'
                       for row in self.rows)
        self.table.value = (f'<table class="d2l-table"><thead><tr>{head}</tr></thead>'
                            f'<tbody>{body}</tbody></table>')

    def _draw(self, r, title):
        from matplotlib.figure import Figure
        fig = Figure(figsize=(10, 3.2))
        plots.draw_timeline(r['events'], ax=fig.add_subplot(), title=title,
                            highlight=r['critical_path'])
        fig.tight_layout()
        self.figure = fig
        show_in(self.plot, fig)  # not `with self.plot:` (see widgets.show_in)

    def _error(self, e):
        self.message.value = f'<b style="color:#b00">{type(e).__name__}:</b> {html.escape(str(e))}'

    def show(self):
        """Display the panel and draw the model once."""
        display(self.box)
        self.update()
        return self
