"""13.3.4's typed results: every repeat of every version on every process, the prediction, the timelines."""
from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field

from ..i18n import t

# Versions that are not a way of overlapping: what the hidden fraction is measured against.
BASELINES = ('backward', 'nosync', 'allreduce', 'serial')


@dataclass
class Version:
    """One way of taking a step, timed on every process: `times[repeat][process]` in seconds."""
    id: str  # 'backward', 'allreduce', 'serial', 'hooks', 'ddp-1', or the name of a learner's step
    label: str
    bucket_mb: float | None
    times: list[list[float]]
    relative_error: float  # of the gradient the step applied, against float64 (parameters are checked too)
    checked_against: str  # 'whole' minibatch, this process's 'share', or the 'sum' the all-reduce must give

    @property
    def step_times(self) -> list[float]:
        """Each repeat's step time: the slowest process, since the next step waits for it."""
        return [max(per_process) for per_process in self.times]

    @property
    def median(self) -> float:
        return statistics.median(self.step_times)


@dataclass
class Prediction:
    """13.3.4's model: a ring all-reduce moves 2(n-1)/n of the bytes over the bandwidth measured here."""
    processes: int
    gradient_bytes: int
    ring_factor: float  # 2(n-1)/n
    buffer_bytes: int  # the big buffer that measured the bandwidth
    buffer_times: list[float]  # its all-reduce, every repeat (slowest process)
    bus_bandwidth: float  # bytes/s: ring_factor * buffer_bytes / median buffer time
    allreduce: float  # predicted seconds for the gradients
    backward: float  # measured: backward alone, median
    serial: float  # backward + all-reduce
    overlapped: float  # max(backward, all-reduce): the best any overlap can do

    @classmethod
    def from_measurements(cls, processes, gradient_bytes, buffer_bytes, buffer_times, backward):
        ring = 2 * (processes - 1) / processes
        bus = ring * buffer_bytes / statistics.median(buffer_times)
        allreduce = ring * gradient_bytes / bus
        return cls(processes, gradient_bytes, ring, buffer_bytes, list(buffer_times), bus, allreduce,
                   backward, backward + allreduce, max(backward, allreduce))

    def for_version(self, vid: str) -> float:
        """The predicted step time of a version: a baseline's own, else the best overlap."""
        return {'backward': self.backward, 'nosync': self.backward, 'allreduce': self.allreduce,
                'serial': self.serial}.get(vid, self.overlapped)


@dataclass
class AllreduceResult:
    """Everything one run of 13.3.4 measured; `asdict` gives JSON, `to_frame()` a table."""
    backend: str
    processes: int
    devices: list[str]
    layers: int
    width: int
    batch_per_process: int
    warmup: int
    versions: list[Version]
    prediction: Prediction
    traces: dict[str, list[str]] = field(default_factory=dict)  # version id -> Chrome trace per process
    events: dict[str, list[dict]] = field(default_factory=dict)  # version id -> timeline events

    def version(self, vid: str) -> Version:
        """The version with this id ('serial', 'hooks', 'ddp-1', ...)."""
        return next(v for v in self.versions if v.id == vid)

    def ddp_versions(self) -> list[Version]:
        return [v for v in self.versions if v.bucket_mb is not None]

    def best_ddp(self) -> Version | None:
        """The DistributedDataParallel bucket size with the fastest median step."""
        return min(self.ddp_versions(), key=lambda v: v.median, default=None)

    def hidden_fraction(self, vid: str) -> float:
        """Share of the all-reduce that overlap hid: (backward then all-reduce - this) / all-reduce alone."""
        serial, alone = self.version('serial').median, self.version('allreduce').median
        return (serial - self.version(vid).median) / alone

    def to_frame(self):
        """One row per version: every repeat's step time, median, spread, error; the prediction beside it."""
        import pandas as pd
        rows = []
        for v in self.versions:
            s = v.step_times
            q = statistics.quantiles(s, n=4, method='inclusive') if len(s) > 1 else [s[0], s[0], s[0]]
            rows.append({t('allreduce.col.version'): v.label, t('allreduce.col.median'): v.median,
                         t('allreduce.col.iqr'): q[2] - q[0], t('allreduce.col.min'): min(s),
                         t('allreduce.col.max'): max(s),
                         t('allreduce.col.predicted'): self.prediction.for_version(v.id),
                         t('allreduce.col.error'): v.relative_error,
                         t('allreduce.col.times'): ' '.join(f'{x:.4f}' for x in s)})
        return pd.DataFrame(rows).set_index(t('allreduce.col.version'))

    def to_dict(self) -> dict:
        """JSON-ready: the dataclass fields, plus each version's median and the hidden fractions."""
        d = asdict(self)
        for v, row in zip(self.versions, d['versions']):
            row['step_times'] = v.step_times
            row['median'] = v.median
        serial = any(v.id == 'serial' for v in self.versions)  # the hidden fraction is measured against (a)
        d['hidden_fraction'] = {v.id: self.hidden_fraction(v.id) for v in self.versions
                                if serial and v.id not in BASELINES}
        best = self.best_ddp()
        d['best_ddp'] = None if best is None else {'id': best.id, 'bucket_mb': best.bucket_mb}
        return d

    def summary(self) -> str:
        """The lines a learner reads after a run: each version, the bandwidth, the prediction, what was hidden."""
        p = self.prediction
        lines = [t('allreduce.summary.head', processes=self.processes, backend=self.backend, layers=self.layers,
                   width=self.width, batch=self.batch_per_process, mb=p.gradient_bytes / 1e6)]
        lines += [t('allreduce.summary.version', label=v.label, median=v.median, error=v.relative_error,
                    repeats=len(v.times)) for v in self.versions]
        lines.append(t('allreduce.summary.bandwidth', buffer_mb=p.buffer_bytes / 1e6,
                       seconds=statistics.median(p.buffer_times), gbps=p.bus_bandwidth / 1e9, ring=p.ring_factor))
        lines.append(t('allreduce.summary.predicted', allreduce=p.allreduce, serial=p.serial, overlapped=p.overlapped))
        overlapped = [v for v in self.versions if v.id == 'hooks'] + ([self.best_ddp()] if self.best_ddp() else [])
        if not any(v.id == 'serial' for v in self.versions):
            overlapped = []
        lines += [t('allreduce.summary.hidden', label=v.label, fraction=self.hidden_fraction(v.id)) for v in overlapped]
        labels = {v.id: v.label for v in self.versions}
        lines += [t('allreduce.summary.trace', label=labels[vid], rank=r, path=path)
                  for vid, paths in self.traces.items() for r, path in enumerate(paths)]
        return '\n'.join(lines)
