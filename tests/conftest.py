import os

os.environ.setdefault('MPLBACKEND', 'Agg')

import pytest  # noqa: E402

from d2l_ext.machine import has_framework  # noqa: E402

needs_mxnet = pytest.mark.skipif(not has_framework('mxnet'), reason='MXNet is not installed (optional extra)')


# The optional extras (pyproject.toml: mxnet, notebooks, test) and what they bring. `pip install .` has none of them:
# a test module that imports one at the top is skipped, saying which (not a collection error), and a test that
# imports one inside is reported as skipped, not failed (issue 35). A module that is installed but fails to import
# is an error as before.
OPTIONAL = ('mxnet', 'd2l', 'torchvision', 'jupyterlab', 'ipywidgets', 'voila', 'jupytext', 'nbval', 'nbformat',
            'nbclient', 'playwright', 'IPython', 'ipykernel', 'matplotlib_inline', 'jupyter_client')


def missing_extra(error: BaseException) -> str | None:
    """The optional module whose absence raised `error`, or None (another error, or the module is installed)."""
    if not isinstance(error, ModuleNotFoundError) or not error.name:
        return None
    root = error.name.partition('.')[0]
    return root if root in OPTIONAL and not has_framework(root) else None


def _skip_reason(module: str) -> str:
    return f"needs {module}, an optional extra not installed here (pip install 'd2l_ext[notebooks,test]')"


class _NeedsExtras(pytest.Module):
    def _getobj(self):
        try:
            return super()._getobj()
        except pytest.Collector.CollectError as e:  # pytest wraps the module's import error
            cause = e.__cause__ or e.__context__
            while cause is not None and missing_extra(cause) is None:
                cause = cause.__cause__ or cause.__context__
            if cause is None:
                raise
            pytest.skip(_skip_reason(missing_extra(cause)), allow_module_level=True)
        except ModuleNotFoundError as e:
            if missing_extra(e) is None:
                raise
            pytest.skip(_skip_reason(missing_extra(e)), allow_module_level=True)


def pytest_pycollect_makemodule(module_path, parent):
    if module_path.parent.name == 'tests':
        return _NeedsExtras.from_parent(parent, path=module_path)
    return None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """A test that failed only because an optional extra is missing is reported as skipped, naming the extra."""
    outcome = yield
    report = outcome.get_result()
    if report.failed and call.excinfo is not None:
        module = missing_extra(call.excinfo.value)
        if module:
            report.outcome = 'skipped'
            report.longrepr = (str(item.path), item.location[1] or 0, 'Skipped: ' + _skip_reason(module))


@pytest.fixture
def sigint_from_a_terminal():
    """Ctrl-C as a terminal gives it: SIGINT raising KeyboardInterrupt in the main thread, not blocked.

    A test that sends SIGINT (to itself, or to a child that inherits these at start) needs that state. A suite
    started as a background job (`cmd &` in a shell without job control) starts with SIGINT ignored, and Python then
    installs no handler; nbclient (test_build) installs the default one, so the grader's two Ctrl-C tests passed or
    failed by which file their pytest worker had run first (seen in a fresh-clone run, 2026-12-04). The state found
    is restored afterwards, and warned about when it differed.
    """
    import signal
    import warnings
    before = signal.getsignal(signal.SIGINT)
    mask = signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    if before is not signal.default_int_handler or signal.SIGINT in mask:
        warnings.warn(f'SIGINT was {before!r}, blocked: {signal.SIGINT in mask}; reset for this test', stacklevel=1)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


@pytest.fixture(autouse=True)
def _grading_ignores_this_machines_load(monkeypatch):
    """Gradings in tests never turn into 'cannot measure' because other programs load this machine (a test of the
    load rule passes the load itself: measurable.mark)."""
    monkeypatch.setenv('D2L_EXT_GRADING_LOAD_SHARE', '2')


@pytest.fixture(autouse=True)
def _sigint_left_as_found(request):
    """A test that leaves SIGINT's handler or mask changed is named (a warning) and the state put back, so a later
    test's Ctrl-C in the same pytest worker is not lost."""
    import signal
    import threading
    import warnings
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler, mask = signal.getsignal(signal.SIGINT), signal.pthread_sigmask(signal.SIG_BLOCK, [])
    yield
    now_handler, now_mask = signal.getsignal(signal.SIGINT), signal.pthread_sigmask(signal.SIG_BLOCK, [])
    if now_handler is not handler or (signal.SIGINT in now_mask) != (signal.SIGINT in mask):
        warnings.warn(f'{request.node.nodeid} left SIGINT as {now_handler!r}, blocked: {signal.SIGINT in now_mask}; '
                      'put back', stacklevel=1)
        signal.signal(signal.SIGINT, handler if handler is not None else signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


def _fake_cjk_font(monkeypatch):
    from d2l_ext.display import fonts, style
    monkeypatch.setattr(fonts, 'cjk_font', lambda: 'DejaVu Sans')
    monkeypatch.setattr(style, 'cjk_font', lambda: 'DejaVu Sans')


@pytest.fixture(autouse=True)
def _chinese_plot_text_on_any_machine(request, monkeypatch):
    """Every test sees plots as on a machine with a CJK font, whether or not this one has one (faked as below).

    Tests of Chinese plot titles then check the Chinese, not the English fallback that a machine without a
    CJK font draws on purpose (the lent GPU machine: 9 such tests failed there, issue 35). A test of the
    fallback asks for `no_cjk_font` (test_style.py), which patches after this fixture and so wins. Nothing is
    faked where a real CJK font is installed.
    """
    import warnings

    from d2l_ext.display import fonts
    if fonts.cjk_font() is None:
        _fake_cjk_font(monkeypatch)
        # the faked font has no Chinese glyphs: matplotlib says so once per character (the texts are what is tested)
        warnings.filterwarnings('ignore', message=r'Glyph \d+ .* missing from font', category=UserWarning)
    yield


@pytest.fixture
def faked_cjk_font(monkeypatch):
    """As on a machine with a CJK font (its name faked: the texts are checked, not their glyphs).

    A test of Chinese plot labels needs it: without a CJK font (the lent GPU machine has none) plots fall back to
    English labels on purpose, and the test would check the fallback instead.
    """
    from d2l_ext.display import style
    _fake_cjk_font(monkeypatch)
    yield
    style.apply()
