"""Interactive panels for 13.3.1 and 13.3.2: controls, a Run button, progress, a table that keeps runs.

Pattern (checked headless and in a browser): sliders never start a run by themselves; the panel
runs once with its defaults when shown, so a headless run of the notebook exercises it. A value
outside a control's range is set to the nearest allowed one and the panel says so; a run
estimated above a minute is refused with the estimate; any failure (a worker that died
included) lands in the panel as one line and Run is enabled again. CSS classes (d2l-size,
d2l-iters, d2l-run, d2l-results, d2l-plot) let the browser test find the parts.
"""
from __future__ import annotations

import html

from ..errors import ResultMismatch, UsageError
from ..frameworks import available_frameworks, framework
from ..i18n import t
from . import tables

try:
    import ipywidgets as W
    from IPython.display import display
    MISSING = ''
except ImportError as e:  # `pip install .` without the notebook extra, or a Jupyter without ipywidgets
    W, display, MISSING = None, print, (e.name or 'ipywidgets').partition('.')[0]

LIMIT_S = 60.0  # a panel refuses a run estimated above a minute


class Unavailable:
    """A panel where ipywidgets is missing: `show()` and `run()` print its one-line reason instead of failing.

    Anything else asked of it raises ModuleNotFoundError with that line (a test needing the widgets then skips).
    """

    def __init__(self, panel: str, module: str):
        self.panel, self.module = panel, module
        self.reason = t('panels.no_widgets', panel=panel, module=module)

    def show(self, *args, **kwargs):
        print(self.reason)
        return self

    run = update = show

    def __repr__(self) -> str:
        return self.reason

    def __getattr__(self, name):
        if name.startswith('__'):
            raise AttributeError(name)
        raise ModuleNotFoundError(self.reason, name=self.module)


class _NeedsWidgets:
    """Constructing a panel without ipywidgets gives its Unavailable line, not an ImportError in the learner's cell."""

    def __new__(cls, *args, **kwargs):
        if W is None:
            return Unavailable(cls.__name__, MISSING)
        return super().__new__(cls)


