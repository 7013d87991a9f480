"""Checking answers (every section): each timed result against a float64 reference, for PyTorch, NumPy and MXNet
arrays alike; a fast wrong answer must never reach a table, so `check_close` raises instead of returning a flag."""
from __future__ import annotations

from .errors import ResultMismatch


def _is_torch(a) -> bool:
    return type(a).__module__.startswith('torch')


def _as_numpy64(a):
    import numpy
    if _is_torch(a):
        return a.detach().cpu().double().numpy()
    if hasattr(a, 'asnumpy'):  # an MXNet array: asnumpy() waits for the engine to finish it
        a = a.asnumpy()
    return numpy.asarray(a, dtype=numpy.float64)


def _items(results) -> list:
    return list(results) if isinstance(results, (list, tuple)) else [results]


def relative_error(results, reference) -> float:
    """Worst ||y - ref|| / ||ref|| over one result or a list of them, in float64 (every section): PyTorch results on
    the reference's device (no host copy of a GPU reference), anything else on the host with NumPy."""
    items = _items(results)
    if not items:
        from .i18n import t
        raise ValueError(t('core.no_results'))
    if _is_torch(reference) and all(_is_torch(y) for y in items):
        ref = reference.detach().double()
        ref_norm = ref.norm().item()
        return max((y.detach().to(ref.device).double() - ref).norm().item() / ref_norm for y in items)
    import numpy
    ref = _as_numpy64(reference)
    ref_norm = float(numpy.linalg.norm(ref))
    return max(float(numpy.linalg.norm(_as_numpy64(y) - ref)) / ref_norm for y in items)


# Results of no registered framework (NumPy arrays) are checked as strictly as an fp32 product.
STRICT_TOLERANCE = 1e-4


def default_tolerance(results) -> float:
    """The relative error the results' framework allows (its registry entry, d2l_ext.frameworks: one home)."""
    from .frameworks import framework, known
    items = _items(results)
    root = type(items[0]).__module__.split('.')[0] if items else ''
    name = next((n for n in known() if framework(n).module == root), None)
    return framework(name).tolerance() if name else STRICT_TOLERANCE


def check_close(results, reference, what: str, tol: float | None = None) -> float:
    """Raise ResultMismatch (one line) unless every result matches the reference; return the worst error."""
    from .i18n import t
    tol = default_tolerance(results) if tol is None else tol
    err = relative_error(results, reference)
    if not err <= tol:  # also catches NaN
        raise ResultMismatch(t('core.mismatch', what=what, error=err, tol=tol))
    return err
