"""Untrusted code contained (every "Build it" task): own folder, clean environment, limits, a reaper, and the file
system protected by bubblewrap or Landlock where the machine has one.

A *keeper*, in its own session, makes itself the child subreaper (it adopts what starts a new session, double-forks
or uses nohup), sets the limits, forks the grading process, and when that ends or the grader closes its stdin,
kills and reaps every descendant. Where `bwrap` works, the keeper runs inside it (file system read-only but the
folder, private /tmp, own process ids). Where the kernel has Landlock (landlock.py), the grading process restricts
itself before any learner code runs, for all it starts (13.3.4's gloo processes too): writes only in the folder,
/dev/shm, /dev/null-like and GPU devices, no signal outside (ABI 6+); reads and the network (gloo's TCP) untouched.

Limits (LIMITS; `check --help` prints them): CPU seconds per process, size of a file written, no core files,
resident memory of the whole tree (watched by the grader; RLIMIT_AS too without a GPU), output, the wall bound.
"""
from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import select
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from ..processes import end_with_parent
from . import landlock

LIMITS = {'memory_mb': 4096, 'file_mb': 64, 'output_kb': 1024, 'cpu_factor': 2.0}
# With a GPU the grading process holds CUDA's host memory and the pinned buffers of 13.3.2 at the GPU's sizes
# (measured on an H100: 13.3.2's wrong versions 4,146 MB resident, its worked solution just under 4,096).
GPU_MEMORY_MB = 8192
KEEPER = 'from d2l_ext.grading.sandbox import keeper_main; keeper_main()'
PR_SET_CHILD_SUBREAPER = 36
KEPT_ENV = ('PATH', 'PYTHONPATH', 'LANG', 'LC_ALL', 'LC_CTYPE', 'LD_LIBRARY_PATH', 'CUDA_VISIBLE_DEVICES',
            'CUDA_HOME', 'NVIDIA_VISIBLE_DEVICES', 'OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'VIRTUAL_ENV')


def limits() -> dict:
    """LIMITS, each replaced by D2L_EXT_GRADING_<NAME> when that is set (e.g. D2L_EXT_GRADING_MEMORY_MB=8192)."""
    out = dict(LIMITS)
    if has_gpu():
        out['memory_mb'] = GPU_MEMORY_MB
    for name in LIMITS:
        with contextlib.suppress(KeyError, ValueError):
            out[name] = float(os.environ[f'D2L_EXT_GRADING_{name.upper()}'])
    return out


GPU_NODES = ('/dev/nvidiactl', '/dev/kfd')  # NVIDIA's and AMD's control devices


def gpu_nodes() -> bool:
    """Whether a GPU's device node is here (no CUDA started)."""
    return any(os.path.exists(node) for node in GPU_NODES)


def has_gpu() -> bool:
    """Whether a GPU is visible to the grading process: a device node and CUDA_VISIBLE_DEVICES not emptied."""
    hidden = os.environ.get('CUDA_VISIBLE_DEVICES', None) in ('', '-1')
    return gpu_nodes() and not hidden


def environment(folder: str) -> dict:
    """A clean environment: only what Python, the framework and the GPU need; HOME and TMPDIR the own folder."""
    env = {k: v for k, v in os.environ.items() if k in KEPT_ENV or k.startswith('D2L_EXT_')}  # ours: settings
    root = Path(__file__).resolve().parents[2]
    if root.name not in ('site-packages', 'dist-packages'):  # a checkout: put it first; an install is found anyway
        env['PYTHONPATH'] = os.pathsep.join(p for p in (str(root), env.get('PYTHONPATH')) if p)
    env.setdefault('PATH', os.pathsep.join((str(Path(sys.executable).parent), '/usr/bin', '/bin')))
    env.update(HOME=folder, TMPDIR=folder, MPLBACKEND='Agg', PYTHONDONTWRITEBYTECODE='1', PYTHONNOUSERSITE='1')
    return env


@functools.cache
def bwrap() -> str | None:
    """The path of a working bubblewrap, or None (not installed, or user namespaces not allowed here)."""
    found = shutil.which('bwrap')
    with contextlib.suppress(OSError, subprocess.SubprocessError, TypeError):
        if subprocess.run([found, '--ro-bind', '/', '/', '--dev', '/dev', '--unshare-pid', 'true'],
                          capture_output=True, timeout=10).returncode == 0:
            return found
    return None


def sandbox_name() -> str:
    """What contains the submission's files here ('--help', --json): 'bubblewrap', 'landlock' or 'keeper' (none)."""
    return 'bubblewrap' if bwrap() else 'landlock' if landlock.landlock_abi() else 'keeper'


def command(folder: str) -> list[str]:
    """The keeper's command line, inside bubblewrap where it works."""
    keeper = [sys.executable, '-c', KEEPER]
    found = bwrap()
    if not found:
        return keeper
    return [found, '--ro-bind', '/', '/', '--dev-bind', '/dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp',
            '--bind', folder, folder, '--unshare-pid', '--unshare-ipc', '--die-with-parent', '--chdir', folder,
            '--', *keeper]


# -- processes, from /proc (no psutil needed) ------------------------------------------------------------

def _parents() -> dict[int, int]:
    out = {}
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = Path(f'/proc/{entry}/stat').read_text()
                out[int(entry)] = int(stat.rsplit(')', 1)[1].split()[1])
    return out


def descendants(pid: int) -> list[int]:
    """Every process under `pid` now (children, their children, ...)."""
    parents, found, todo = _parents(), [], [pid]
    children: dict[int, list[int]] = {}
    for child, parent in parents.items():
        children.setdefault(parent, []).append(child)
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def resident_mb(pids) -> float:
    """The resident memory of these processes together, in MiB (a process already gone counts 0)."""
    page, total = os.sysconf('SC_PAGE_SIZE'), 0
    for pid in pids:
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int(Path(f'/proc/{pid}/statm').read_text().split()[1]) * page
    return total / 2 ** 20


def kill_tree(pid: int, *, itself: bool = True) -> None:
    """Stop, then kill every descendant of `pid` (and `pid`), until none is left (a fork loop included)."""
    for _ in range(50):
        found = descendants(pid)
        if not found:
            break
        for p in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(p, signal.SIGSTOP)
        for p in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(p, signal.SIGKILL)
        _reap_all()
    if itself:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)


