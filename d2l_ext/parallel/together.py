"""13.3.1: `run_together` (the Build-it's worked solution, in backends.torch_backend) runs every row of `lane_rows`."""
from __future__ import annotations

from dataclasses import dataclass

from ..backends.torch_backend import run, run_together
from ..i18n import t
from ..lanes import make_lane
from .core import row_variants, whole_device

__all__ = ['LaneRows', 'lane_rows', 'run_together']


@dataclass
class LaneRows:
    """13.3.1's rows, every repeat (`cmp`: lanes alone, together, baseline, control), lanes, products, `whole`."""
    cmp: object
    lanes: list
    iters: list
    whole: object
    control: object = None  # the control's lane (one thread), on CPU lanes
    busy: float | None = None

    @property
    def names(self) -> list[str]:
        return list(self.cmp)

    @property
    def alone(self) -> list[float]:
        return [self.cmp[name].median for name in self.names[:len(self.lanes)]]


def lane_rows(run_together, lanes, xs, iters, refs, repeats: int = 5) -> LaneRows:
    """Each lane alone, together, the baseline (the first lane's whole device doing both jobs) and on a CPU the
    control (the same on one thread); interleaved, checked against `refs`, run by `run_together`."""
    from ..checking import check_close
    from ..timing import compare
    whole, jobs = whole_device(lanes[0]), [lambda x=x, k=k: run(x, k) for x, k in zip(xs, iters)]
    run_together(lanes, jobs)  # warm-up
    names = [lane.label for lane in lanes] + [t('parallel.variant.together'), t('parallel.variant.both_jobs',
                                                                                  lane=whole.label)]
    variants = dict(zip(names, row_variants(run_together, lanes, jobs, whole, lambda: run(xs[0], sum(iters))).values()))
    one = whole.kind == 'cpu' and make_lane('torch', 'cpu', 0, threads=1, name='cpu', cores=whole.cores,
                                            label_key='core.lane_cpu_label')
    if one:  # the control: one thread, one core, the baseline's products
        variants[t('parallel.variant.both_jobs', lane=one.label)] = lambda: run_together([one], [lambda: run(
            xs[0], sum(iters))])
    answers = dict(zip(variants, [refs[:1], refs[1:], refs, refs[:1], refs[:1]]))
    cmp = compare(variants, lanes=lanes, repeats=repeats,
                  check=lambda name, out: [check_close(y, r, name) for y, r in zip(out, answers[name])])
    return LaneRows(cmp, list(lanes), list(iters), whole, one or None)
