"""13.3.4's panel: pick a DDP bucket size, press Run, see the step timed and one step's timeline per process.

Built on display.panels.Panel (the one panel base): the slider never starts a run by itself; the panel runs
once with its defaults when shown (so a headless run of the notebook exercises it), or starts from a run
already made; Run is disabled while the processes work; bad input, a process that died or a wrong result
lands as one line in the output area and Run is enabled again. Every run stays in the table. CSS classes
for the browser test: d2l-size (bucket size), d2l-run, d2l-results, d2l-plot.
"""
from __future__ import annotations

import html

import ipywidgets as W
from IPython.display import display

from ..errors import UsageError
from ..i18n import t
from . import allreduce_sums as sums
from . import style
from .allreduce import draw_step_timeline, overlap_sentence
from .allreduce_buckets import plot_buckets
from .panels import Panel, show_in

BUCKETS_MB = (0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 25.0, 50.0)


class BucketPanel(Panel):
    """13.3.4: bucket size -> backward alone, all-reduce alone, (a), the flat control and DDP at that size, timed,
    checked and profiled; every run so far drawn beside the per-call overhead + bandwidth model's line.

    `steps`: the versions besides DDP and the flat control (default: the lesson's (a), which the wall-clock
    difference is measured against); the other arguments go to run_allreduce as they are.
    """
    interrupted_key = 'allreduce.panel.interrupted'

    def __init__(self, backend='gloo', world_size=None, bucket_mb=1.0, steps=None, repeats=3, **sizes):
        from ..allreduce import steps as reference
        if bucket_mb not in BUCKETS_MB:
            raise UsageError(t('allreduce.panel.bucket_choice', mb=bucket_mb, sizes=', '.join(f'{b:g}' for b in
                                                                                          BUCKETS_MB)))
        self.options = dict(backend=backend, world_size=world_size, repeats=repeats, **sizes)
        self.steps = steps or {'serial': reference.backward_then_allreduce}
        self.bucket = W.SelectionSlider(options=[(f'{mb:g} MiB', mb) for mb in BUCKETS_MB], value=bucket_mb,
                                        description=t('allreduce.panel.bucket'), continuous_update=False,
                                        style={'description_width': 'initial'}, layout=W.Layout(width='460px'))
        self.bucket.add_class('d2l-size')
        self.rows: list[dict] = []
        self.figure = None
        super().__init__([self.bucket], progress_width='240px')

    def _rows(self, controls: list) -> list[list]:
        """The slider, Run and the progress bar in one row."""
        return [controls + [self.run_button, self.progress]]

    def starting(self) -> str:
        return f"<i>{html.escape(t('allreduce.panel.running', mb=self.bucket.value))}</i>"

    def _report(self, report):
        if report.get('rank') == 0 and report.get('phase') == 'repeat':
            self._progress(report['repeat'], report['of'])

    def _run_once(self, notes: list[str]):
        """One run at the slider's bucket size (Panel.run turns any failure into one line)."""
        from ..allreduce import run_allreduce
        # no trace folder: the timeline and the overlap come from the profiled steps' events
        r = run_allreduce(bucket_mb=self.bucket.value, steps=self.steps, progress=self._report, **self.options)
        self.results.append(r)
        self._add_row(r, r.best_ddp())
        self._draw(r, r.best_ddp())
        notes.append(overlap_sentence(r, r.best_ddp()))

    def _add_row(self, r, ddp):
        """Show every run so far as one table: the overlap's three numbers per bucket size (`ddp`: r's version)."""
        import pandas as pd
        row = r.overlap_row(ddp.id)
        seconds = {t('allreduce.panel.col_seconds', label=t(f'allreduce.version.{vid}')): r.version(vid).median
                   for vid in ('backward', 'serial', 'flat')}
        slowdown, overlap = row['backward_slowdown'], row['measured']
        self.rows.append({'#': len(self.rows) + 1, t('allreduce.panel.col_bucket'): f'{ddp.bucket_mb:g}',
                          t('allreduce.panel.col_buckets'): row['calls'],
                          t('allreduce.panel.col_overlap'): '-' if overlap is None else f'{overlap:.0%}',
                          t('allreduce.panel.col_model'): f"{row['predicted']:.0%}",
                          # from the two medians as the table prints them (4 places of a second: 0.1 ms)
                          t('allreduce.panel.col_gain'): sums.fmt(sums.minus(r.version('serial').median, ddp.median,
                                                                             1), 1, sign=True),
                          t('allreduce.panel.col_slowdown'): '-' if slowdown is None else f'{slowdown:.2f}',
                          **seconds, t('allreduce.panel.col_ddp'): ddp.median})
        self.show_table(pd.DataFrame(self.rows), float_format=lambda v: f'{v:.4f}')

    def _draw(self, r, ddp):
        fig, (top, bottom) = style.figure(nrows=2, height=7.6)
        draw_step_timeline(r, ddp.id, ax=top)
        plot_buckets(self.results, sizes=BUCKETS_MB, ax=bottom)  # every run so far, the model at every size
        self.figure = fig
        show_in(self.plot, fig)  # not `with self.plot:` (see panels.show_in)

    def show(self, run_now: bool = True, first=None):
        """Display the panel and run once with the default bucket size; or, given `first` (a run already made
        with DDP at several bucket sizes), start from its rows instead of starting processes again."""
        if first is None or not first.ddp_versions():
            return super().show(run_now)
        display(self.box)
        self.results.append(first)
        for v in sorted(first.ddp_versions(), key=lambda v: v.bucket_mb):
            self._add_row(first, v)
        shown = next((v for v in first.ddp_versions() if v.bucket_mb == self.bucket.value), first.best_ddp())
        self._draw(first, shown)
        self.message.value = html.escape(overlap_sentence(first, shown))
        return self
