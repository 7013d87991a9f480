"""Landlock (Linux 5.13+): the grading process (child.py) keeps its writes, and those of all it starts, in its folder.

Through ctypes: Python's standard library has no binding for Landlock's three system calls, which have the same
numbers (444-446) on every architecture, and a dependency for 40 lines is not worth it. Only writes are handled
(reads, programs and the network stay allowed: gloo's TCP on localhost); see `landlock` for what may be written.
"""
from __future__ import annotations

import contextlib
import ctypes
import glob
import os
import struct

PR_SET_NO_NEW_PRIVS = 38
WRITES = 0x1FF2  # write a file; remove a file or folder; make a folder, file, socket, fifo, device or link
REFER, TRUNCATE = 0x2000, 0x4000  # moving a file across folders (ABI 2), truncating one (ABI 3)
SCOPE_SIGNAL = 2  # ABI 6: no signal to a process outside (the keeper, the grader, the user's other programs)
# The devices it may write to (not a disk, even as root): the usual ones, and a GPU's
DEVICES = ('/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/nvidia*', '/dev/nvidia-caps',
           '/dev/dri', '/dev/kfd')


def _syscall(*args) -> int:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.syscall.restype = ctypes.c_long
    got = libc.syscall(*[a if isinstance(a, ctypes.Array) else ctypes.c_long(a) for a in args])
    if got < 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return got


def landlock_abi() -> int:
    """The kernel's Landlock version (0: none, or not Linux)."""
    with contextlib.suppress(OSError, AttributeError, TypeError):
        return _syscall(444, 0, 0, 1)  # landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION)
    return 0


def landlock(folder: str) -> bool:
    """From now on, for this process and all it starts: writes only in `folder`, /dev/shm, DEVICES and the folders in
    D2L_EXT_GRADING_WRITABLE (os.pathsep between), no signal outside; False without Landlock, OSError if it fails."""
    abi = landlock_abi()
    if not abi:
        return False
    handled = WRITES | (REFER if abi >= 2 else 0) | (TRUNCATE if abi >= 3 else 0)
    attr = struct.pack('=QQQ', handled, 0, SCOPE_SIGNAL) if abi >= 6 else struct.pack('=Q', handled)
    ruleset = _syscall(444, ctypes.create_string_buffer(attr, len(attr)), len(attr), 0)
    try:
        extra = [p for p in os.environ.get('D2L_EXT_GRADING_WRITABLE', '').split(os.pathsep) if p]
        devices = [(d, handled & (TRUNCATE | 2)) for pattern in DEVICES for d in glob.glob(pattern)]
        own = os.path.realpath('/proc/self')  # its own /proc entry: CUDA writes there (cudaGetDeviceCount fails else)
        for path, allowed in ((folder, handled), ('/dev/shm', handled), (own, handled & (TRUNCATE | 2)), *devices,
                              *((p, handled) for p in extra)):
            with contextlib.suppress(FileNotFoundError):
                fd = os.open(path, os.O_PATH | os.O_CLOEXEC)
                try:  # struct landlock_path_beneath_attr (packed): allowed rights, the folder's descriptor
                    _syscall(445, ruleset, 1, ctypes.create_string_buffer(struct.pack('=Qi', allowed, fd), 12), 0)
                finally:
                    os.close(fd)
        if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0):  # required before restricting
            raise OSError(ctypes.get_errno(), 'prctl(PR_SET_NO_NEW_PRIVS)')
        _syscall(446, ruleset, 0)  # landlock_restrict_self
    finally:
        os.close(ruleset)
    return True
