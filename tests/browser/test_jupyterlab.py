"""Each English notebook (and the fixture) in a real JupyterLab, driven in headless Chromium as a person would.

The Chinese notebooks open in Voila instead (test_lecture_mode.py; conftest.front_ends says which goes where).

Run All Cells from the menu, wait for the kernel, check there is no error output, no widget left
unrendered and no JavaScript error; where the notebook has a Run button (class d2l-run), move the
size / iteration controls with the keyboard, click Run and check the results table and the plot
changed. A full-page screenshot of each notebook goes to $D2L_EXT_SCREENSHOTS/lab/ (default
build/screenshots/lab/). The notebooks are served from a temp copy; the working tree is not
written.
"""

import time

import pytest

pytestmark = pytest.mark.browser
FRONT_END = 'lab'  # the notebooks it opens: conftest.front_ends


def test_notebook_in_jupyterlab(notebook, lab_server, d2l_page, ui, screenshot_dir):
    page, log = d2l_page.page, d2l_page.log
    timings = {}
    t0 = time.monotonic()
    try:
        page.goto(lab_server.url(notebook, workspace=f't-{notebook.slug}'),
                  timeout=120_000)
        page.locator('.jp-NotebookPanel .jp-Notebook').first.wait_for(timeout=120_000)
        ui.wait_lab_kernel_idle(page, 120)
        ui.dismiss_notifications(page)
        timings['open'] = time.monotonic() - t0

        # Clear stored outputs first, so that every execution count seen afterwards is new.
        ui.lab_menu(page, 'Edit', 'Clear Outputs of All Cells')
        ui.lab_menu(page, 'Run', 'Run All Cells')
        state = ui.wait_lab_run_all(page, ui.timeout_s)
        timings['run_all'] = time.monotonic() - t0 - timings['open']
        ui.assert_no_cell_errors(state)
        assert state['code'] > 0, 'the notebook has no code cells'
        ui.assert_widgets_rendered(page, expect_run=notebook.has_run)
        ui.assert_no_output_errors(page)

        if page.locator(f".{ui.classes['run']}").count():
            t1 = time.monotonic()
            ui.exercise(page, ui.timeout_s,
                        settle=lambda: ui.wait_lab_kernel_idle(page, ui.timeout_s))
            timings['exercise'] = time.monotonic() - t1
            state = ui.wait_lab_kernel_idle(page, ui.timeout_s)
            ui.assert_no_cell_errors(state)
            ui.assert_widgets_rendered(page)
            ui.assert_no_output_errors(page)
        log.assert_clean()
    finally:
        try:
            ui.screenshot(page, screenshot_dir / 'lab' / f'{notebook.slug}.png')
        finally:
            lab_server.shutdown_sessions()  # free the CPU for the next notebook
        print(f'{notebook.rel}: ' + ', '.join(f'{k} {v:.1f} s' for k, v in timings.items()))
