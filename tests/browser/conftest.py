"""Fixtures for the real-browser tests (JupyterLab and Voila in headless Chromium via Playwright).

Everything a test starts is stopped again, also when the test fails: servers run in their own
process group, their kernels (which jupyter_client starts in sessions of their own) are collected
before the group is killed, and every server and browser has a finalizer.

Environment:
  D2L_EXT_REQUIRE_BROWSER=1   a missing Chromium/Playwright fails instead of skipping (CI sets it)
  D2L_EXT_SCREENSHOTS=DIR     where screenshots go (default build/screenshots at the repo root)
  D2L_EXT_CHROMIUM=PATH       the Chromium binary (default: chromium / chromium-browser on PATH)
  D2L_EXT_BROWSER_TIMEOUT=S   seconds allowed per notebook for one run of all cells, and again
                              for one click on Run (default 240)
  D2L_EXT_NOTEBOOKS=DIR       test the notebooks under DIR instead of notebooks/ (the fixture
                              notebook is always tested)
  D2L_EXT_BROWSER_ALL=1       every notebook in both JupyterLab and Voila (default: en/ in
                              JupyterLab, zh/ in Voila, see front_ends)
See docs/browser-test.md.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
FIXTURE_NOTEBOOK = HERE / 'fixture_widgets.ipynb'
FIXTURE_DIR = '_browser_fixture'  # where the fixture notebook sits inside a served copy
LECTURE_SH = REPO / 'scripts' / 'lecture.sh'

# The CSS classes the notebooks put on their widgets (widget.add_class(...)); docs/browser-test.md.
SIZE, ITERS, RUN, RESULTS, PLOT = 'd2l-size', 'd2l-iters', 'd2l-run', 'd2l-results', 'd2l-plot'

TIMEOUT_S = float(os.environ.get('D2L_EXT_BROWSER_TIMEOUT') or 240)
REQUIRE_BROWSER = os.environ.get('D2L_EXT_REQUIRE_BROWSER') == '1'

CHROMIUM_ARGS = [
    '--no-sandbox',  # runs as root in containers
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-quic',
    '--no-first-run',
    '--disable-component-update',
    '--disable-sync',
    # Hermetic: only loopback resolves. External fetches (Voila's lab template links Font Awesome
    # from cdn.jsdelivr.net) fail fast instead of hanging or depending on the network.
    '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost',
]
# Playwright's chromium.launch() always starts Chromium with a fresh temporary --user-data-dir of
# its own (and refuses one in args), so each session gets an empty profile.


def pytest_configure(config):
    config.addinivalue_line(
        'markers',
        "browser: real-browser tests (JupyterLab / Voila lecture mode in headless Chromium via "
        "Playwright); select with -m browser, deselect with -m 'not browser'",
    )


# --------------------------------------------------------------------------- notebooks


@dataclasses.dataclass(frozen=True)
class Notebook:
    src: Path  # the notebook in the working tree (never written to)
    rel: str  # its path inside a served copy (see _mirror)
    slug: str  # for screenshot file names
    has_run: bool  # its code mentions the d2l-run class: the widget exercise is required

    @property
    def id(self) -> str:
        return self.slug


def _has_run_button(path: Path) -> bool:
    try:
        nb = json.loads(path.read_text(encoding='utf-8'))
    except (OSError, ValueError):
        return False  # a broken notebook fails when JupyterLab opens it
    return any(
        cell.get('cell_type') == 'code' and RUN in ''.join(cell.get('source', ''))
        for cell in nb.get('cells', [])
    )


def notebooks_dir() -> Path:
    """notebooks/ of the repo, or the folder D2L_EXT_NOTEBOOKS names (to try the test on other
    notebooks without touching the repo)."""
    raw = os.environ.get('D2L_EXT_NOTEBOOKS')
    return Path(raw).resolve() if raw else REPO / 'notebooks'


def collect_notebooks() -> list[Notebook]:
    found = [
        Notebook(FIXTURE_NOTEBOOK, f'{FIXTURE_DIR}/{FIXTURE_NOTEBOOK.name}', 'fixture_widgets',
                 _has_run_button(FIXTURE_NOTEBOOK))
    ]
    root = notebooks_dir()
    for path in sorted(root.glob('**/*.ipynb')):
        rel = Path('notebooks') / path.relative_to(root)
        if '.ipynb_checkpoints' in rel.parts or any(p.startswith('.') for p in rel.parts):
            continue
        slug = re.sub(r'[^A-Za-z0-9_.-]+', '_', '__'.join(rel.with_suffix('').parts))
        found.append(Notebook(path, rel.as_posix(), slug, _has_run_button(path)))
    return found


# Which front end opens which lesson (`make test` on 2 cores, issue 22): each lesson once in a real
# browser, English in JupyterLab and Chinese in Voila's lecture mode, so both front ends and both
# languages are covered and no notebook runs twice; the fixture notebook, and any notebook outside an
# en/ or zh/ folder, opens in both. D2L_EXT_BROWSER_ALL=1 opens every notebook in both (the full matrix).
FRONT_ENDS = {'en': ('lab',), 'zh': ('voila',)}
BOTH = ('lab', 'voila')


def front_ends(notebook: Notebook) -> tuple[str, ...]:
    """The front ends ("lab", "voila") that open this notebook in the browser test."""
    if os.environ.get('D2L_EXT_BROWSER_ALL') == '1' or notebook.src == FIXTURE_NOTEBOOK:
        return BOTH
    return FRONT_ENDS.get(Path(notebook.rel).parent.name, BOTH)


def pytest_generate_tests(metafunc):
    """Parametrize `notebook` by the notebooks that the test module's FRONT_END opens (see front_ends)."""
    if 'notebook' in metafunc.fixturenames:
        front_end = getattr(metafunc.module, 'FRONT_END', None)
        nbs = [nb for nb in collect_notebooks() if front_end is None or front_end in front_ends(nb)]
        metafunc.parametrize('notebook', nbs, ids=[nb.id for nb in nbs])