def show_in(out, fig) -> None:
    """Replace what an Output widget shows with a figure (13.3.1-13.3.3 panels).

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


def framework_dropdown(fws):
    """The framework control: each framework shown by its name ('PyTorch', 'MXNet'), its id ('torch') the value."""
    return W.Dropdown(options=[(framework(fw).display, fw) for fw in fws], value=fws[0],
                      description=t('panels.framework'))


class Count:
    """A whole-number control with a range; an out-of-range value is reported, never silently clamped."""

    def __init__(self, cls: str, key: str, value: int, low: int, high: int):
        self.key, self.low, self.high = key, low, high
        self.widget = W.BoundedIntText(value=value, min=-10**9, max=10**9, description=t(key),
                                       style={'description_width': 'initial'}, layout=W.Layout(width='260px'))
        self.widget.add_class(cls)

    def read(self, notes: list[str]) -> int:
        """The value in range; a note for the learner when it had to be changed."""
        v = self.widget.value
        used = min(max(v, self.low), self.high)
        if used != v:
            notes.append(t('panels.out_of_range', what=t(self.key), value=v, low=self.low, high=self.high, used=used))
            self.widget.value = used
        return used


class Panel(_NeedsWidgets):
    """The one panel base (13.3.1-13.3.4): Run, progress, message line, results table, plot; a failure is one line.

    A panel gives its controls, implements `_run_once(notes)` (append lines for the learner to `notes`)
    and shows its table through `show_table` (display.tables.html). `run_key` names the button,
    `interrupted_key` the line after Ctrl-C; `starting()` is what the message line says while it runs;
    `_rows(controls)` lays out the controls, Run and the progress bar above the results.
    """
    run_key = 'panels.run'
    interrupted_key = 'panels.interrupted'

    def __init__(self, controls, *, progress_width: str = '300px'):
        self.run_button = W.Button(description=t(self.run_key), button_style='primary', icon='play')
        self.run_button.add_class('d2l-run')
        self.progress = W.IntProgress(value=0, min=0, max=1, layout=W.Layout(width=progress_width,
                                                                             visibility='hidden'))
        self.message, self.table, self.plot = results_area()
        self.results: list = []
        self.frames: list = []
        self.run_button.on_click(lambda _: self.run())
        self.box = W.VBox([W.HBox(row) for row in self._rows(list(controls))] + [self.message, self.table, self.plot])

    def _rows(self, controls: list) -> list[list]:
        """Three controls in the first row; the rest, Run and the progress bar in the second."""
        return [controls[:3], controls[3:] + [self.run_button, self.progress]]

    def _progress(self, done, total):
        self.progress.max = max(total, 1)
        self.progress.value = min(done, total)

    def show(self, run_now: bool = True):
        """Display the panel and run once with the defaults."""
        display(self.box)
        if run_now:
            self.run()
        return self

    def starting(self) -> str:
        """The message line's HTML while a run works (none by default)."""
        return ''

    def run(self):
        """One experiment with the current control values; never raises into the notebook."""
        self.run_button.disabled = True
        self.progress.layout.visibility = 'visible'
        self.progress.value = 0
        notes: list[str] = []
        self.message.value = self.starting()
        try:
            self._run_once(notes)
        except (UsageError, ResultMismatch) as e:
            notes.append(t('panels.cannot_run', message=e))
        except KeyboardInterrupt:
            notes.append(t(self.interrupted_key))
        except Exception as e:  # WorkerFailed or anything unexpected: one line, and the panel stays usable
            notes.append(t('panels.failed', kind=type(e).__name__, message=e))
        finally:
            self.message.value = '<br>'.join(html.escape(str(n)) for n in notes)
            self.run_button.disabled = False
            self.progress.layout.visibility = 'hidden'

    def _run_once(self, notes: list[str]):
        raise NotImplementedError

    def _options(self):
        """The controls' names, for a refusal that suggests smaller values."""
        return t(self.size.key), t(self.iters.key)

    def show_table(self, table, **style) -> None:
        """Show a table in the panel through the one renderer (display.tables.html; `style` as it takes)."""
        self.table.value = tables.html(table, **style)

    def _add(self, result, number_columns: dict):
        """Keep the run and show every run so far as one table (the result's own to_frame)."""
        self.results.append(result)
        self.show_table(tables.runs(self.frames, result, number_columns))


_Panel = Panel  # the name before issue 22 item 5


class ParallelPanel(Panel):
    """13.3.1: matrix size, products per lane, framework -> each lane alone and all together."""

    def __init__(self, size=400, iters=10, max_size=4000, repeats=3, frameworks=None):
        fws = frameworks or available_frameworks()
        self.size = Count('d2l-size', 'panels.size', size, 16, max_size)
        self.iters = Count('d2l-iters', 'panels.iters', iters, 1, 100)
        self.framework = framework_dropdown(fws)
        self.repeats = repeats
        super().__init__([self.size.widget, self.iters.widget, self.framework])

    def _run_once(self, notes):
        from ..parallel import measure_parallel
        from ..workers import dispatch
        from .parallel import plot_parallel
        size, iters = self.size.read(notes), self.iters.read(notes)
        r = dispatch(measure_parallel, self.framework.value, None, progress=self._progress, size=size, iters=iters,
                     repeats=self.repeats, max_seconds=LIMIT_S, options=self._options())
        self._add(r, {'#': len(self.results) + 1, t('panels.framework'): framework(r.framework).display})
        show_in(self.plot, plot_parallel(r))


