"""What this machine has: cores, free memory, GPUs, versions, where and when (used by every section)."""
from __future__ import annotations

import datetime as _dt
import importlib.util
import os
import platform

from .errors import UsageError

FAKE: dict = {}  # set by lanes.fake_hardware() in tests: {'gpus': n, 'cores': n}


def cpu_cores() -> int:
    """Cores this process may use (affinity-aware, unlike os.cpu_count()), or fake_hardware's count in tests."""
    if 'cores' in FAKE:
        return FAKE['cores']
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


def free_host_bytes() -> int:
    """Host memory available for new allocations, from /proc/meminfo where it exists."""
    try:
        with open('/proc/meminfo') as f:
            for line in f:
                if line.startswith('MemAvailable:'):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        return os.sysconf('SC_AVPHYS_PAGES') * os.sysconf('SC_PAGE_SIZE')
    except (ValueError, OSError, AttributeError):
        return 8 << 30  # unknown: assume a modest laptop


def has_framework(name: str) -> bool:
    """True if the framework (or any module) can be imported here (without importing it)."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):  # a parent package missing, or a module blocked (sys.modules[name] = None)
        return False


def versions() -> dict:
    """Versions that matter for the measurements, for labelling results."""
    out = {'python': platform.python_version()}
    for mod in ('torch', 'numpy', 'mxnet', 'd2l'):
        if has_framework(mod):
            try:
                from importlib.metadata import version
                out[mod] = version(mod)
            except Exception:  # a source tree without metadata
                out[mod] = 'unknown'
    return out


def gpu_names_torch() -> list[str]:
    """Names of the CUDA GPUs PyTorch sees (empty without one)."""
    if not has_framework('torch'):
        return []
    import torch
    return [torch.cuda.get_device_name(i) for i in range(torch.cuda.device_count())]


def provenance() -> dict:
    """Where and when a result was measured: host, CPU, GPUs, driver, CUDA, versions, date."""
    info = {
        'date': _dt.datetime.now(_dt.UTC).isoformat(timespec='seconds'),
        'host_cpu': platform.processor() or platform.machine(),
        'cpu_cores': cpu_cores(),
        'platform': platform.platform(terse=True),
        'versions': versions(),
        'gpus': gpu_names_torch(),
    }
    if info['gpus']:
        import torch
        info['cuda'] = torch.version.cuda
        info['driver'] = _nvidia_driver()
    return info


def _nvidia_driver() -> str | None:
    try:
        import subprocess
        out = subprocess.run(['nvidia-smi', '--query-gpu=driver_version', '--format=csv,noheader'],
                             capture_output=True, text=True, timeout=20)
        return out.stdout.strip().splitlines()[0] if out.returncode == 0 and out.stdout.strip() else None
    except Exception:
        return None


# names of the counts every section validates -> their catalogue keys (the message is translated)
_COUNTS = {'matrix size': 'core.what_size', 'iteration count': 'core.what_iters', 'repeats': 'core.what_repeats'}


def positive_int(value, what: str, hint: str | None = None, *, option: str | None = None, example=None) -> int:
    """Validate a size or count from a user (every section); the error says what to change, in the learner's language.

    `what`: 'matrix size', 'iteration count', 'repeats' or a translated name; with `option` (a CLI flag or a
    control's name) the hint is `pass a positive <option>, e.g. <example>`."""
    from .i18n import t
    if option is not None:
        hint = t('core.positive_hint', option=option, example=example)
    hint = hint or t('core.positive_any')
    name = t(_COUNTS[what]) if what in _COUNTS else what
    try:
        v = int(value)
        whole = v == value or isinstance(value, str)
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise UsageError(t('core.not_whole', what=name, value=repr(value), hint=hint))
    if v <= 0:
        raise UsageError(t('core.not_positive', what=name, value=v, hint=hint))
    return v


def cpu_steal_seconds() -> float:
    """CPU time the hypervisor gave to other machines, summed over cores (Linux /proc/stat; benchmarks)."""
    try:
        with open('/proc/stat') as f:
            fields = f.readline().split()
        return int(fields[8]) / os.sysconf('SC_CLK_TCK')
    except (OSError, IndexError, ValueError):
        return float('nan')


# -- one core, said plainly (issue 35): the CLI, the lessons and the grader use these two, nothing else -------

NOISE_S = 1e-3  # below about a millisecond a timing is mostly the clock and the scheduler: called noise
TURNS = {'lanes': 'machine.turns_lanes', 'processes': 'machine.turns_processes', 'threads': 'machine.turns_threads'}


def turns_line(needed: int, cores: int | None = None, what: str = 'lanes') -> str:
    """The one line for work that needs more cores than this machine gives, or '' when each gets a core of its own:
    turns_line(2, 1) -> 'this machine has 1 core for 2 lanes: they take turns, so no overlap or speedup can be
    measured here'. `what`: 'lanes' (13.3.1, 13.3.3), 'processes' (13.3.4's ranks) or 'threads' (13.3.2 on a CPU);
    `cores` defaults to cpu_cores(). Print it instead of, or right beside, any overlap or speedup of that work."""
    from .i18n import t
    have = cpu_cores() if cores is None else int(cores)
    if have >= needed:
        return ''
    count = t('machine.one_core') if have == 1 else t('machine.cores', count=have)
    return t(TURNS[what], cores=count, needed=needed)


def noise_line(*seconds: float) -> str:
    """One line saying times below NOISE_S are noise when any of `seconds` is below it, else ''."""
    from .i18n import t
    if any(s is not None and 0 <= s < NOISE_S for s in seconds):
        return t('machine.noise', ms=f'{NOISE_S * 1e3:g}')
    return ''