def _mirror(dest: Path) -> Path:
    """A served copy of the repo: notebooks/ copied (JupyterLab may save into it), the fixture
    notebook added, every other top-level entry symlinked so notebooks that reach for ../../x
    still find it. Nothing in the working tree is written."""
    dest.mkdir(parents=True)
    for entry in REPO.iterdir():
        if entry.name.startswith('.') or entry.name in {'build', 'notebooks', '__pycache__'}:
            continue
        (dest / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    if notebooks_dir().is_dir():
        shutil.copytree(notebooks_dir(), dest / 'notebooks',
                        ignore=shutil.ignore_patterns('.ipynb_checkpoints', '__pycache__'))
    (dest / FIXTURE_DIR).mkdir()
    shutil.copy2(FIXTURE_NOTEBOOK, dest / FIXTURE_DIR / FIXTURE_NOTEBOOK.name)
    return dest


# --------------------------------------------------------------------------- prerequisites


def find_chromium() -> str | None:
    explicit = os.environ.get('D2L_EXT_CHROMIUM')
    if explicit:
        return explicit if os.access(explicit, os.X_OK) else None
    for name in ('chromium', 'chromium-browser'):
        found = shutil.which(name)
        if found:
            return found
    return '/usr/bin/chromium' if os.access('/usr/bin/chromium', os.X_OK) else None


@pytest.fixture(scope='session')
def chromium_path() -> str:
    """Skips (or, with D2L_EXT_REQUIRE_BROWSER=1, fails) only when Chromium or Playwright is
    missing; everything else missing (jupyterlab, voila) is a plain failure."""
    missing = []
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError as exc:
        missing.append(f"Playwright for Python is not importable ({exc}); "
                       "pip install 'playwright>=1.45' (do not run `playwright install`)")
    chromium = find_chromium()
    if chromium is None:
        missing.append('no Chromium found (apt-get install -y chromium, or set D2L_EXT_CHROMIUM)')
    if missing:
        reason = 'browser tests need a real browser: ' + '; '.join(missing)
        if REQUIRE_BROWSER:
            pytest.fail(reason + ' [D2L_EXT_REQUIRE_BROWSER=1]', pytrace=False)
        pytest.skip(reason + ' (set D2L_EXT_REQUIRE_BROWSER=1 to make this a failure)')
    return chromium


@pytest.fixture(scope='session')
def screenshot_dir() -> Path:
    raw = os.environ.get('D2L_EXT_SCREENSHOTS') or 'build/screenshots'
    path = Path(raw)
    if not path.is_absolute():
        path = REPO / path
    path.mkdir(parents=True, exist_ok=True)
    return path


# --------------------------------------------------------------------------- processes


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(('127.0.0.1', 0))
        return s.getsockname()[1]


def _descendants(pid: int) -> list[int]:
    try:
        import psutil

        return [p.pid for p in psutil.Process(pid).children(recursive=True)]
    except Exception:  # psutil missing or the process is gone
        return []


class Server:
    """A server process in its own process group, its output in a log file."""

    def __init__(self, name: str, cmd: list[str], env: dict, cwd: Path, log_path: Path):
        self.name, self.cmd, self.log_path = name, cmd, log_path
        self._cpu_seen: dict = {}
        self._log = open(log_path, 'wb')
        self.proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True)

    def log_tail(self, lines: int = 40) -> str:
        try:
            text = self.log_path.read_text(errors='replace')
        except OSError:
            return ''
        return '\n'.join(text.splitlines()[-lines:])

    def wait_ready(self, check, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f'{self.name} exited with {self.proc.returncode} before it '
                                   f'was ready; log {self.log_path}:\n{self.log_tail()}')
            try:
                if check():
                    return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.2)
        raise RuntimeError(f'{self.name} not ready after {timeout:.0f} s; log {self.log_path}:\n'
                           f'{self.log_tail()}')

    def children_cpu_seconds(self) -> float:
        """CPU time used so far by the server's descendants (kernels and their worker processes),
        never decreasing: a process that ended keeps its last reading. Tells a kernel that is
        computing from one that sits idle while the page still waits."""
        try:
            import psutil

            for child in psutil.Process(self.proc.pid).children(recursive=True):
                try:
                    t = child.cpu_times()
                    self._cpu_seen[(child.pid, child.create_time())] = t.user + t.system
                except psutil.Error:
                    pass
            return sum(self._cpu_seen.values())
        except Exception:
            return float('nan')  # psutil missing: no stall detection

    def stop(self) -> None:
        """SIGTERM to the group (servers shut their kernels down), SIGKILL after 15 s; then any
        descendant left over (kernels run in sessions of their own) is killed by its pid."""
        leftovers = _descendants(self.proc.pid)
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                self.proc.wait(10)
        for pid in leftovers:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self._log.close()


