"""13.3.1's graded task: the solution passes, typical wrong versions fail for their reason, the lesson shows it."""
import inspect
import pathlib
import re

import pytest

from d2l_ext.grading import lanes as task
from d2l_ext.grading.core import load_submission
from d2l_ext.i18n import catalogue, using_language
from d2l_ext.parallel.together import run_together
from tests.wrong_versions import LANES_CRASHES, LANES_HANGS, LANES_WRONG, LANES_WRONG_GPU

LESSON = pathlib.Path(__file__).parents[1] / 'notebooks' / 'src' / '13.3.1-Parallel-Computation-on-Devices.py'


def grade(source):
    return {c.id: c for c in task.TASK.grade(load_submission(task.TASK, source))}


def lanes_have_gpu():
    return any(lane.kind == 'gpu' for lane in task.graded_lanes())


@pytest.mark.slow  # over 5 s on the 2-core machine under load
def test_worked_solution_passes_every_criterion_but_the_timing_is_only_measured():
    """The overlap is a timing (benchmarks/ and tools/grade_tasks.py judge it): measured, not asserted to pass."""
    verdict = grade(inspect.getsource(run_together))
    assert set(verdict) == {'runs', 'correct', 'threads', 'safe', 'overlap', 'streams'}
    assert all(c.passed for c in verdict.values() if c.id != 'overlap'), [(c.id, c.key) for c in verdict.values()]
    assert verdict['overlap'].key == 'task.lanes.overlap' and len(verdict['overlap'].fields['repeats']) == 3
    o = verdict['overlap'].fields
    assert 0 <= o['measured'] <= 1 and o['model'] == task.PREDICTED and o['threshold'] == task.THRESHOLD


@pytest.mark.parametrize('name', [pytest.param(n, marks=pytest.mark.slow) if n == 'no_join' else n  # over 5 s
                                  for n in sorted(LANES_WRONG)])
def test_wrong_versions_fail_for_their_reason(name):
    failing, source = LANES_WRONG[name]
    if name == 'sequential' and all(lane.kind == 'gpu' for lane in task.graded_lanes()):
        pytest.skip('on GPU lanes only, a plain loop queues both lanes at once and they do overlap')
    verdict = grade(source)
    assert not verdict[failing].passed, (name, verdict[failing].key, verdict[failing].fields)
    assert verdict[failing].key in catalogue('en') or verdict[failing].key.startswith('grading.')
    if failing != 'runs':
        assert verdict['runs'].passed


@pytest.mark.slow  # over 5 s under load (on CPU lanes: the worked solution graded again)
@pytest.mark.parametrize('name', sorted(LANES_WRONG_GPU))
def test_gpu_only_wrong_versions(name):
    failing, source = LANES_WRONG_GPU[name]
    verdict = grade(source)
    if lanes_have_gpu():
        assert not verdict[failing].passed and verdict[failing].key == 'task.lanes.unsafe_gpu'
    else:  # CPU lanes: PyTorch has computed everything before the threads end; only the simulated GPU sees it
        assert all(c.passed for c in verdict.values() if c.id not in ('overlap', 'streams'))  # overlap: a timing
        assert verdict['streams'].key == 'task.lanes.sim_unsafe'


def test_skeleton_reports_todo():
    skeleton = 'def run_together(lanes, works):\n    raise NotImplementedError\n'
    assert [(c.id, c.passed, c.key) for c in task.TASK.grade(load_submission(task.TASK, skeleton))] == [
        ('runs', False, 'grading.todo')]


def test_overlap_is_the_shorter_lanes_fraction():
    assert task.lane_overlap([(0.0, 1.0), (0.5, 0.7)]) == pytest.approx(1.0)
    assert task.lane_overlap([(0.0, 1.0), (1.0, 1.5)]) == pytest.approx(0.0)
    assert task.lane_overlap([(0.0, 1.0), (0.8, 1.2)]) == pytest.approx(0.5)


def test_every_key_the_grader_uses_is_in_both_catalogues():
    keys = set(re.findall(r"'(task\.lanes\.[a-z_]+)'", inspect.getsource(task)))
    keys |= {f'task.lanes.unsafe_{kind}' for kind in ('cpu', 'gpu')}
    for lang in ('en', 'zh'):
        with using_language(lang):
            assert keys <= set(catalogue(lang)), keys - set(catalogue(lang))


def test_budget_follows_the_size():
    before = task.budget_s()
    task.SIZE['cpu'] *= 2
    try:
        assert task.budget_s() > before
    finally:
        task.SIZE['cpu'] //= 2


def _functions_in(source: str, name: str) -> list[str]:
    """Every top-level `def name(` block in a percent-format source, as text."""
    blocks, lines = [], source.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f'def {name}('):
            j = i + 1
            while j < len(lines) and (lines[j].startswith((' ', '\t')) or not lines[j].strip()):
                j += 1
            blocks.append('\n'.join(lines[i:j]).rstrip() + '\n')
    return blocks


def test_lesson_shows_the_packaged_solution_collapsed():
    """The Build-it answer cell is the package's own runner, filled in by the build (`#@source`), collapsed."""
    source = LESSON.read_text()
    line = '#@source d2l_ext.parallel.together.run_together'
    assert line in source and run_together.__module__.startswith('d2l_ext.')
    header = source[:source.index(line)].rsplit('# %%', 1)[1].splitlines()[0]
    assert '"source_hidden": true' in header and '"outputs_hidden": true' in header


# A hang is killed at the budget whatever it is: 8 s is enough to show it; a crash needs time to import first.
@pytest.mark.slow  # over 5 s: a grading process started, PyTorch imported, a hang waited for
@pytest.mark.parametrize('source, status, budget', [(LANES_HANGS, 'hung', 8), (LANES_CRASHES, 'crashed', 20)])
def test_hanging_and_crashing_versions_are_reported_by_the_runner(source, status, budget):
    runner = pytest.importorskip('d2l_ext.grading.runner')
    verdict = runner.grade('13.3.1-lanes', source, budget_s=budget)
    assert verdict.status == status and not verdict.criteria[0].passed
