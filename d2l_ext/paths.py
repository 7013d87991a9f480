"""Output paths checked before the work and results never lost after it (CLI `record --out`, `allreduce --trace-dir`).

Checked by trying, not by asking: os.access says yes to root for /sys and /proc, where creating a
file fails anyway, so a folder counts as writable only once a file was created and removed there.
"""
from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from .errors import UsageError
from .i18n import t


def _refusal(e: OSError, path: Path, option: str) -> UsageError:
    """The one line for a path that cannot be written: a file above it, or the system's reason."""
    if isinstance(e, NotADirectoryError):
        return UsageError(t('cli.path_under_file', path=path, option=option))
    return UsageError(t('cli.path_cannot_write', path=path, option=option, reason=e.strerror or type(e).__name__,
                        suggestion=_suggestion(option)))


def _stat(path: Path, option: str):
    """os.stat of path (following links), None when nothing is there; a file above it is refused."""
    try:
        return os.stat(path)
    except FileNotFoundError:
        if os.path.lexists(path):  # a link to nothing: writing would create its target somewhere else
            raise UsageError(t('cli.path_dangling', path=path, option=option)) from None
        return None
    except OSError as e:
        raise _refusal(e, path, option) from None


# What a path that is not a folder is, in words (a FIFO and /dev/null were both called 'a file').
KINDS = {'file': 'cli.kind_file', 'device': 'cli.kind_device', 'fifo': 'cli.kind_fifo', 'socket': 'cli.kind_socket',
         'other': 'cli.kind_other'}


def kind_of(mode: int) -> str:
    """'file', 'device', 'fifo', 'socket' or 'other' for an os.stat mode that is not a folder."""
    for test, kind in ((stat.S_ISREG, 'file'), (stat.S_ISCHR, 'device'), (stat.S_ISBLK, 'device'),
                       (stat.S_ISFIFO, 'fifo'), (stat.S_ISSOCK, 'socket')):
        if test(mode):
            return kind
    return 'other'


def _probe(folder: Path) -> None:
    """Create and remove a file in `folder` (tried, not asked); OSError where that fails."""
    fd, probe = tempfile.mkstemp(prefix='.d2l_ext-probe-', dir=folder)
    os.close(fd)
    os.unlink(probe)


def writable_place(name: str, near=None) -> Path:
    """`name` in the first folder that takes a new file: `near`, the current folder, home, the temp folder."""
    folders = ([Path(near)] if near is not None else []) + [Path.cwd(), Path.home(), Path(tempfile.gettempdir())]
    for folder in folders:
        with contextlib.suppress(OSError):
            if folder.is_dir():
                _probe(folder)
                return folder / name
    return Path(tempfile.gettempdir()) / name


def _suggestion(option: str, near=None) -> Path:
    return writable_place('d2l_ext-traces' if option == '--trace-dir' else 'recording.json', near)


def try_folder(folder, option: str, *, create: bool = False) -> Path:
    """Create (if `create`) and prove `folder` writable by creating and removing a file there; else one line."""
    folder = Path(folder).expanduser()
    st = _stat(folder, option)
    if st is not None and not stat.S_ISDIR(st.st_mode):
        raise UsageError(t('cli.path_is_file', path=folder, option=option, kind=t(KINDS[kind_of(st.st_mode)]),
                           suggestion=_suggestion(option)))
    if st is None and not create:
        raise UsageError(t('cli.out_no_folder', folder=folder))
    try:
        if st is None:
            folder.mkdir(parents=True, exist_ok=True)
        _probe(folder)
    except OSError as e:
        raise _refusal(e, folder, option) from None
    return folder


def check_output_file(path, force: bool = False, option: str = '--out') -> Path:
    """The file `record` will write: a new name or a regular file (with force); never a device, pipe or socket.

    A link to a regular file is followed (the file it names is written). The folder is tried for writing.
    """
    path = Path(path).expanduser()
    st = _stat(path, option)
    if st is not None:
        if stat.S_ISDIR(st.st_mode):  # a file name in it, if it takes files (not /sys/kernel), else elsewhere
            raise UsageError(t('cli.out_is_dir', path=path, suggestion=_suggestion(option, near=path)))
        if not stat.S_ISREG(st.st_mode):  # /dev/null, a pipe, a socket: never replaced, even with --force
            raise UsageError(t('cli.out_not_regular', path=path, option=option, kind=t(KINDS[kind_of(st.st_mode)]),
                               suggestion=_suggestion(option)))
        if not force:
            raise UsageError(t('cli.out_exists', path=path))
        path = path.resolve()
        try:
            with open(path, 'ab'):  # appending nothing changes nothing, and proves the file writable
                pass
        except OSError as e:
            raise _refusal(e, path, option) from None
    try_folder(path.parent, option)
    return path


def _write_new(path: Path, text: str) -> None:
    """Write text to a name that does not exist yet (never over anything)."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    with os.fdopen(fd, 'w', encoding='utf-8') as f:
        f.write(text)


def _write_replacing(path: Path, text: str) -> None:
    """Write text beside `path` and move it into place: an interrupted write leaves the old file whole."""
    st = _stat(path, '--out')
    if st is not None and not stat.S_ISREG(st.st_mode):  # became a device or pipe while we measured
        raise OSError(0, t('cli.not_a_regular_file'))
    part = path.with_name(f'.{path.name}.part')
    try:
        _write_new(part, text)
        os.replace(part, path)
    finally:
        with contextlib.suppress(OSError):
            part.unlink()


def _spare_name(folder: Path, name: str) -> Path:
    stem, suffix = os.path.splitext(name)
    for i in range(1000):
        candidate = folder / (name if i == 0 else f'{stem}-{i}{suffix}')
        if not os.path.lexists(candidate):
            return candidate
    return folder / f'{stem}-{os.getpid()}{suffix}'


def save_text(path, text: str) -> tuple[Path, str | None]:
    """Write text to `path`; if that fails, to a new file in the current folder, else the temp folder.

    Returns (where it was written, why `path` failed or None). Raises OSError only if all three fail.
    """
    path = Path(path)
    try:
        _write_replacing(path, text)
        return path, None
    except (OSError, UsageError) as e:
        reason = (e.strerror or type(e).__name__) if isinstance(e, OSError) else str(e)
    for folder in (Path.cwd(), Path(tempfile.gettempdir())):
        spare = _spare_name(folder, path.name or 'd2l_ext-output.json')
        try:
            _write_new(spare, text)
            return spare, reason
        except OSError:
            continue
    raise OSError(reason)


def missing_files(paths) -> list[str]:
    """Those of `paths` that are not there (traces a profiler said nothing about failing to write)."""
    return [str(p) for p in paths if not os.path.isfile(p)]