def isolated_env(base: Path) -> dict:
    """Environment for servers and their kernels: Jupyter/IPython/matplotlib state in temp dirs,
    the working tree importable, and a flag notebooks may read to choose quicker defaults."""
    env = dict(os.environ)
    for var, sub in [('JUPYTER_CONFIG_DIR', 'config'), ('JUPYTER_DATA_DIR', 'data'),
                     ('JUPYTER_RUNTIME_DIR', 'runtime'), ('IPYTHONDIR', 'ipython'),
                     ('MPLCONFIGDIR', 'mpl')]:
        (base / sub).mkdir(parents=True, exist_ok=True)
        env[var] = str(base / sub)
    for var in ('JUPYTER_TOKEN', 'JUPYTER_PASSWORD', 'MATPLOTLIBRC', 'D2L_EXT_LECTURE'):
        env.pop(var, None)
    env['PYTHONPATH'] = os.pathsep.join(filter(None, [str(REPO), env.get('PYTHONPATH')]))
    env['PYDEVD_DISABLE_FILE_VALIDATION'] = '1'  # ipykernel's debugger warning
    env['D2L_EXT_BROWSER_TEST'] = '1'
    # The kernel must be the Python running pytest (the venv with d2l_ext's dependencies).
    env['PATH'] = os.pathsep.join([str(Path(sys.executable).parent), env.get('PATH', '')])
    return env


def _http_ok(url: str, token: str | None = None) -> bool:
    req = urllib.request.Request(url)
    if token:
        req.add_header('Authorization', f'token {token}')
    with urllib.request.urlopen(req, timeout=5) as resp:
        return resp.status == 200


class LabServer:
    def __init__(self, server: Server, port: int, token: str, root: Path):
        self.server, self.port, self.token, self.root = server, port, token, root
        self.base = f'http://127.0.0.1:{port}'

    def url(self, notebook: Notebook, workspace: str) -> str:
        workspace = re.sub(r'[^A-Za-z0-9-]+', '-', workspace)  # JupyterLab rejects dots etc.
        path = urllib.parse.quote(notebook.rel)
        return f'{self.base}/lab/workspaces/{workspace}/tree/{path}?reset&token={self.token}'

    def api(self, method: str, path: str):
        req = urllib.request.Request(f'{self.base}{path}', method=method)
        req.add_header('Authorization', f'token {self.token}')
        with urllib.request.urlopen(req, timeout=30) as resp:
            body = resp.read()
        return json.loads(body) if body else None

    def shutdown_sessions(self) -> None:
        """Shut down every session and kernel this server runs (between notebooks)."""
        try:
            for s in self.api('GET', '/api/sessions') or []:
                self.api('DELETE', f"/api/sessions/{s['id']}")
            for k in self.api('GET', '/api/kernels') or []:
                self.api('DELETE', f"/api/kernels/{k['id']}")
        except (OSError, urllib.error.URLError):
            pass  # the server is stopped by its own finalizer anyway


LAB_USER_SETTINGS = {
    # Keep every cell in the DOM (4.x can virtualise off-screen cells).
    '@jupyterlab/notebook-extension/tracker.jupyterlab-settings': {'windowingMode': 'none'},
    # No news / update toasts, no network fetch for them.
    '@jupyterlab/apputils-extension/notification.jupyterlab-settings':
        {'fetchNews': 'false', 'checkForUpdates': False},
    # Autosave would only write into the temp copy; off so nothing races the test.
    '@jupyterlab/docmanager-extension/plugin.jupyterlab-settings': {'autosave': False},
}


@pytest.fixture(scope='session')
def lab_server(request, chromium_path, tmp_path_factory):
    """One JupyterLab server for the session, serving a temp copy of the repo (see _mirror).

    While it starts, Chromium and (when the session will open lesson notebooks in Voila) the lecture
    folder's server start too: the three start-ups overlap instead of following one another."""
    base = tmp_path_factory.mktemp('jupyterlab')
    root = _mirror(base / 'root')
    env = isolated_env(base / 'home')
    config_dir = Path(env['JUPYTER_CONFIG_DIR'])
    (config_dir / 'jupyter_server_config.json').write_text(json.dumps({
        'LabApp': {
            'news_url': None,
            'check_for_updates_class': 'jupyterlab.handlers.announcements.NeverCheckForUpdate',
            # window.jupyterapp: the test reads cell models (execution counts, error outputs)
            'expose_app_in_browser': True,
        },
        'ServerApp': {'terminals_enabled': False},
    }))
    for rel, values in LAB_USER_SETTINGS.items():
        path = config_dir / 'lab' / 'user-settings' / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    port, token = free_port(), secrets.token_hex(24)
    cmd = [sys.executable, '-m', 'jupyterlab', '--no-browser', '--allow-root',
           '--ServerApp.ip=127.0.0.1', f'--ServerApp.port={port}', '--ServerApp.port_retries=0',
           f'--IdentityProvider.token={token}', f'--ServerApp.root_dir={root}']
    server = Server('jupyterlab', cmd, env, root, base / 'jupyterlab.log')
    try:
        request.getfixturevalue('d2l_browser')
        if any(_opens_lesson_in_voila(item) for item in request.session.items):
            request.getfixturevalue('lecture_folder_process')
        server.wait_ready(lambda: _http_ok(f'http://127.0.0.1:{port}/api/status', token), 90)
        lab = LabServer(server, port, token, root)
        yield lab
        lab.shutdown_sessions()
    finally:
        server.stop()


@pytest.fixture(scope='session')
def voila_root(chromium_path, tmp_path_factory) -> Path:
    """A temp copy of the repo for Voila (separate from JupyterLab's)."""
    return _mirror(tmp_path_factory.mktemp('voila') / 'root')


