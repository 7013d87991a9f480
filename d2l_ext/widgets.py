"""Interactive panels for the notebooks: sliders, a Run button, progress, a table that keeps runs.

Pattern (checked headless and in a browser): explicit controls, a Run button, Output areas;
sliders never start a run by themselves; the panel runs once with its defaults when shown, so a
headless run of the notebook exercises it. Errors land in the panel as one readable line and
the button is re-enabled whatever happens, so an interrupted or failed run leaves it usable.
CSS classes (d2l-size, d2l-iters, d2l-run, d2l-results, d2l-plot) let the browser test find them.
"""
from __future__ import annotations

import html

import ipywidgets as W
from IPython.display import display

from . import experiments, plots
from .errors import ResultMismatch, UsageError
from .machine import available_frameworks


def _slider(cls, description, value, lo, hi, step):
    s = W.IntSlider(value=value, min=lo, max=hi, step=step, description=description,
                    continuous_update=False, style={'description_width': 'initial'},
                    layout=W.Layout(width='420px'))
    s.add_class(cls)
    return s


def show_in(out: W.Output, fig) -> None:
    """Replace what an Output widget shows with a figure.

    Not `with out: display(fig)`: capturing while a cell runs made Voila pages hang now and then
    (about 1 load in 25 in our browser test); filling the outputs directly did not.
    """
    out.outputs = ()
    out.append_display_data(fig)


def results_area():
    """(message line, results table, plot) of a panel, with the CSS classes the browser test finds."""
    message, table, plot = W.HTML(), W.HTML(), W.Output()
    table.add_class('d2l-results')
    plot.add_class('d2l-plot')
    return message, table, plot


class _Panel:
    """Shared layout: controls, Run, progress bar, message line, results table, plot."""
    columns: tuple = ()

    def __init__(self, controls):
        self.run_button = W.Button(description='Run', button_style='primary', icon='play')
        self.run_button.add_class('d2l-run')
        self.progress = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width='300px', visibility='hidden'))
        self.message, self.table, self.plot = results_area()
        self.rows: list[list[str]] = []
        self.results: list[dict] = []
        self.run_button.on_click(lambda _: self.run())
        self.box = W.VBox([W.HBox(controls[:2]), W.HBox(controls[2:] + [self.run_button, self.progress]),
                           self.message, self.table, self.plot])

    def _progress(self, done, total):
        self.progress.max = max(total, 1)
        self.progress.value = min(done, total)

    def show(self, run_now: bool = True):
        """Display the panel and run once with the defaults."""
        display(self.box)
        if run_now:
            self.run()
        return self

    def run(self):
        """One experiment with the current control values; never raises into the notebook."""
        self.run_button.disabled = True
        self.progress.layout.visibility = 'visible'
        self.progress.value = 0
        self.message.value = ''
        try:
            self._run_once()
        except (UsageError, ResultMismatch) as e:
            self.message.value = f'<b style="color:#b00">Cannot run this:</b> {html.escape(str(e))}'
        except KeyboardInterrupt:
            self.message.value = '<b>Interrupted.</b> The worker was stopped; press Run to start again.'
        except Exception as e:  # unexpected: keep the panel alive and say what happened
            self.message.value = f'<b style="color:#b00">{type(e).__name__}:</b> {html.escape(str(e))}'
        finally:
            self.run_button.disabled = False
            self.progress.layout.visibility = 'hidden'

    def _render_table(self):
        head = ''.join(f'<th>{html.escape(c)}</th>' for c in self.columns)
        body = ''.join('<tr>' + ''.join(f'<td>{html.escape(v)}</td>' for v in row) + '</tr>'
                       for row in self.rows)
        self.table.value = (f'<table class="d2l-table"><thead><tr>{head}</tr></thead>'
                            f'<tbody>{body}</tbody></table>')

    def _show_figure(self, fig):
        show_in(self.plot, fig)


class ParallelPanel(_Panel):
    """13.3.1: matrix size, products per lane, framework -> lanes alone, serial, together."""
    columns = ('run', 'framework', 'size', 'products', 'lane 1 (s)', 'lane 2 (s)', 'serial sum (s)',
               'together (s)', 'ideal (s)', 'speedup', 'rel. error')

    def __init__(self, size=400, iters=10, max_size=4000, repeats=3, frameworks=None):
        fws = frameworks or available_frameworks()
        self.size = _slider('d2l-size', 'matrix size', size, 16, max_size, 16)
        self.iters = _slider('d2l-iters', 'products per lane', iters, 1, 100, 1)
        self.framework = W.Dropdown(options=(['all'] if len(fws) > 1 else []) + fws,
                                    value='all' if len(fws) > 1 else fws[0], description='framework')
        self.repeats = repeats
        super().__init__([self.size, self.iters, self.framework])

    def _run_once(self):
        batch = []
        for fw in experiments.frameworks_for(self.framework.value):
            r = experiments.parallel(fw, self.size.value, self.iters.value, self.repeats,
                                     progress=self._progress)
            batch.append(r)
            self.results.append(r)
            lt = r['lane_times']
            self.rows.append([str(len(self.rows) + 1), fw, str(r['size']), str(r['iters'][0]),
                              f"{lt[0]['median']:.4f}", f"{lt[1]['median']:.4f}" if len(lt) > 1 else '',
                              f"{r['serial_sum']:.4f}", f"{r['together']['median']:.4f}",
                              f"{r['ideal']:.4f}", f"{r['speedup']:.2f}x", f"{r['max_rel_error']:.1e}"])
            self._render_table()
        self._show_figure(plots.plot_parallel_bars(batch))