def _reap_all() -> dict[int, int]:
    """Reap every ended child; {pid: wait status} of those reaped."""
    out = {}
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return out
        if pid == 0:
            return out
        out[pid] = status


def _prctl(option: int, value: int) -> None:
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def set_limits(lim: dict, bound_s: float) -> None:
    """The resource limits of this process and all it starts (see the module's docstring)."""
    import resource
    cores = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else (os.cpu_count() or 1)
    cpu = int(lim['cpu_factor'] * bound_s * cores) + 1
    wanted = [(resource.RLIMIT_CPU, cpu), (resource.RLIMIT_FSIZE, int(lim['file_mb'] * 2 ** 20)),
              (resource.RLIMIT_CORE, 0)]
    if not gpu_nodes():  # a GPU runtime reserves far more address space than it uses
        wanted.append((resource.RLIMIT_AS, int(8 * lim['memory_mb'] * 2 ** 20)))
    for which, value in wanted:
        with contextlib.suppress(ValueError, OSError):
            _, hard = resource.getrlimit(which)
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (value, hard if which != resource.RLIMIT_CORE else value))


# -- the keeper ----------------------------------------------------------------------------------------

def keeper_main() -> None:
    """Read the request (one JSON line on stdin), become the subreaper, fork the grading process, reap all."""
    request = json.loads(sys.stdin.buffer.readline())
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    set_limits(request['limits'], request['bound_s'])
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, signal.SIG_IGN)  # the keeper ends by its own rule, after cleaning up
    me = os.getpid()
    child = os.fork()
    if child == 0:
        end_with_parent(me)  # the keeper gone: this goes too
        os.setpgid(0, 0)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # the grader's stop line stays the keeper's
        from .child import child_main
        child_main(request, me)
        os._exit(0)
    status = None
    while status is None:
        ready, _, _ = select.select([sys.stdin], [], [], 0.1)
        if ready and not os.read(sys.stdin.fileno(), 1024):
            break  # the grader closed it: stop now
        status = _reap_all().get(child)  # the grading process, and adopted orphans that ended
    kill_tree(me, itself=False)
    _reap_all()
    if status is None:
        os._exit(137)
    if os.WIFSIGNALED(status):  # end the same way, so the grader reads the signal
        number = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(number, signal.SIG_DFL)
            import resource
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            os.kill(me, number)
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)