@pytest.fixture(scope='session')
def stopping_servers():
    """Servers (and kernels) being stopped in the background; the session waits for every one
    before it ends.

    Stopping Voila waits seconds for its kernel to shut down (2 to 6 s measured per notebook on
    2 cores), idle time the next notebook's test need not wait for.
    """
    threads: list[threading.Thread] = []
    errors: list[str] = []

    def stop(what, *args) -> None:
        try:
            what(*args) if args else what.stop()
        except Exception as exc:  # reported when the session ends, as a teardown error
            errors.append(f"{getattr(what, 'name', what)} did not stop: {exc!r}")

    def stop_later(what, *args) -> threading.Thread:
        """Stop a Server, or call what(*args), in a thread of its own."""
        thread = threading.Thread(target=stop, args=(what, *args), daemon=True)
        thread.start()
        threads.append(thread)
        return thread

    yield stop_later
    for thread in threads:
        thread.join()
    assert not errors, '\n'.join(errors)


def start_lecture(target: str, port: int, cwd: Path, home: Path, log: Path) -> Server:
    """scripts/lecture.sh TARGET PORT as an instructor runs it (TARGET a notebook or a folder)."""
    env = isolated_env(home)
    env['PYTHON'] = sys.executable
    env['LECTURE_CELL_TIMEOUT'] = str(int(TIMEOUT_S))
    env['LECTURE_IP'] = '127.0.0.1'
    cmd = ['bash', str(LECTURE_SH), target, str(port), '--show_tracebacks=True']
    return Server(f'voila (scripts/lecture.sh {target})', cmd, env, cwd, log)


def voila_kernels(server: Server) -> dict[int, str]:
    """The kernels a Voila server runs now (one per page loaded and not shut down): pid -> kernel id,
    read from the connection file in the kernel's command line."""
    found = {}
    try:
        import psutil

        for child in psutil.Process(server.proc.pid).children(recursive=True):
            try:
                cmd = ' '.join(child.cmdline())
                parent = ' '.join(child.parent().cmdline())
            except (psutil.Error, AttributeError):
                continue
            match = re.search(r'kernel-([0-9a-f-]{36})\.json', cmd)
            if match and 'ipykernel' in cmd and 'ipykernel' not in parent:  # not a kernel's own fork
                found[child.pid] = match.group(1)
    except Exception:  # psutil missing or the server is gone
        pass
    return found


def _wait_gone(pids, timeout: float) -> None:
    """Return as soon as every one of these processes has ended (psutil waits on each one), or after
    `timeout`."""
    try:
        import psutil
    except ImportError:
        return
    procs = []
    for pid in pids:
        try:
            procs.append(psutil.Process(pid))
        except psutil.Error:
            pass  # already gone
    psutil.wait_procs(procs, timeout=timeout)


