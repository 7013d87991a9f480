"""The "Build it" grading machinery: verdicts, hangs, crashes, running out of memory, bad input, the notebook entry."""
import importlib
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from d2l_ext.display.grading import CheckedVerdict, check, lines
from d2l_ext.grading import registry
from d2l_ext.grading.core import BadSubmission, Criterion, Verdict, call_learner, load_submission, parse_submission
from d2l_ext.grading.runner import grade
from d2l_ext.i18n import using_language

# A task as small as a task can be, imported by the grading process from the test's folder.
TINY = """
from d2l_ext.grading.core import Task, call_learner, criterion
from d2l_ext.i18n import language


def grade(submission):
    ok, got = call_learner(submission.functions['add'], 2, 3)
    if not ok:
        return [got]
    error = abs(got - 5) / 5
    return [criterion('runs', True, 'tiny.ran', language=language()),
            criterion('correct', error <= 1e-6, 'grading.correct', error=error, tolerance=1e-6)]


TASK = Task(id='tiny', section='0', functions=('add',), signatures={'add': 'add(a, b)'},
            description_key='tiny.description', grade=grade, budget_s=lambda: 60.0)
"""


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """Registers the task 'tiny' (module written to tmp_path, found by the grading process through PYTHONPATH)."""
    (tmp_path / 'd2l_tiny_task.py').write_text(TINY, encoding='utf-8')
    monkeypatch.setenv('PYTHONPATH', str(tmp_path))
    monkeypatch.setenv('D2L_EXT_GRADING_WRITABLE', str(tmp_path))  # the learner's code writes its pids here
    monkeypatch.setitem(registry.TASKS, 'tiny', registry.Entry('tiny', 'd2l_tiny_task:TASK', '0',
                                                                {'add': 'add(a, b)'}, 'tiny.description'))
    return tmp_path


def body(code: str) -> str:
    """A learner's add(a, b) whose body is `code`."""
    return 'def add(a, b):\n' + textwrap.indent(textwrap.dedent(code).strip('\n'), '    ') + '\n'


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped by init counts as ended)."""
    try:
        import psutil
        return psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except ImportError:
        pass
    except Exception:  # noqa: BLE001 (gone between the two calls)
        return False
    stat = Path(f'/proc/{pid}/stat')
    if stat.parent.parent.exists():
        try:
            return stat.read_text().rsplit(')', 1)[1].split()[0] != 'Z'
        except OSError:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def ended(pids, within_s: float = 20.0) -> list[int]:
    """The pids still running after up to `within_s` for SIGKILL to take effect (a bound, not a timing assert)."""
    end = time.monotonic() + within_s
    while any(alive(p) for p in pids) and time.monotonic() < end:
        time.sleep(0.05)
    return [p for p in pids if alive(p)]


HANG = """
import os, subprocess, sys, time
sleep = [sys.executable, '-c', 'import time; time.sleep(600)']
same = subprocess.Popen(sleep)
escaped = subprocess.Popen(sleep, start_new_session=True)  # left the group: found as a descendant
with open({path!r} + '.part', 'w') as f:
    f.write(f'{{os.getpid()}} {{same.pid}} {{escaped.pid}}')
os.replace({path!r} + '.part', {path!r})
while True:
    time.sleep(0.05)
