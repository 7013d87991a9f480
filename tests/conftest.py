import os

os.environ.setdefault('MPLBACKEND', 'Agg')

import pytest  # noqa: E402

from d2l_ext.machine import has_framework  # noqa: E402

needs_mxnet = pytest.mark.skipif(not has_framework('mxnet'), reason='MXNet is not installed (optional extra)')


# Test modules that import the Jupyter packages at the top: without them, a skip, not a collection error
# (the package itself and its other tests need none of them).
NEEDS_JUPYTER = {'test_rerun.py': ('nbformat', 'nbclient'),
                 'test_notebooks.py': ('jupytext', 'nbformat', 'nbclient'),
                 'test_build.py': ('jupytext', 'nbformat', 'nbclient')}


class _NeedsJupyter(pytest.Module):
    def _getobj(self):
        missing = [m for m in NEEDS_JUPYTER[self.path.name] if not has_framework(m)]
        if missing:
            pytest.skip(f"needs {', '.join(missing)} (pip install 'd2l_ext[test]')",
                        allow_module_level=True)
        return super()._getobj()


def pytest_pycollect_makemodule(module_path, parent):
    if module_path.name in NEEDS_JUPYTER and module_path.parent.name == 'tests':
        return _NeedsJupyter.from_parent(parent, path=module_path)
    return None


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
