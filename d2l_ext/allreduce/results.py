"""13.3.4's results: every repeat of every version on every process, profiled intervals, the model predicting them."""
from __future__ import annotations

import statistics
from dataclasses import asdict, dataclass, field

from ..i18n import t
from ..results import Measurement

BASELINES = ('backward', 'allreduce', 'serial', 'flat', 'kept', 'buckets_kept', 'beside')  # controls, not overlaps
AFTER_BACKWARD = ('serial', 'flat', 'kept')  # send once backward has ended: the model gives them no overlap
MIB = 2 ** 20  # DDP's bucket_cap_mb counts MiB
BUCKET_MB = 1.0  # (d)'s bucket size (MiB) when the lesson times it beside DDP's


@dataclass
class Version:
    """One way of taking a step, timed on every process: `times[repeat][process]` in seconds."""
    id: str  # 'backward', 'allreduce', 'serial', 'flat', 'kept', 'hooks', 'ddp-1', ..., or a learner's step's name
    label: str
    bucket_mb: float | None
    times: list[list[float]]
    relative_error: float  # of the gradient the step applied, against float64 (parameters are checked too)
    checked_against: str  # 'whole' minibatch, this process's 'share', or the 'sum' the all-reduce must give
    stats: list[list[dict]] = field(default_factory=list)

    @property
    def step_times(self) -> list[float]:
        """Each repeat's slowest process (the next step waits for it)."""
        return [max(per_process) for per_process in self.times]

    @property
    def measurement(self) -> Measurement:
        return Measurement(self.id, self.step_times)

    @property
    def median(self) -> float:
        return self.measurement.median

    def _all(self, key) -> list[float]:
        return [s[key] for process in self.stats for s in process]

    @property
    def overlap(self) -> float | None:
        """Of the all-reduces' busy time, the share backward computed in (HTA's; pooled); None if nothing sent."""
        comm = sum(self._all('comm'))
        return None if comm <= 0 else min(1.0, max(0.0, sum(self._all('shared')) / comm))

    @property
    def backward_span(self) -> float:
        """Backward's first to last operator: mean over processes, median over profiled steps."""
        steps = list(zip(*self.stats))
        return statistics.median(statistics.mean(s['backward'] for s in step) for step in steps) if steps else 0.0

    @property
    def calls(self) -> int:  # all-reduce calls in one step, as profiled
        return round(statistics.median(self._all('calls'))) if self.stats else 0


def buckets_of(sizes: list[int], bucket_mb: float) -> list[list[int]]:
    """Indices into `sizes` (bytes, backward order) per bucket, as PyTorch's Reducer: closed at `bucket_mb` MiB."""
    out, current, filled = [], [], 0
    for i, size in enumerate(sizes):
        current, filled = current + [i], filled + size
        if filled >= bucket_mb * MIB:
            out.append(current)
            current, filled = [], 0
    return out + ([current] if current else [])


@dataclass
class Prediction:
    """13.3.4's model: a call costs alpha + ring x bytes / bandwidth, waits for its gradients and the call before."""
    processes: int
    gradient_bytes: int
    ring_factor: float  # 2(n-1)/n: the share of the bytes each process sends in a ring all-reduce
    buffer_bytes: int  # the large buffer
    buffer_times: list[float]  # its all-reduce, every repeat (slowest process)
    bus_bandwidth: float  # bytes/s
    allreduce: float  # predicted seconds for the gradients as (a) sends them: one call per tensor
    backward: float  # measured: backward alone, median step (forward, backward and update)
    per_call: float = 0.0  # alpha: seconds a call costs whatever its size
    tensor_bytes: list[int] = field(default_factory=list)  # each gradient's bytes, in backward order
    backward_span: float = 0.0  # backward's operators, first to last (profiled in backward alone; median of steps)

    @classmethod
    def from_measurements(cls, processes, gradient_bytes, buffer_bytes, buffer_times, backward, alone_times,
                          tensor_bytes=None, backward_span=None):
        ring, tensors = 2 * (processes - 1) / processes, list(tensor_bytes or [gradient_bytes])
        large, k = statistics.median(buffer_times), len(tensors)
        # k calls of the gradients (all-reduce alone) against k calls of the buffer: alpha cancels
        per_byte = max((k * large - statistics.median(alone_times)) / (k * buffer_bytes - gradient_bytes), 1e-15)
        alpha = max(0.0, large - buffer_bytes * per_byte)
        return cls(processes, gradient_bytes, ring, buffer_bytes, list(buffer_times), ring / per_byte,
                   k * alpha + gradient_bytes * per_byte, backward, alpha, tensors, backward_span or backward)

    def call(self, nbytes: int) -> float:
        return self.per_call + self.ring_factor * nbytes / self.bus_bandwidth

    def groups(self, vid: str, bucket_mb=None) -> list[int]:
        """The bytes of each call: flat one, DDP and (d) one per bucket, the rest one per gradient."""
        if vid in AFTER_BACKWARD[1:]:  # (b) and its control
            return [self.gradient_bytes]
        bucket_mb = BUCKET_MB if vid in ('buckets', 'buckets_kept') else bucket_mb  # (d) as the lesson times it
        if bucket_mb is not None:  # each bucket's bytes, in sending order
            return [sum(self.tensor_bytes[i] for i in b) for b in buckets_of(self.tensor_bytes, bucket_mb)]
        return list(self.tensor_bytes)

    def schedule(self, vid: str, bucket_mb=None) -> dict:
        """'busy' all-reduce seconds, 'overlap' (their share before backward ends), 'exposed', 'step', 'calls'."""
        span, done, busy, hidden, sent = self.backward_span, 0.0, 0.0, 0.0, 0
        for nbytes in self.groups(vid, bucket_mb):
            sent += nbytes
            # ready when its last gradient is (evenly through backward, by bytes) and the call before has ended
            ready = span if vid in AFTER_BACKWARD else span * sent / self.gradient_bytes
            start = max(ready, done)
            done = start + self.call(nbytes)
            busy += done - start
            hidden += max(0.0, min(done, span) - start)
        exposed = max(0.0, done - span)
        return {'busy': busy, 'overlap': hidden / busy if busy > 0 else 0.0, 'exposed': exposed,
                'step': self.backward + exposed, 'calls': len(self.groups(vid, bucket_mb))}