class CommPanel(_Panel):
    """13.3.2: matrix size, products, framework and copy choices -> run, copy, overlapped."""
    columns = ('run', 'framework', 'mode', 'size', 'products', 'run (s)', 'copy (s)', 'run;copy (s)',
               'overlapped (s)', 'ideal (s)', 'copy GB/s', 'rel. error')

    def __init__(self, size=400, iters=10, max_size=4000, repeats=3, frameworks=None, gpu=False):
        fws = frameworks or available_frameworks()
        self.size = _slider('d2l-size', 'matrix size', size, 16, max_size, 16)
        self.iters = _slider('d2l-iters', 'products', iters, 1, 100, 1)
        self.framework = W.Dropdown(options=fws, value=fws[0], description='framework')
        self.dest = W.ToggleButtons(options=['pageable', 'pinned'], value='pinned', description='destination')
        self.stream = W.ToggleButtons(options=['same', 'side'], value='side', description='stream')
        self.non_blocking = W.Checkbox(value=True, description='non_blocking')
        self.gpu = gpu
        self.repeats = repeats
        controls = [self.size, self.iters, self.framework]
        if gpu:  # the copy choices only mean something where a device-to-host link exists
            controls += [self.dest, self.stream, self.non_blocking]
        super().__init__(controls)

    def plan_name(self):
        """The copy mode the controls describe (GPU only)."""
        return (f'{self.dest.value}, preallocated, {self.stream.value} stream, '
                f"{'non_blocking' if self.non_blocking.value else 'blocking'}")

    def _run_once(self):
        fw = self.framework.value
        plan = None
        if self.gpu and fw == 'torch':
            plan = dict(dest=self.dest.value, alloc='prealloc', stream=self.stream.value,
                        non_blocking=self.non_blocking.value)
        r = experiments.comm(fw, self.size.value, self.iters.value, self.repeats,
                             plan=plan, progress=self._progress)
        self.results.append(r)
        for row in r['rows']:
            self.rows.append([str(len(self.rows) + 1), fw, row['mode'], str(r['size']), str(r['iters']),
                              f"{row['run']:.4f}", f"{row['copy']:.4f}", f"{row['run_then_copy']:.4f}",
                              f"{row['overlapped']:.4f}", f"{row['ideal']:.4f}", f"{row['copy_gbps']:.1f}",
                              f"{row['max_rel_error']:.1e}"])
        self._render_table()
        self._show_figure(plots.plot_comm_bars(r['rows']))


class PipelinePanel:
    """13.3.2 on any machine: a model of K products and copies, with compute and copy times as sliders."""

    def __init__(self, compute_ms=2.6, copy_ms=1.2, iters=10):
        from .schedule import pipeline_model
        self._model = pipeline_model
        style = {'description_width': 'initial'}
        self.compute = W.FloatSlider(value=compute_ms, min=0.1, max=10, step=0.1, description='compute per product (ms)',
                                     continuous_update=False, style=style, layout=W.Layout(width='420px'))
        self.copy = W.FloatSlider(value=copy_ms, min=0.1, max=10, step=0.1, description='copy per result (ms)',
                                  continuous_update=False, style=style, layout=W.Layout(width='420px'))
        self.iters = _slider('d2l-iters', 'products', iters, 1, 50, 1)
        self.summary = W.HTML()
        self.summary.add_class('d2l-results')
        self.plot = W.Output()
        self.plot.add_class('d2l-plot')
        for w in (self.compute, self.copy, self.iters):
            w.observe(lambda _: self.update(), names='value')
        self.box = W.VBox([W.HBox([self.compute, self.copy]), self.iters, self.summary, self.plot])

    def totals(self):
        """Serial, one-stream, two-stream and ideal totals in ms for the current sliders."""
        c, k, n = self.compute.value, self.copy.value, self.iters.value
        one = self._model(c, k, n, overlap=False)
        two = self._model(c, k, n, overlap=True)
        return {'serial': one['serial_total'], 'one stream': one['total'], 'two streams': two['total'],
                'ideal': two['ideal']}, two['events'], one['events']

    def update(self):
        t, two, one = self.totals()
        self.summary.value = ('<table class="d2l-table"><tr>' + ''.join(f'<th>{k}</th>' for k in t) + '</tr><tr>'
                              + ''.join(f'<td>{v:.2f} ms</td>' for v in t.values()) + '</tr></table>')
        from matplotlib.figure import Figure
        fig = Figure(figsize=(9, 3.2))
        ax1, ax2 = fig.subplots(2, 1, sharex=True)
        ms = lambda evs: [dict(e, start=e['start'] / 1e3, end=e['end'] / 1e3) for e in evs]
        plots.draw_timeline(ms(one), ax=ax1, title='one stream: copies wait for products and block the next')
        plots.draw_timeline(ms(two), ax=ax2, title='compute stream + copy stream: copy i-1 during product i')
        fig.tight_layout()
        show_in(self.plot, fig)

    def show(self):
        display(self.box)
        self.update()
        return self
