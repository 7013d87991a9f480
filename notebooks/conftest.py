"""nbval settings for the notebooks: stderr is not compared, and every notebook runs twice in one kernel.

stderr: it carries noise that is not part of the lesson and arrives out of order, e.g. MXNet's
"start using engine" line written by a worker process straight to the kernel's stderr, which the
kernel forwards to whichever cell is running when it notices it.

Second run: after nbval has run every cell in order and compared its output with the committed
one, every code cell runs once more, in order, in the same kernel, without comparing outputs (a
cell raising fails). That is Run All a second time, and each of its cells is also "this cell
re-run after everything ran"; one kernel and one first pass serve both checks, so a notebook is
executed once for nbval and once more for the re-run, not three times.
"""
SECOND = ' (second run)'


def pytest_collectstart(collector):
    if hasattr(collector, 'skip_compare'):
        collector.skip_compare += ('stderr',)


def _second_run_item(first):
    """The same cell again, after the first pass: no comparison, never skipped, errors still fail."""
    options = type(first.options)(bool, first.options)  # a defaultdict, as nbval builds it
    options.update(check=False, skip=False)
    item = type(first).from_parent(first.parent, name=first.name + SECOND, cell_num=first.cell_num,
                                   cell=first.cell, options=options)
    original = item.repr_failure

    def repr_failure(excinfo):
        return (f'{first.parent.name}, second run (every cell again after Run All), '
                f'code cell {first.cell_num}:\n' + str(original(excinfo)))

    item.repr_failure = repr_failure
    return item


def pytest_collection_modifyitems(session, config, items):
    """Put each notebook's second run right after its first, so both use the notebook's one kernel."""
    out, pending, parent = [], [], None
    for item in items:
        if item.parent is not parent:
            out += [_second_run_item(i) for i in pending]
            pending, parent = [], item.parent
        out.append(item)
        if hasattr(item, 'cell_num') and hasattr(item.parent, 'kernel') and not item.name.endswith(SECOND):
            pending.append(item)
    out += [_second_run_item(i) for i in pending]
    items[:] = out