@dataclasses.dataclass
class LectureFolder:
    server: Server
    base: str
    pending: list = dataclasses.field(default_factory=list)  # kernel shutdowns under way

    def url(self, notebook: Notebook) -> str:
        return f'{self.base}/voila/render/{urllib.parse.quote(notebook.rel)}'

    def shutdown_kernels(self, kernels: dict[int, str], timeout: float = 30) -> None:
        """Shut down these kernels (pid -> id) as a page being left asks Voila to (POST
        voila/api/shutdown/<id> on beforeunload, which Playwright's context.close() skips).
        One still there after `timeout` is killed by its pid, with its worker processes."""
        for kernel_id in kernels.values():
            req = urllib.request.Request(f'{self.base}/voila/api/shutdown/{kernel_id}',
                                         method='POST', data=b'')
            req.add_header('Cookie', '_xsrf=d2l')  # double-submit: cookie and header agree
            req.add_header('X-XSRFToken', 'd2l')
            try:
                with urllib.request.urlopen(req, timeout=timeout):
                    pass
            except (OSError, urllib.error.URLError) as exc:
                print(f'  (kernel {kernel_id} not shut down through Voila: {exc})')
        _wait_gone(kernels, timeout)
        for pid in set(kernels) & set(voila_kernels(self.server)):
            print(f'  (killing kernel {pid} left running on the shared lecture server)')
            for victim in [*_descendants(pid), pid]:
                try:
                    os.kill(victim, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass


def _opens_lesson_in_voila(item) -> bool:
    """A collected test that opens a lesson notebook (not the fixture) in the lecture folder's server."""
    callspec = getattr(item, 'callspec', None)
    notebook = callspec.params.get('notebook') if callspec else None
    return (getattr(item.module, 'FRONT_END', None) == 'voila' and notebook is not None
            and notebook.src != FIXTURE_NOTEBOOK)


@pytest.fixture(scope='session')
def lecture_folder_process(voila_root, tmp_path_factory):
    """The `scripts/lecture.sh FOLDER PORT` process, started (not yet ready): (server, port)."""
    base = tmp_path_factory.mktemp('lecture-folder')
    port = free_port()
    server = start_lecture(str(voila_root), port, voila_root, base / 'home', base / 'lecture.log')
    try:
        yield server, port
    finally:
        server.stop()


@pytest.fixture(scope='session')
def lecture_folder(lecture_folder_process):
    """One `scripts/lecture.sh FOLDER PORT` server for every notebook but the fixture: each page
    still runs its notebook in a fresh kernel, without starting Voila again per notebook."""
    server, port = lecture_folder_process
    # The folder's listing: no kernel starts for it, and it shows the template renders.
    server.wait_ready(lambda: _http_ok(f'http://127.0.0.1:{port}/'), 60)
    folder = LectureFolder(server, f'http://127.0.0.1:{port}')
    yield folder
    for thread in folder.pending:
        thread.join()


class LectureServers:
    """Lecture mode in the tests. The fixture notebook gets the instructor's own single-notebook
    command (`scripts/lecture.sh NOTEBOOK PORT`, a server of its own); every other notebook is a
    page of the one shared `scripts/lecture.sh FOLDER PORT` server, whose kernels are shut down
    after each test, so that none keeps its memory or its worker processes (or keeps computing,
    after a failure) while the next notebook runs."""

    def __init__(self, request, voila_root: Path, tmp_path: Path):
        self.request, self.voila_root, self.tmp_path = request, voila_root, tmp_path
        self.own: list[Server] = []
        self.shared: LectureFolder | None = None

    def __call__(self, notebook: Notebook):
        if notebook.src != FIXTURE_NOTEBOOK:
            self.shared = self.request.getfixturevalue('lecture_folder')
            return self.shared.url(notebook), self.shared.server
        port = free_port()
        server = start_lecture(notebook.rel, port, self.voila_root, self.tmp_path / 'home',
                               self.tmp_path / 'lecture.log')
        self.own.append(server)

        def listening() -> bool:
            with socket.create_connection(('127.0.0.1', port), timeout=2):
                return True  # GET / would already start a kernel and run the notebook

        server.wait_ready(listening, 60)
        return f'http://127.0.0.1:{port}/', server

    def finish(self, stop_later) -> None:
        for server in self.own:
            stop_later(server)
        if self.shared is not None:
            # The kernels of this test, listed now: shutting them down waits seconds for them to
            # exit, idle time the next notebook's test need not wait for.
            self.shared.pending.append(
                stop_later(self.shared.shutdown_kernels, voila_kernels(self.shared.server)))


@pytest.fixture
def lecture_server(request, voila_root, tmp_path, stopping_servers):
    """Lecture mode for one notebook: `url, server = lecture_server(notebook)`; see LectureServers."""
    servers = LectureServers(request, voila_root, tmp_path)
    yield servers
    servers.finish(stopping_servers)


# --------------------------------------------------------------------------- browser


@pytest.fixture(scope='session')
def d2l_browser(chromium_path):
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    try:
        browser = pw.chromium.launch(executable_path=chromium_path, headless=True,
                                     args=CHROMIUM_ARGS, timeout=60_000)
        try:
            yield browser
        finally:
            browser.close()
    finally:
        pw.stop()


LOCAL_HOSTS = {'127.0.0.1', 'localhost', ''}


def allowed_console_error(text: str, url: str) -> str | None:
    """Why a console error is harmless noise, or None if it must fail the test."""
    host = urllib.parse.urlsplit(url).hostname or ''
    if text.startswith('Failed to load resource') and host not in LOCAL_HOSTS:
        # External resources, blocked on purpose by --host-resolver-rules (Voila's lab template
        # links Font Awesome from cdn.jsdelivr.net; icons fall back, nothing else depends on it).
        return 'blocked external resource'
    if 'status of 404' in text and urllib.parse.urlsplit(url).path.endswith('/favicon.ico'):
        return 'favicon 404'
    return None


class BrowserLog:
    """Console errors and uncaught page errors seen by one page."""

    def __init__(self, page):
        self.errors: list[str] = []
        self.ignored: list[str] = []
        page.on('console', self._on_console)
        page.on('pageerror', lambda exc: self.errors.append(f'pageerror: {exc}'))

    def _on_console(self, msg) -> None:
        if msg.type != 'error':
            return
        url = (msg.location or {}).get('url', '')
        why = allowed_console_error(msg.text, url)
        line = f'console.error: {msg.text} ({url})'
        (self.ignored if why else self.errors).append(line if not why else f'{why}: {line}')

    def assert_clean(self) -> None:
        for line in self.ignored:
            print(f'  (allowed) {line}')
        assert not self.errors, 'JavaScript errors in the page:\n' + '\n'.join(self.errors)


@dataclasses.dataclass
class PageUnderTest:
    page: object
    log: BrowserLog


def _new_context(browser):
    context = browser.new_context(viewport={'width': 1400, 'height': 1000})
    context.set_default_timeout(30_000)
    return context


@pytest.fixture(scope='session')
def shared_contexts(d2l_browser):
    """One browser context per session-wide server (JupyterLab, the lecture folder), so that each page
    after the first loads the front end's scripts from the browser's cache: a JupyterLab page opened in
    8-13 s instead of 15 s in a fresh context (measured on the 2-core machine under load). Each test
    still gets a page of its own, closed after it; the servers keep nothing per page (workspaces are
    opened with ?reset, Voila runs every page in a fresh kernel)."""
    contexts: dict[str, object] = {}

    def get(key: str):
        if key not in contexts:
            contexts[key] = _new_context(d2l_browser)
        return contexts[key]

    yield get
    for context in contexts.values():
        context.close()


def _context_key(request) -> str | None:
    """Which shared context a test's page belongs to, or None for a context of its own: the fixture
    notebook in Voila has a server of its own (scripts/lecture.sh NOTEBOOK PORT), and two Voila servers
    on one host would share the host's cookies."""
    front_end = getattr(request.module, 'FRONT_END', None) or 'lab'  # test_build_it: JupyterLab
    callspec = getattr(request.node, 'callspec', None)
    notebook = callspec.params.get('notebook') if callspec else None
    if front_end == 'voila' and (notebook is None or notebook.src == FIXTURE_NOTEBOOK):
        return None
    return front_end


@pytest.fixture
def d2l_page(request, d2l_browser, shared_contexts):
    key = _context_key(request)
    context = _new_context(d2l_browser) if key is None else shared_contexts(key)
    page = context.new_page()
    try:
        yield PageUnderTest(page, BrowserLog(page))
    finally:
        if key is None:
            context.close()
        else:
            page.close()


# --------------------------------------------------------------------------- page helpers

ANSI = re.compile(r'\x1b\[[0-9;]*[A-Za-z]')

# Resolves once the page has been laid out and painted (two animation frames), e.g. after a resize.
NEXT_FRAME_JS = '() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))'

_DOM_ERRORS_JS = r"""() => {
  const found = [];
  // stderr and error outputs (JupyterLab renders both as this MIME type; a failing
  // application/javascript output becomes one too, without the jp-OutputArea-output class)
  for (const el of document.querySelectorAll(
      '[data-mime-type="application/vnd.jupyter.stderr"]')) {
    const t = el.innerText || '';
    if (/Traceback|^\s*Cell In\[\d+\], line \d+|Javascript Error:/m.test(t)) found.push(t);
  }
  const body = document.body ? document.body.innerText : '';
  const voila = body.match(/There was an error when executing cell.*/);
  if (voila) found.push(voila[0]);
  return found;
}"""

_WIDGET_PROBLEMS_JS = r"""() => {
  const problems = [];
  // A widget view not rendered yet: an output area still empty (Voila) or still showing the
  // placeholder text (JupyterLab).
  for (const el of document.querySelectorAll('.jp-OutputArea-output')) {
    const mime = el.getAttribute('data-mime-type');
    if (el.childElementCount === 0 &&
        (!mime || mime === 'application/vnd.jupyter.widget-view+json'))
      problems.push('widget view still empty');
  }
  for (const el of document.querySelectorAll('.jp-OutputArea-output, .jupyter-widgets')) {
    const t = el.innerText || '';
    if (t.includes('Loading widget...')) problems.push('Loading widget...');
    if (t.includes('Error displaying widget')) problems.push(t.trim().slice(0, 200));
  }
  for (const el of document.querySelectorAll('.jupyter-widgets-error-widget'))
    problems.push('widget error: ' + (el.innerText || '').trim().slice(0, 200));
  return [...new Set(problems)];
}"""

_MARK_PANELS_JS = r"""(run) => {
  // One panel per Run button: the nearest ancestor that also holds a results widget.
  const buttons = Array.from(document.querySelectorAll('.' + run)).filter(
    b => !b.parentElement.closest('.' + run));
  buttons.forEach((b, i) => {
    let el = b.parentElement;
    while (el && el !== document.body && !el.querySelector('.d2l-results')) el = el.parentElement;
    (el || document.body).setAttribute('data-d2l-panel', String(i));
  });
  return buttons.length;
}"""

_SNAPSHOT_JS = r"""([scope, results, plot, run]) => {
  const root = document.querySelector(scope) || document;
  const rnode = root.querySelector('.' + results);
  const tables = rnode ? (rnode.matches('table') ? [rnode] : rnode.querySelectorAll('table')) : [];
  const pnode = root.querySelector('.' + plot);
  let images = [];
  if (pnode) {
    const imgs = pnode.matches('img') ? [pnode] : Array.from(pnode.querySelectorAll('img'));
    images = imgs.map(i => i.src).concat(
      Array.from(pnode.querySelectorAll('svg')).filter(
        s => s.getBoundingClientRect().width > 100).map(s => 'svg:' + s.outerHTML.length + ':' +
        s.outerHTML.slice(-200)),
      Array.from(pnode.querySelectorAll('canvas')).map(c => 'canvas:' + c.toDataURL().length));
  }
  const bnode = root.querySelector('.' + run);
  const button = bnode && (bnode.matches('button') ? bnode : bnode.querySelector('button'));
  return {
    hasResults: !!rnode, tables: tables.length,
    rows: Array.from(tables).reduce((n, t) => n + t.querySelectorAll('tbody tr').length, 0),
    tableText: Array.from(tables).map(t => t.innerText).join('\n'),
    hasPlot: !!pnode, images,
    hasRun: !!button, runDisabled: button ? button.disabled : null,
    panelText: (root.innerText || '').slice(0, 2000),
  };
}"""

_LAB_STATE_JS = r"""() => {
  const app = window.jupyterapp;
  if (!app) return {fatal: 'window.jupyterapp is missing (LabApp.expose_app_in_browser)'};
  const panel = app.shell.currentWidget;
  if (!panel || !panel.content || !panel.content.model || !panel.sessionContext)
    return {ready: false};
  const ind = document.querySelector('.jp-Notebook-ExecutionIndicator');
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  const state = {ready: true, indicator: ind ? ind.dataset.status : null,
                 kernel: kernel ? kernel.status : null, pending: 0, unexecuted: 0, code: 0,
                 errors: []};
  const cells = panel.content.model.cells;
  for (let i = 0; i < cells.length; i++) {
    const c = cells.get(i);
    if (c.type !== 'code') continue;
    state.code++;
    const w = panel.content.widgets[i];
    const prompt = w && w.node.querySelector('.jp-InputPrompt');
    if (prompt && prompt.textContent.includes('*')) state.pending++;
    else if (c.sharedModel.getSource().trim() && c.executionCount == null) state.unexecuted++;
    // Only error outputs are serialized: toJSON() of every output (figures as base64 PNG) twice a
    // second took CPU from the kernel on 2 cores.
    for (let j = 0; j < c.outputs.length; j++) {
      const out = c.outputs.get(j);
      if (out.type !== 'error') continue;
      const o = out.toJSON();
      state.errors.push({cell: i + 1, ename: o.ename, evalue: o.evalue,
                         traceback: (o.traceback || []).join('\n')});
    }
  }
  return state;
}"""


class Ui:
    """What a person does in the page, and what the test checks, shared by Lab and Voila."""

    timeout_s = TIMEOUT_S
    classes = dict(size=SIZE, iters=ITERS, run=RUN, results=RESULTS, plot=PLOT)

    # ---- generic
    @staticmethod
    def poll(fn, until, timeout: float, interval: float = 0.25):
        """Call fn() until until(value); returns (ok, last value). Never sleeps past the
        condition."""
        deadline = time.monotonic() + timeout
        value = fn()
        while not until(value):
            if time.monotonic() > deadline:
                return False, value
            time.sleep(interval)
            value = fn()
        return True, value

    @staticmethod
    def dismiss_notifications(page) -> None:
        """Answer "No" to JupyterLab's news question and close any other toast."""
        from playwright.sync_api import TimeoutError as PlaywrightTimeout

        for _ in range(5):
            no = page.locator('.jp-Notification-Toast-default button', has_text='No')
            close = page.locator('.jp-Notification-Toast-Close')
            if no.count():
                clicked = no.first
            elif close.count():
                clicked = close.first
            else:
                return
            clicked.click()
            try:
                clicked.wait_for(state='detached', timeout=2000)  # the toast went
            except PlaywrightTimeout:
                pass  # still there: the next round clicks it again

    def assert_no_output_errors(self, page) -> None:
        errors = page.evaluate(_DOM_ERRORS_JS)
        assert not errors, 'error output in the page:\n' + '\n---\n'.join(
            ANSI.sub('', e)[-3000:] for e in errors)

    def assert_widgets_rendered(self, page, expect_run: bool = False, timeout: float = 30) -> None:
        """Wait until every widget view has rendered: no placeholder or error text, no empty
        widget output, the number of output areas steady for a second (Voila creates them from
        script tags after the page shows), and the Run button present if expected."""
        history = []

        def probe():
            state = page.evaluate(_WIDGET_PROBLEMS_JS)
            count = page.locator('.jp-OutputArea-output').count()
            has_run = page.locator(f'.{RUN}').count() > 0
            history.append(count)
            return {'problems': state, 'outputs': count, 'run': has_run}

        def settled(s):
            if any('error' in p.lower() for p in s['problems']):
                return True  # an error view will not go away: report it now
            return (not s['problems'] and (s['run'] or not expect_run)
                    and len(history) >= 4 and len(set(history[-4:])) == 1)

        ok, state = self.poll(probe, settled, timeout)
        ok = ok and not state['problems']
        if not ok and expect_run and not state['run'] and not state['problems']:
            raise AssertionError(f"the notebook's code mentions {RUN} but no widget with that "
                                 f"class rendered within {timeout:.0f} s")
        assert ok, f'widgets did not render after {timeout:.0f} s: {state}'

    def snapshot(self, page, scope: str = 'body') -> dict:
        return page.evaluate(_SNAPSHOT_JS, [scope, RESULTS, PLOT, RUN])

    def screenshot(self, page, path: Path, max_height: int = 8000) -> None:
        """A full-page screenshot. JupyterLab and Voila scroll inside panels, not the page, so
        the viewport is made as tall as the content (up to max_height) for the shot."""
        self.dismiss_notifications(page)
        path.parent.mkdir(parents=True, exist_ok=True)
        size = page.viewport_size
        try:
            extra = page.evaluate("""() => {
              let extra = 0;
              for (const el of document.querySelectorAll('*')) {
                const d = el.scrollHeight - el.clientHeight;
                if (d > extra && /(auto|scroll)/.test(getComputedStyle(el).overflowY)) extra = d;
              }
              return extra;
            }""")
            if extra > 0:
                page.set_viewport_size({'width': size['width'],
                                        'height': min(size['height'] + extra + 40, max_height)})
                page.evaluate("""() => { for (const el of document.querySelectorAll('*'))
                                           if (el.scrollTop) el.scrollTop = 0; }""")
                page.evaluate(NEXT_FRAME_JS)  # laid out and painted at the new size
            page.screenshot(path=str(path), full_page=True)
        finally:
            page.set_viewport_size(size)

    # ---- JupyterLab
    @staticmethod
    def lab_menu(page, menu: str, item: str) -> None:
        page.locator('.lm-MenuBar-itemLabel', has_text=re.compile(f'^{re.escape(menu)}$')).click()
        page.locator('.lm-Menu-content .lm-Menu-item:not(.lm-mod-disabled) .lm-Menu-itemLabel',
                     has_text=re.compile(f'^{re.escape(item)}')).first.click()

    def lab_state(self, page) -> dict:
        state = page.evaluate(_LAB_STATE_JS)
        if state.get('fatal'):
            raise AssertionError(state['fatal'])
        return state

    def wait_lab_kernel_idle(self, page, timeout: float) -> dict:
        ok, state = self.poll(lambda: self.lab_state(page),
                              lambda s: s.get('ready') and s['indicator'] == 'idle'
                              and s['kernel'] == 'idle', timeout)
        assert ok, f'kernel not idle after {timeout:.0f} s: {state}'
        return state

    def wait_lab_run_all(self, page, timeout: float) -> dict:
        """Run all cells finished: kernel idle, no [*], every non-empty code cell counted (or a
        cell raised, which stops Run All)."""
        ok, state = self.poll(
            lambda: self.lab_state(page),
            lambda s: s.get('ready') and s['indicator'] == 'idle' and s['kernel'] == 'idle'
            and s['pending'] == 0 and (s['unexecuted'] == 0 or s['errors']),
            timeout, interval=0.5)
        assert ok, f'Run All Cells did not finish within {timeout:.0f} s: {state}'
        return state

    @staticmethod
    def assert_no_cell_errors(state: dict) -> None:
        assert not state['errors'], 'cells raised:\n' + '\n---\n'.join(
            f"cell {e['cell']}: {e['ename']}: {e['evalue']}\n{ANSI.sub('', e['traceback'])[-3000:]}"
            for e in state['errors'])
        assert state['unexecuted'] == 0, f'cells did not run: {state}'

    # ---- the widget experiment
    def nudge(self, page, scope: str, cls: str):
        """Change one control as a person would; returns (before, after) or None if absent."""
        found = page.locator(f'{scope} .{cls}')
        if not found.count():
            return None
        widget = found.first
        widget.scroll_into_view_if_needed()
        handle = widget.locator('.noUi-handle')
        if handle.count():  # ipywidgets 8 slider (noUiSlider): keyboard on the focused handle
            handle = handle.first
            before = handle.get_attribute('aria-valuenow')
            at_max = before == handle.get_attribute('aria-valuemax')
            handle.focus()
            page.keyboard.press('ArrowLeft' if at_max else 'ArrowRight')
            ok, after = self.poll(lambda: handle.get_attribute('aria-valuenow'),
                                  lambda v: v != before, 10)
            assert ok, f'.{cls} slider did not move from {before}'
            return before, after
        box = widget if widget.evaluate("e => e.matches('input')") else (
            widget.locator('input').first if widget.locator('input').count() else None)
        if box is not None:  # IntText / BoundedIntText: type a new number, Enter commits
            before = box.input_value()
            try:
                new = str(int(float(before)) + 1)
            except ValueError:
                new = before + '1'
            box.click()
            box.fill(new)
            box.press('Enter')
            after = box.input_value()
            assert after != before, f'.{cls} text box kept {before}'
            return before, after
        select = widget.locator('select')
        if select.count():  # Dropdown: the next option
            select = select.first
            values = select.locator('option').evaluate_all('os => os.map(o => o.value)')
            before = select.input_value()
            index = values.index(before) if before in values else -1
            select.select_option(index=(index + 1) % len(values))
            after = select.input_value()
            assert after != before, f'.{cls} dropdown kept {before}'
            return before, after
        raise AssertionError(f'.{cls} is neither a slider, a text box nor a dropdown')

    def exercise(self, page, timeout: float, settle=None) -> list[dict]:
        """For every Run button: change size and iterations, click Run, and check that the
        panel's results table and plot changed. Returns what changed, per panel."""
        panels = page.evaluate(_MARK_PANELS_JS, RUN)
        assert panels, f'no button with class {RUN}'
        return [self._exercise_panel(page, f'[data-d2l-panel="{i}"]', i, timeout, settle)
                for i in range(panels)]

    def _exercise_panel(self, page, scope, index, timeout, settle) -> dict:
        where = f'panel {index + 1} (the one around Run button {index + 1})'
        start = self.snapshot(page, scope)
        assert start['hasResults'], f'{where}: no widget with class {RESULTS} next to {RUN}'
        assert start['tables'], f'{where}: .{RESULTS} holds no <table> after the first run: ' \
                                f'{_brief(start)}'
        if start['hasPlot']:
            assert start['images'], (f'{where}: .{PLOT} holds no image after the first run '
                                     f'(matplotlib gave text only?): {_brief(start)}')
        changes = {cls: self.nudge(page, scope, cls) for cls in (SIZE, ITERS)}
        assert any(changes.values()), f'{where}: neither .{SIZE} nor .{ITERS} found'
        if settle:
            settle()  # e.g. wait for the kernel to handle the value changes
        before = self.snapshot(page, scope)
        page.locator(f'{scope} button.{RUN}, {scope} .{RUN} button').first.click()
        seen = {'busy': False, 'idle_since': None}

        def done(s):
            return (s['tableText'] != before['tableText']
                    and (not before['hasPlot'] or (s['images'] and s['images'] != before['images']))
                    and not s['runDisabled'])

        def progress():
            errors = page.evaluate(_DOM_ERRORS_JS)  # fail fast instead of waiting out timeout
            assert not errors, f'{where}: error output after clicking Run:\n' + '\n---\n'.join(
                ANSI.sub('', e)[-4000:] for e in errors)
            snap = self.snapshot(page, scope)
            # The button went disabled and came back but nothing changed: the run ended without
            # a result (the panel shows its own message). Give late updates 5 s, then fail.
            if snap['runDisabled']:
                seen['busy'], seen['idle_since'] = True, None
            elif seen['busy'] and not done(snap):
                seen['idle_since'] = seen['idle_since'] or time.monotonic()
                assert time.monotonic() - seen['idle_since'] < 5, (
                    f"{where}: the run finished without updating .{RESULTS} / .{PLOT}; panel "
                    f"says:\n{snap['panelText'][-1500:]}")
            return snap

        ok, after = self.poll(progress, done, timeout, interval=0.5)
        assert ok, (f'{where}: clicking Run did not update .{RESULTS} and .{PLOT} within '
                    f'{timeout:.0f} s;\nbefore: {_brief(before)}\nafter:  {_brief(after)}')
        assert after['rows'] >= before['rows'], (f"{where}: results table lost rows: "
                                                 f"{before['rows']} -> {after['rows']}")
        return {'changes': changes, 'rows': (start['rows'], before['rows'], after['rows'])}


def _brief(snap: dict) -> dict:
    return {**snap, 'images': [i[:60] + f'...({len(i)} chars)' for i in snap.get('images', [])],
            'tableText': snap.get('tableText', '')[-300:], 'panelText': '...'}


@pytest.fixture(scope='session')
def ui() -> Ui:
    return Ui()
