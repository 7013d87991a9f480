"""Lecture mode: scripts/lecture.sh serves each Chinese notebook (and the fixture) with Voila; it works in Chromium.

The English notebooks open in JupyterLab instead (test_jupyterlab.py; conftest.front_ends says which goes where).

The fixture notebook runs under the instructor's single-notebook command (scripts/lecture.sh
NOTEBOOK PORT); the lesson notebooks are pages of one `scripts/lecture.sh FOLDER PORT` server
(/voila/render/<path>), so Voila starts once; each page still runs in a fresh kernel, shut down
after its test.

The page must finish loading with every widget rendered, no error output (Voila runs with
--show_tracebacks=True here so a failure is readable) and no JavaScript error; code must be hidden;
where the notebook has a Run button, a slider moved with the keyboard and a click on Run must
rerun the experiment and change the results table. Screenshots go to
$D2L_EXT_SCREENSHOTS/voila/ (default build/screenshots/voila/).

Voila 0.5.13 now and then never finishes a page (it stays at "Executing n of m" with the kernel
idle; seen in about 1 of 25 loads when a cell captures into an Output widget with `with out:` while
it runs). The test tells that apart from a slow cell by the kernels' CPU time and reloads once,
with a warning; a second stall fails.
"""

import time
import warnings

import pytest

pytestmark = pytest.mark.browser
FRONT_END = 'voila'  # the notebooks it opens: conftest.front_ends


_PAGE_STATE_JS = """() => ({
    spinner: !!document.getElementById('loading'),
    text: (document.getElementById('loading_text') || {}).innerText || '',
    shown: !!document.getElementById('rendered_cells') &&
           document.getElementById('rendered_cells').style.display !== 'none'})"""

_PAGE_SHOWN_JS = """() => !document.getElementById('loading') &&
    !!document.getElementById('rendered_cells') &&
    document.getElementById('rendered_cells').style.display !== 'none'"""

STALL_WINDOW_S = 15  # "Executing" with the kernels using < STALL_CPU_S of CPU in this window
STALL_CPU_S = 0.3


def load_lecture_page(page, url, server, timeout):
    """Open the page and wait until Voila has run every cell; returns the attempt number."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for attempt in (1, 2):
        page.goto(url, wait_until='commit', timeout=60_000)
        start = time.monotonic()
        samples = []  # (time, kernels' cpu seconds)
        while True:
            state = page.evaluate(_PAGE_STATE_JS)
            if state['shown'] and not state['spinner']:
                return attempt
            now = time.monotonic()
            assert now - start < timeout, (f'Voila page not ready after {timeout:.0f} s: '
                                           f'{state}\n{server.log_tail()}')
            cpu = server.children_cpu_seconds()
            if state['text'].startswith('Executing') and cpu == cpu:  # not NaN
                samples.append((now, cpu))
                old = [c for t, c in samples if t <= now - STALL_WINDOW_S]
                if old and cpu - old[-1] < STALL_CPU_S:
                    break  # stalled: the page waits, the kernel does nothing
            try:  # returns as soon as the page shows, else after 0.5 s for the stall check
                page.wait_for_function(_PAGE_SHOWN_JS, timeout=500)
            except PlaywrightTimeout:
                pass
        warnings.warn(f"Voila stalled at {state['text']!r} with an idle kernel "
                      f"(attempt {attempt}); reloading the page", stacklevel=2)
    raise AssertionError(f"Voila stalled twice at {state['text']!r} with an idle kernel\n"
                         f"{server.log_tail()}")


def test_notebook_in_lecture_mode(notebook, lecture_server, d2l_page, ui, screenshot_dir):
    page, log = d2l_page.page, d2l_page.log
    timings = {}
    t0 = time.monotonic()
    url, server = lecture_server(notebook)
    timings['start'] = time.monotonic() - t0
    try:
        attempts = load_lecture_page(page, url, server, ui.timeout_s)
        page.wait_for_load_state('load')
        timings['load'] = time.monotonic() - t0 - timings['start']
        if attempts > 1:
            timings['load attempts'] = attempts
        ui.assert_widgets_rendered(page, expect_run=notebook.has_run)
        ui.assert_no_output_errors(page)
        assert page.locator('.jp-CodeCell .jp-InputArea-editor').count() == 0, \
            'code is visible in lecture mode'

        if page.locator(f".{ui.classes['run']}").count():
            t1 = time.monotonic()
            ui.exercise(page, ui.timeout_s)
            timings['exercise'] = time.monotonic() - t1
            ui.assert_widgets_rendered(page)
            ui.assert_no_output_errors(page)
        log.assert_clean()
    finally:
        ui.screenshot(page, screenshot_dir / 'voila' / f'{notebook.slug}.png')
        print(f'{notebook.rel}: ' + ', '.join(f'{k} {v:.1f} s' for k, v in timings.items()))