class CommPanel(Panel):
    """13.3.2: matrix size, products, framework and (on a GPU) the copy choices -> run, copy, overlapped."""

    def __init__(self, size=400, iters=10, max_size=4000, repeats=3, frameworks=None, gpu=False):
        fws = frameworks or available_frameworks()
        self.size = Count('d2l-size', 'panels.size', size, 16, max_size)
        self.iters = Count('d2l-iters', 'panels.products', iters, 1, 100)
        self.framework = framework_dropdown(fws)
        dests = [(t('panels.dest_pageable'), 'pageable'), (t('panels.dest_pinned'), 'pinned')]
        self.dest = W.ToggleButtons(options=dests, value='pinned', description=t('panels.destination'))
        self.stream = W.ToggleButtons(options=[(t('panels.stream_same'), 'same'), (t('panels.stream_side'), 'side')],
                                      value='side', description=t('panels.stream'))
        self.non_blocking = W.Checkbox(value=True, description=t('panels.non_blocking'))
        self.gpu, self.repeats = gpu, repeats
        controls = [self.size.widget, self.iters.widget, self.framework]
        if gpu:  # the copy choices only mean something where a device-to-host link exists
            controls += [self.dest, self.stream, self.non_blocking]
        super().__init__(controls)

    def _run_once(self, notes):
        from ..communication import measure_comm
        from ..workers import dispatch
        from .communication import plot_comm
        fw = self.framework.value
        plan = None
        if self.gpu and framework(fw).copy_plans:
            plan = dict(dest=self.dest.value, alloc='prealloc', stream=self.stream.value,
                        non_blocking=self.non_blocking.value)
        size, iters = self.size.read(notes), self.iters.read(notes)
        r = dispatch(measure_comm, fw, None, progress=self._progress, size=size, iters=iters, repeats=self.repeats,
                     plan=plan, max_seconds=LIMIT_S, options=self._options())
        self._add(r, {'#': len(self.results) + 1, t('panels.framework'): framework(fw).display})
        show_in(self.plot, plot_comm(r))


class PipelinePanel(_NeedsWidgets):
    """13.3.2 on any machine: a model of K products and copies, compute and copy times as sliders."""

    def __init__(self, compute_ms=2.6, copy_ms=1.2, iters=10):
        style = {'description_width': 'initial'}
        make = lambda v, key: W.FloatSlider(value=v, min=0.1, max=10, step=0.1, description=t(key),  # noqa: E731
                                            continuous_update=False, style=style, layout=W.Layout(width='420px'))
        self.compute, self.copy = make(compute_ms, 'panels.compute_ms'), make(copy_ms, 'panels.copy_ms')
        self.iters = W.IntSlider(value=iters, min=1, max=50, description=t('panels.products'), style=style,
                                 continuous_update=False)
        self.iters.add_class('d2l-iters')
        _, self.summary, self.plot = results_area()
        for w in (self.compute, self.copy, self.iters):
            w.observe(lambda _: self.update(), names='value')
        self.box = W.VBox([W.HBox([self.compute, self.copy]), self.iters, self.summary, self.plot])

    def update(self):
        """Redraw both schedules (one stream; compute stream + copy stream) for the current sliders."""
        import pandas as pd

        from ..depgraph.schedule import pipeline_model
        from . import style
        from .timeline import draw_timeline
        c, k, n = self.compute.value / 1e3, self.copy.value / 1e3, self.iters.value
        one, two = pipeline_model(c, k, n, overlap=False), pipeline_model(c, k, n, overlap=True)
        totals = {t('panels.one_stream'): one['total'], t('panels.two_streams'): two['total']}
        self.summary.value = tables.html(pd.DataFrame([totals]), classes=None,
                                         float_format=lambda v: f"{v * 1e3:.2f} {t('style.unit.ms')}")
        fig, (ax1, ax2) = style.figure(nrows=2)
        roles = lambda evs: [dict(e, role='copy' if 'copy' in e['name'] else 'compute') for e in evs]  # noqa: E731
        rows = {'one stream': style.plot_text('panels.one_stream'),  # the model's row ids, named in the plot language
                'compute stream': style.plot_text('style.role.compute'),
                'copy stream': style.plot_text('style.role.copy')}
        draw_timeline(roles(one['events']), ax=ax1, title=style.plot_text('panels.one_stream_title'), row_labels=rows)
        draw_timeline(roles(two['events']), ax=ax2, title=style.plot_text('panels.two_streams_title'), row_labels=rows)
        show_in(self.plot, fig)

    def show(self):
        """Display the panel and draw the default schedules."""
        display(self.box)
        self.update()
        return self