@dataclass
class AllreduceResult:
    """Everything one run of 13.3.4 measured; `to_dict()` gives JSON."""
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
    events: dict[str, list[dict]] = field(default_factory=dict)  # version id -> timeline events (median profiled step)
    cores: int = 0  # cores the run had (fewer than processes: they took turns)
    tolerance: float = 0.0  # the gradient check's relative tolerance (worker.gradient_tolerance)

    def __post_init__(self):  # the model fitted to this run's own calls, a recording's from its raw repeats
        p = self.prediction if isinstance(self.prediction, dict) else asdict(self.prediction)
        alone = self.version('backward')
        self.prediction = Prediction.from_measurements(
            p['processes'], p['gradient_bytes'], p['buffer_bytes'], p['buffer_times'], alone.median,
            self.version('allreduce').step_times, p.get('tensor_bytes'), alone.backward_span or p.get('backward_span'))

    def version(self, vid: str) -> Version:
        return next(v for v in self.versions if v.id == vid)

    def has(self, vid: str) -> bool:
        return any(v.id == vid for v in self.versions)

    def ddp_versions(self) -> list[Version]:
        return [v for v in self.versions if v.bucket_mb is not None]

    def one_bucket(self, version) -> bool:  # DDP's whole gradient in one bucket: sent once backward has ended
        return version.bucket_mb is not None and len(buckets_of(self.prediction.tensor_bytes, version.bucket_mb)) == 1

    def predicted(self, vid: str) -> dict:
        """The model's schedule of a version (DDP with one bucket is (b)'s one call)."""
        v, p = self.version(vid), self.prediction
        return p.schedule('flat' if self.one_bucket(v) else vid, v.bucket_mb)

    def slowdown(self, vid: str) -> float | None:
        """Backward's span here / in backward alone (profiled): above 1, sending slowed it."""
        alone, mine = (self.version(v).backward_span if self.has(v) else 0.0 for v in ('backward', vid))
        return mine / alone if alone > 0 and mine > 0 else None

    def overlap_row(self, vid: str) -> dict:
        """One version's overlap measured and predicted, the wall clock against (a), and what explains them."""
        v = self.version(vid)
        return {'measured': v.overlap, 'predicted': self.predicted(vid)['overlap'],
                'wall_clock_s': self.version('serial').median - v.median if self.has('serial') else None,
                'comm_s': statistics.mean(v._all('comm') or [0.0]), 'backward_slowdown': self.slowdown(vid),
                'calls': v.calls, 'predicted_calls': self.predicted(vid)['calls']}  # comm_s: busy, one step

    def to_dict(self) -> dict:
        """JSON-ready: the fields, each version's step times and median, the overlap rows."""
        d = asdict(self)
        for v, row in zip(self.versions, d['versions']):
            row.update(step_times=v.step_times, median=v.median)
        d['overlap'] = {v.id: self.overlap_row(v.id) for v in self.versions if v.id not in ('backward', 'allreduce')}
        return d

    def summary(self) -> str:
        """The lines printed after a run: each version, the model, the overlap's numbers, the traces."""
        p = self.prediction
        lines = [t('allreduce.summary.head', processes=self.processes, backend=self.backend, layers=self.layers,
                   width=self.width, batch=self.batch_per_process, mb=p.gradient_bytes / MIB)]
        lines += [t('allreduce.summary.version', label=v.label, median=v.median, error=v.relative_error,
                    repeats=len(v.times)) for v in self.versions]
        lines.append(t('allreduce.summary.model', alpha=p.per_call * 1e3, gbps=p.bus_bandwidth / 1e9,
                       ring=p.ring_factor))
        lines += [t('allreduce.summary.overlap', measured=v.overlap, predicted=self.predicted(v.id)['overlap'],
                    label=t('allreduce.version.one_bucket', mb=v.bucket_mb) if self.one_bucket(v) else v.label)
                  for v in self.versions if v.id not in BASELINES and v.overlap is not None]
        lines += [t('allreduce.summary.trace', label=self.version(vid).label, rank=r, path=path)
                  for vid, paths in self.traces.items() for r, path in enumerate(paths) if path]
        return '\n'.join(lines)


def result_from_dict(d: dict) -> AllreduceResult:
    """An AllreduceResult back from to_dict()'s JSON (a recording's run)."""
    versions = [Version(**{k: v for k, v in row.items() if k in Version.__dataclass_fields__}) for row in d['versions']]
    fields = {k: v for k, v in d.items() if k in AllreduceResult.__dataclass_fields__}
    return AllreduceResult(**{**fields, 'versions': versions, 'prediction': d['prediction']})
