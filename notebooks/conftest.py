"""nbval settings for the notebooks: stderr is not compared.

Why: it carries noise that is not part of the lesson and arrives out of order, e.g. MXNet's
"start using engine" line written by a worker process straight to the kernel's stderr, which the
kernel forwards to whichever cell is running when it notices it.
"""


def pytest_collectstart(collector):
    if hasattr(collector, 'skip_compare'):
        collector.skip_compare += ('stderr',)