"""


def read_pids(path: Path, within_s: float = 60.0) -> list[int]:
    end = time.monotonic() + within_s
    while not path.exists() and time.monotonic() < end:
        time.sleep(0.05)
    return [int(p) for p in path.read_text().split()]


# -- graded in a separate process -------------------------------------------------------------------

def test_a_right_answer_passes(tiny):
    v = grade('tiny', body('return a + b'))
    assert v.status == 'passed' and v.passed, v
    assert [c.id for c in v.criteria] == ['runs', 'correct']
    assert v.budget_s == 60.0 and v.seconds > 0
    assert lines(v)[0] == '✓ passed: tiny'


def test_a_wrong_answer_is_not_yet_with_its_number(tiny):
    v = grade('tiny', body('return a + b + 1'))
    assert v.status == 'not_yet'
    correct = next(c for c in v.criteria if c.id == 'correct')
    assert not correct.passed and correct.fields['error'] == pytest.approx(0.2)
    drawn = lines(v)
    assert drawn[0] == 'not yet: tiny' and len(drawn) == 4 and drawn[-1].startswith('  change: ')
    assert '2.0e-01' in drawn[2] and drawn[2].startswith('  ✗')
    assert len(lines(v, compact=True)) <= 3  # a notebook cell: at most 3 lines


@pytest.mark.parametrize('code, process', [
    ('"""Add them."""\n# TODO\nraise NotImplementedError', False),  # the lesson's skeleton: answered at once
    ('total = a + b\nraise NotImplementedError("not done")', True),  # started: graded in a process
])
def test_the_skeleton_is_todo_not_a_crash(tiny, code, process):
    v = grade('tiny', body(code))
    assert v.status == 'not_yet'
    assert [(c.id, c.key) for c in v.criteria] == [('runs', 'grading.todo')]
    assert 'NotImplementedError' in lines(v)[1]
    assert (v.budget_s == 60.0) == process


def test_an_error_names_its_type_and_line(tiny):
    v = grade('tiny', body('x = 1\nreturn a + "b"'))
    (c,) = v.criteria
    assert v.status == 'not_yet' and c.key == 'grading.raised_at'
    assert c.fields['error'].startswith('TypeError') and c.fields['line'] == 3


def test_a_hang_is_stopped_at_the_bound_and_leaves_nothing_running(tiny):
    path = tiny / 'pids.txt'
    v = grade('tiny', body(HANG.format(path=str(path))), budget_s=1.0)
    assert v.status == 'hung' and v.budget_s == 1.0
    assert v.criteria[0].key == 'grading.hung' and v.criteria[0].fields['seconds'] == 1.0
    assert 'stopped after 1.0 s' in lines(v)[1]
    pids = read_pids(path)
    try:
        import psutil  # noqa: F401 (the process that left the group is found only through psutil)
    except ImportError:
        pids = pids[:2]
    assert ended(pids) == []


def test_ctrl_c_while_grading_kills_everything_and_propagates(tiny, sigint_from_a_terminal):
    path = tiny / 'pids.txt'

    def interrupt():
        read_pids(path)
        os.kill(os.getpid(), signal.SIGINT)
    threading.Thread(target=interrupt, daemon=True).start()
    with pytest.raises(KeyboardInterrupt):
        grade('tiny', body(HANG.format(path=str(path))), budget_s=300.0)
    assert ended(read_pids(path)[:2]) == []


@pytest.mark.parametrize('code, status, key, field', [
    ('import os\nos._exit(3)', 'crashed', 'grading.crashed_code', ('code', 3)),
    ('import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)', 'crashed', 'grading.crashed_signal',
     ('signal', 'SIGSEGV')),
    ('raise SystemExit(4)', 'crashed', 'grading.crashed_error', ('error', 'SystemExit: 4')),
    ('raise MemoryError("no room")', 'out_of_memory', 'grading.out_of_memory', ('error', 'MemoryError: no room')),
    ('import os, signal\nos.kill(os.getpid(), signal.SIGKILL)', 'out_of_memory', 'grading.killed', None),
])
def test_crashes_and_running_out_of_memory_are_named(tiny, code, status, key, field):
    v = grade('tiny', body(code))
    assert v.status == status and v.criteria[0].key == key, v
    if field:
        assert v.criteria[0].fields[field[0]] == field[1]
    assert lines(v)[0] == 'not yet: tiny'


def test_a_task_that_cannot_load_or_start_is_named(tiny, monkeypatch):
    from d2l_ext.grading import runner
    (tiny / 'd2l_slow_task.py').write_text('import time\ntime.sleep(600)\n', encoding='utf-8')
    for name, target in (('broken', 'd2l_no_such_module:TASK'), ('slow', 'd2l_slow_task:TASK')):
        monkeypatch.setitem(registry.TASKS, name, registry.Entry(name, target, '0', {'add': 'add(a, b)'}, 'x'))
    v = grade('broken', body('return a + b'))
    assert v.status == 'crashed' and v.criteria[0].key == 'grading.task_broken'
    assert 'd2l_no_such_module' in v.criteria[0].fields['error']
    monkeypatch.setattr(runner, 'STARTUP_S', 1.0)
    v = grade('slow', body('return a + b'))
    assert v.status == 'hung' and v.criteria[0].key == 'grading.hung_startup' and v.budget_s == 1.0


@pytest.mark.parametrize('source, key', [
    ('def add(a, b)\n    return a + b\n', 'grading.syntax'),
    ('def plus(a, b):\n    return a + b\n', 'grading.missing'),
    ('def add(a):\n    return a\n', 'grading.signature'),
    ('1 / 0\n' + body('return a + b'), 'grading.top_level'),  # found only in the grading process
])
def test_bad_input_is_one_line(tiny, source, key):
    v = grade('tiny', source)
    assert v.status == 'bad_input' and v.criteria[0].key == key
    (line,) = lines(v)
    assert line.startswith('cannot grade tiny: ') and 'Traceback' not in line


def test_an_unknown_task_or_budget_is_bad_input():
    v = grade('13.3.9-nothing', 'def f(): pass\n')
    assert v.status == 'bad_input' and v.criteria[0].key == 'grading.no_task'
    assert '13.3.1-lanes' in lines(v)[0]
    for budget in (0, -1, float('nan'), float('inf'), 'soon'):
        assert grade('13.3.1-lanes', 'def f(): pass\n', budget_s=budget).criteria[0].key == 'grading.bad_budget'


def test_a_verdict_speaks_chinese(tiny):
    v = Verdict('tiny', 'not_yet', [Criterion('runs', False, 'grading.todo', {'name': 'add'})])
    with using_language('zh'):
        assert lines(v) == ['尚未通过：tiny', '  ✗ 仍然抛出NotImplementedError：请把TODO换成你的代码']
        assert lines(Verdict('tiny', 'passed', []))[0] == '✓ 通过：tiny'


def test_the_grading_process_speaks_the_callers_language(tiny):
    v = grade('tiny', body('return a + b'), language='zh')
    assert v.passed and v.criteria[0].fields['language'] == 'zh'  # text a grader makes is in the learner's language
    assert grade('tiny', body('return a + b')).criteria[0].fields['language'] == 'en'
    with using_language('zh'):
        assert lines(v)[2] == '  ✓ 正确：最大误差0.0e+00（允许1e-06）'


# -- the helpers the task authors use -------------------------------------------------------------

def test_call_learner_turns_errors_into_runs_criteria():
    def todo(x):
        raise NotImplementedError

    def wrong(x):
        return x + 'a'

    def undefined(x):
        return missing_name  # noqa: F821

    assert call_learner(lambda x: x * 2, 4) == (True, 8)
    ok, c = call_learner(todo, 1)
    assert not ok and (c.id, c.key, c.fields['name']) == ('runs', 'grading.todo', 'todo')
    ok, c = call_learner(wrong, 1)
    assert c.key == 'grading.raised_at' and c.fields['error'].startswith('TypeError: unsupported operand')
    assert c.fields['line'] == wrong.__code__.co_firstlineno + 1
    ok, c = call_learner(undefined, 1)
    assert c.key == 'grading.undefined' and 'missing_name' in c.fields['error']
    with pytest.raises(MemoryError):
        call_learner(lambda: (_ for _ in ()).throw(MemoryError()))


def test_load_submission_checks_names_and_parameters():
    task = importlib.import_module('d2l_ext.grading.core').Task(
        'x', '0', ('f',), {'f': 'f(a, *rest, key=1, **more)'}, 'x.description', lambda s: [], lambda: 1.0)
    assert load_submission(task, 'def f(a, *rest, key=2, **more):\n    return a\n').functions['f'](5) == 5
    with pytest.raises(BadSubmission) as e:
        load_submission(task, 'def f(a, key):\n    pass\n')
    assert e.value.key == 'grading.signature' and e.value.fields['got'] == 'a, key'
    with pytest.raises(BadSubmission) as e:
        parse_submission(task.signatures, 'f = lambda a: a\n')
    assert e.value.key == 'grading.missing' and 'define a function f(a' in str(e.value)


# -- the registry -----------------------------------------------------------------------------------

def test_listing_names_every_task_without_importing_a_framework():
    code = ('import json, sys; from d2l_ext.grading.registry import listing; rows = listing(); '
            "print(json.dumps([sorted(sys.modules.keys() & {'torch', 'numpy', 'matplotlib'}), rows]))")
    import json
    out = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout
    imported, rows = json.loads(out)
    assert imported == []
    assert [r['id'] for r in rows] == list(registry.TASKS) and len(rows) == 7
    for r in rows:
        assert set(r) >= {'id', 'functions', 'signatures', 'description'}
        assert len(r['functions']) == len(r['signatures']) >= 1
        assert ('function' in r) == (len(r['functions']) == 1)


@pytest.mark.parametrize('task_id', list(registry.TASKS))
def test_the_registry_says_what_each_task_says(task_id):
    e = registry.TASKS[task_id]
    module = e.target.partition(':')[0]
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name != module:
            raise
        pytest.skip(f'{module} is not written yet')
    task = registry.task(task_id)
    assert (task.id, task.section, task.functions, task.signatures, task.description_key) == \
           (e.id, e.section, e.functions, e.signatures, e.description_key)


def test_an_unknown_id_lists_the_known_ones():
    with pytest.raises(BadSubmission) as e:
        registry.task('13.3.5')
    assert e.value.key == 'grading.no_task' and '13.3.4-d-buckets' in str(e.value)


# -- the notebook entry -----------------------------------------------------------------------------

def test_check_bad_input_is_one_line_and_no_process(tiny, capsys):
    def plus(a, b):
        return a + b
    v = check('tiny', plus)
    assert v.status == 'bad_input' and v.criteria[0].key == 'grading.names'
    assert capsys.readouterr().out == 'cannot grade tiny: tiny grades add; got plus\n'
    assert check('tiny', 'add').criteria[0].key == 'grading.not_function'
    made = {}
    exec('def add(a, b):\n    return a + b\n', made)  # no file holds this source
    assert check('tiny', made['add']).criteria[0].key == 'grading.no_source'


def test_a_notebook_cell_shows_the_drawn_lines_once(tiny):
    interactive = pytest.importorskip('IPython.core.interactiveshell')
    from IPython.utils.capture import capture_output
    shell = interactive.InteractiveShell.instance()
    try:
        shell.run_cell('import d2l_ext', store_history=True)
        with capture_output() as cell:
            shell.run_cell('def add(a, b):\n    return a + b\n\nd2l_ext.check("tiny", add)', store_history=True)
        assert cell.stdout.count('✓ passed: tiny') == 1 and 'Verdict(' not in cell.stdout, cell.stdout
        assert len(cell.outputs) == 0  # no Out[...] value
        with capture_output() as later:  # a later cell showing the returned verdict draws it again
            shell.run_cell('_', store_history=True)
        assert later.stdout.count('✓ passed: tiny') == 1
        assert isinstance(shell.user_ns['_'], CheckedVerdict)
        with capture_output():  # an error's line is the line in the learner's cell
            shell.run_cell('# my answer\ndef add(a, b):\n    x = 1\n    return a + "b"\n', store_history=True)
            shell.run_cell('v = d2l_ext.check("tiny", add)', store_history=True)
        assert shell.user_ns['v'].criteria[0].fields['line'] == 4
    finally:
        interactive.InteractiveShell.clear_instance()


def test_a_skeleton_is_told_what_will_be_checked_with_the_tasks_own_thresholds():
    """The 'not yet' of a skeleton lists the checks; every threshold it states is the one the grader uses."""
    allreduce = ('d2l_ext.grading.allreduce', 'd2l_ext.grading.allreduce_overlap')  # 13.3.4's: wherever it is
    modules = {'13.3.1-lanes': ('d2l_ext.grading.lanes',), '13.3.2-copy': ('d2l_ext.grading.copy',),
               '13.3.3-mlp': ('d2l_ext.grading.mlp',), '13.3.4-c-hooks': allreduce, '13.3.4-d-buckets': allreduce}
    for task_id, e in registry.TASKS.items():
        assert e.checks_key, f'{task_id} does not say what it checks'
        stated = dict(e.checks).get('threshold')
        if task_id in modules:
            pytest.importorskip('torch')
            found = [vars(importlib.import_module(m)).get('THRESHOLD') for m in modules[task_id]]
            assert stated == next(v for v in found if v is not None), task_id
        todo = Verdict(task_id, 'not_yet', [Criterion('runs', False, 'grading.todo', {'name': 'f'})])
        for lang in ('en', 'zh'):
            with using_language(lang):
                shown = lines(todo)
            assert len(shown) == 3 and (stated is None or f'{stated:.0%}' in shown[-1]), shown
    passed = Verdict('13.3.1-lanes', 'passed', [Criterion('runs', True, 'task.lanes.ran', {'runs': 2})])
    assert len(lines(passed)) == 2  # only a skeleton is told


def test_with_lines_changes_one_line_of_a_worked_solution():
    """A wrong version is written as its change to the worked solution; a statement not found once is an error."""
    from d2l_ext.grading.core import with_lines

    def step(x):
        y = x + 1  # a comment does not count
        return y

    assert with_lines(step, ('y = x + 1', 'y = x')) == 'def step(x):\n    y = x\n    return y\n'
    assert with_lines(step, ('y = x + 1', '')) == 'def step(x):\n    return y\n'
    with pytest.raises(AssertionError):
        with_lines(step, ('y = x + 2', ''))
