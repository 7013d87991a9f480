"""Untrusted code contained, and never passed without doing the task (issue 33: the tester's cases, one test each)."""
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from d2l_ext.cli_check import main as check_main
from d2l_ext.grading import classroom, integrity, landlock, registry, sandbox
from d2l_ext.grading.core import EXIT_CODES, STATUSES, Criterion, Verdict
from d2l_ext.grading.runner import grade

ROOT = Path(__file__).resolve().parents[1]

TINY = """
from d2l_ext.grading.core import Task, call_learner, criterion

THRESHOLD = 0.5


def grade(submission):
    ok, got = call_learner(submission.functions['add'], 2, 3)
    if not ok:
        return [got]
    return [criterion('runs', True, 'tiny.ran'), criterion('correct', got == 5, 'grading.correct', error=0.0,
                                                            tolerance=0.0),
            criterion('overlap', 0.1 >= THRESHOLD, 'tiny.overlap', measured=0.1, predicted=1.0, threshold=THRESHOLD)]


TASK = Task(id='tiny', section='0', functions=('add',), signatures={'add': 'add(a, b)'},
            description_key='tiny.description', grade=grade, budget_s=lambda: 60.0)
"""


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    """The task 'tiny': a timed criterion (overlap 10%, needed 50%) graded on every machine (no load check)."""
    (tmp_path / 'd2l_tiny_sandbox.py').write_text(TINY, encoding='utf-8')
    monkeypatch.setenv('PYTHONPATH', str(tmp_path))
    monkeypatch.setenv('D2L_EXT_GRADING_LOAD_SHARE', '2')  # tests never depend on this machine's load
    monkeypatch.setitem(registry.TASKS, 'tiny', registry.Entry(
        'tiny', 'd2l_tiny_sandbox:TASK', '0', {'add': 'add(a, b)'}, 'tiny.description', '',
        (('threshold', 0.5),), (('runs', 1), ('correct', 1), ('overlap', 1))))
    return tmp_path


def learner(top: str = '', body: str = 'return a + b') -> str:
    return textwrap.dedent(top) + '\ndef add(a, b):\n' + textwrap.indent(textwrap.dedent(body), '    ') + '\n'


def alive(pid: int) -> bool:
    try:
        state = open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()[0]
    except OSError:
        return False
    return state != 'Z'


def sleeping(pid: int) -> bool:
    try:
        return 'sleep' in open(f'/proc/{pid}/cmdline').read()
    except OSError:  # ended meanwhile
        return False


def ours(pid: int) -> bool:
    """Started under a grading (its HOME is a grading folder), not another program's process on a shared machine."""
    try:
        return any(v.startswith(b'HOME=') and b'd2l_ext-grading-' in v
                   for v in open(f'/proc/{pid}/environ', 'rb').read().split(b'\0'))
    except OSError:
        return False


def test_statuses_have_their_own_exit_codes():
    assert EXIT_CODES == {'passed': 0, 'not_yet': 1, 'bad_input': 2, 'cannot_measure': 3, 'hung': 4, 'crashed': 5,
                          'out_of_memory': 6}
    assert set(EXIT_CODES) == set(STATUSES)


@pytest.mark.parametrize('how', ['setsid', 'double_fork', 'nohup'])
def test_nothing_started_by_the_learner_outlives_grading(tiny, how):
    start = {'setsid': "subprocess.Popen(['setsid', 'sleep', '300'])",
             'nohup': "subprocess.Popen('nohup sleep 300 >/dev/null 2>&1 & echo $! > pid', shell=True).wait()",
             'double_fork': 'os.fork() or (os.setsid(), os.fork() or time.sleep(300), os._exit(0))'}[how]
    body = f"""
        import os, subprocess, time
        p = {start}
        time.sleep(0.5)
        print('PIDS', ' '.join(e for e in os.listdir('/proc') if e.isdigit()))
        return a + b
    """
    before = {int(e) for e in os.listdir('/proc') if e.isdigit()}
    v = grade('tiny', learner(body=body))
    assert v.status in ('not_yet', 'passed'), v
    seen = {int(p) for line in v.output.splitlines() if line.startswith('PIDS') for p in line.split()[1:]}
    # every process the learner's run saw that was not there before is gone (a pid namespace: none of ours are seen);
    # a killed process may take a moment to end on a loaded machine: a survivor (sleep 300) is still there after 5 s
    for _ in range(50):
        time.sleep(0.1)
        left = [p for p in seen - before if alive(p) and sleeping(p) and ours(p)]
        if not left:
            break
    assert not left, left


def test_own_folder_clean_environment_no_home(tiny, monkeypatch):
    monkeypatch.setenv('MY_SECRET_TOKEN', 'abc123')
    body = """
        import os
        print('CWD', os.getcwd(), sorted(os.listdir('.')), os.environ.get('HOME'), 'MY_SECRET_TOKEN' in os.environ)
        for name in os.listdir('.'):
            os.remove(name)
        return a + b
    """
    v = grade('tiny', learner(body=body))
    line = next(x for x in v.output.splitlines() if x.startswith('CWD'))
    cwd = line.split()[1]
    assert 'd2l_ext-grading-' in cwd and os.path.expanduser('~') not in line.split()[2:]
    assert line.endswith('False') and '[]' in line  # an empty folder of its own, no secret in the environment
    assert v.status == 'not_yet'  # overlap 10% < 50%


@pytest.mark.skipif(not landlock.landlock_abi() or sandbox.bwrap() is not None, reason='no Landlock here (or bwrap)')
def test_writes_outside_its_folder_are_refused(tiny, tmp_path, monkeypatch, capsys):
    """Landlock: the grader's folder, $HOME and a file elsewhere stay as they were; the learner's run says why."""
    home, grader = tmp_path / 'home', tmp_path / 'grader'
    home.mkdir()
    grader.mkdir()
    victim = grader / 'keep.txt'
    victim.write_text('mine')
    monkeypatch.chdir(grader)
    monkeypatch.setenv('HOME', str(home))
    for body in (f"open({str(grader / 'new.txt')!r}, 'w').write('x')", f"open({str(home / '.bashrc')!r}, 'w')",
                 f'import os\nos.remove({str(victim)!r})'):
        v = grade('tiny', learner(body=body + '\nreturn a + b'))
        assert v.status == 'not_yet' and 'PermissionError' in v.criteria[0].fields['error'], v
        from d2l_ext.display.grading import lines
        assert sum('PermissionError' in line for line in lines(v)) == 1
    assert sorted(p.name for p in grader.iterdir()) == ['keep.txt'] and not list(home.iterdir())
    (tmp_path / 'x.py').write_text(learner(body=f"open({str(grader / 'x')!r}, 'w')"))
    assert check_main(['tiny', str(tmp_path / 'x.py'), '--json']) == 1
    assert json.loads(capsys.readouterr().out)['containment'] == 'landlock'


@pytest.mark.skipif(landlock.landlock_abi() < 6 or sandbox.bwrap() is not None, reason='no Landlock signal scope here')
def test_a_signal_to_the_grader_is_refused(tiny):
    """Landlock 6+: the learner's code cannot signal its keeper (or any process it did not start)."""
    v = grade('tiny', learner(body='import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\nreturn a + b'))
    assert v.status == 'not_yet' and 'PermissionError' in v.criteria[0].fields['error'], v


def test_without_landlock_the_grader_says_so_and_grades_as_before(tiny, monkeypatch):
    """An old kernel: landlock() changes nothing, --help and --json name the keeper alone (or bubblewrap)."""
    monkeypatch.setattr(landlock, 'landlock_abi', lambda: 0)
    assert landlock.landlock(str(tiny)) is False
    assert sandbox.sandbox_name() == ('bubblewrap' if sandbox.bwrap() else 'keeper')
    from d2l_ext.cli_check import _epilog
    assert 'no Landlock' in _epilog() or sandbox.bwrap()


def test_writing_a_result_to_the_pipe_is_never_passed(tiny):
    top = """
        import json, os
        for fd in os.listdir('/proc/self/fd'):
            try:
                os.write(int(fd), (json.dumps({'event': 'result', 'status': 'graded', 'criteria': [
                    {'id': 'correct', 'passed': True, 'key': 'grading.correct', 'fields': {}}]}) + '\\n').encode())
            except OSError:
                pass
        os._exit(0)
    """
    v = grade('tiny', learner(top))
    assert v.status != 'passed' and v.criteria[0].key in ('grading.forged', 'grading.crashed_code'), v


def test_a_patched_threshold_or_grade_is_never_passed(tiny):
    for top in ('import d2l_tiny_sandbox\nd2l_tiny_sandbox.THRESHOLD = -1\n',
                'import d2l_tiny_sandbox\nd2l_tiny_sandbox.TASK.grade = lambda s: []\n',
                'import d2l_ext.grading.integrity as i\ni.judge = lambda t, c: ("passed", c)\n'):
        v = grade('tiny', learner(top))
        assert v.status == 'not_yet', (top, v)
        overlap = next(c for c in v.criteria if c.id == 'overlap')
        assert not overlap.passed and overlap.fields['threshold'] == 0.5


def test_importing_the_worked_solution_is_reported_as_such(tiny):
    source = ('from d2l_ext.grading.allreduce import allreduce_in_hooks\n'
              'def allreduce_in_hooks(model, X, y, optimizer):\n'
              '    return allreduce_in_hooks(model, X, y, optimizer)\n')
    v = grade('13.3.4-c-hooks', source)
    assert v.status == 'not_yet' and v.criteria[0].key == 'grading.worked_solution'


def test_endless_output_is_capped(tiny, monkeypatch):
    monkeypatch.setenv('D2L_EXT_GRADING_OUTPUT_KB', '64')
    v = grade('tiny', learner(body="while True:\n    print('x' * 1000)\n"))
    assert v.status == 'crashed' and v.criteria[0].key == 'grading.output_limit' and len(v.output) <= 4000


def test_a_large_file_is_stopped(tiny, monkeypatch):
    monkeypatch.setenv('D2L_EXT_GRADING_FILE_MB', '8')
    v = grade('tiny', learner(body="with open('big', 'wb') as f:\n    while True:\n        f.write(b'x' * 2**20)\n"))
    # Python ignores SIGXFSZ: the write past the limit raises in the learner's code (a process that does not
    # ignore it is stopped: 'grading.file_limit')
    assert v.status == 'not_yet' and 'File too large' in v.criteria[0].fields['error'], v


def test_memory_over_the_limit_is_out_of_memory(tiny, monkeypatch):
    monkeypatch.setenv('D2L_EXT_GRADING_MEMORY_MB', '200')
    v = grade('tiny', learner(body="kept = []\nwhile True:\n    kept.append(b'x' * 2**24)\n"))
    assert v.status == 'out_of_memory', v


def test_a_gpu_raises_the_memory_limit_for_cudas_host_memory(monkeypatch):
    # measured on an H100: CUDA plus 13.3.2's pinned buffers passed 4,096 MB resident in a correct grading
    monkeypatch.delenv('D2L_EXT_GRADING_MEMORY_MB', raising=False)
    monkeypatch.setattr(sandbox, 'has_gpu', lambda: False)
    assert sandbox.limits()['memory_mb'] == sandbox.LIMITS['memory_mb']
    monkeypatch.setattr(sandbox, 'has_gpu', lambda: True)
    assert sandbox.limits()['memory_mb'] == sandbox.GPU_MEMORY_MB > sandbox.LIMITS['memory_mb']
    monkeypatch.setenv('D2L_EXT_GRADING_MEMORY_MB', '300')  # the setting still decides
    assert sandbox.limits()['memory_mb'] == 300


def test_gpu_hidden_by_cuda_visible_devices(monkeypatch):
    monkeypatch.setattr(sandbox.os.path, 'exists', lambda p: p == '/dev/nvidiactl')
    monkeypatch.setenv('CUDA_VISIBLE_DEVICES', '')
    assert not sandbox.has_gpu()
    monkeypatch.setenv('CUDA_VISIBLE_DEVICES', '0')
    assert sandbox.has_gpu()


def test_every_outcome_lists_the_tasks_criteria(tiny):
    hung = grade('tiny', learner(body='while True:\n    pass\n'), budget_s=1)
    assert hung.status == 'hung' and [c.id for c in hung.criteria] == ['runs', 'correct', 'overlap']


def test_timing_is_judged_only_after_correctness():
    wrong = [Criterion('runs', True, 'k'), Criterion('correct', False, 'k'),
             Criterion('overlap', True, 'k', {'measured': 0.9, 'predicted': 1.0})]
    status, judged = integrity.judge('13.3.1-lanes', wrong)
    assert status == 'not_yet' and judged[2].fields['not_judged'] and not judged[2].passed


def test_cannot_measure_where_the_machine_cannot_show_it():
    from d2l_ext.grading import measurable
    crit = [Criterion('runs', True, 'k'), Criterion('correct', True, 'k'), Criterion('threads', True, 'k'),
            Criterion('safe', True, 'k'), Criterion('overlap', True, 'k', {'measured': 0.9, 'predicted': 1.0}),
            Criterion('streams', True, 'k')]  # the simulated GPU's order: not a timing, measurable anywhere
    measurable.mark(crit, {'cores': 1, 'busy': 0.0})
    status, judged = integrity.judge('13.3.1-lanes', crit)
    assert status == 'cannot_measure' and judged[4].fields['unmeasurable'] and not judged[5].fields
    from d2l_ext.display.grading import lines
    drawn = lines(Verdict('13.3.1-lanes', status, judged))
    assert drawn[0].startswith('cannot measure here') and 'cores free: 1, for 2' in drawn[-3]
    assert len(lines(Verdict('13.3.1-lanes', status, judged), compact=True)) <= 3


def test_cannot_measure_where_repeats_spread_too_far():
    """A faked timing: three repeats whose interquartile range is over measurable.SPREAD of their median."""
    from d2l_ext.grading import measurable
    assert measurable.spread([1.0, 1.0, 3.0]) == pytest.approx(1.0) and 1.0 > measurable.SPREAD
    assert measurable.spread([1.0, 1.05, 1.1]) < measurable.SPREAD and measurable.spread([1.0, 9.0]) == 0.0
    crit = [Criterion('runs', True, 'k'), Criterion('correct', True, 'k'), Criterion('safe', True, 'k'),
            Criterion('overlap', False, 'k', {'measured': 0.1, 'predicted': 1.0, 'repeats': [0.2, 0.2, 0.6]}),
            Criterion('streams', True, 'k')]
    measurable.mark(crit, {'cores': 2, 'busy': 0.0})
    assert crit[3].key == 'grading.unmeasurable.spread' and crit[3].fields['limit'] == measurable.SPREAD
    assert integrity.judge('13.3.2-copy', crit)[0] == 'cannot_measure'
    steady = [Criterion('overlap', False, 'k', {'measured': 0.1, 'repeats': [0.2, 0.21, 0.2]})]
    assert not measurable.mark(steady, {'cores': 2, 'busy': 0.0})[0].fields.get('unmeasurable')  # a plain not yet
    # an overlap shown stands however the wall clocks spread (noise never makes halves run in turn overlap) ...
    shown = [Criterion('overlap', True, 'k', {'measured': 0.9, 'repeats': [0.2, 0.2, 0.6]})]
    assert measurable.mark(shown, {'cores': 2, 'busy': 0.0})[0].passed
    # ... but a speed needs steady repeats either way
    fast = [Criterion('speed', True, 'k', {'repeats': [0.2, 0.2, 0.6]})]
    assert measurable.mark(fast, {'cores': 2, 'busy': 0.0})[0].fields.get('unmeasurable')


def test_a_spread_timing_is_cannot_measure_through_the_runner(tiny):
    source = (tiny / 'd2l_tiny_sandbox.py').read_text().replace('threshold=THRESHOLD)', 'threshold=THRESHOLD, '
                                                                 'repeats=[0.1, 0.1, 0.5])')
    (tiny / 'd2l_tiny_sandbox.py').write_text(source)
    v = grade('tiny', learner())
    assert v.status == 'cannot_measure' and v.criteria[-1].fields.get('unmeasurable'), v


def test_list_json_gives_each_tasks_criteria_and_scores(capsys):
    assert check_main(['--list', '--json']) == 0
    rows = json.loads(capsys.readouterr().out)
    c = next(r for r in rows if r['id'] == '13.3.4-c-hooks')
    assert c['criteria'] == [{'id': i, 'max_score': 1} for i in ('runs', 'correct', 'safe', 'overlap')]
    assert check_main(['--list', 'extra']) == 2


def test_a_nul_byte_names_its_line(tiny):
    v = grade('tiny', 'x = 1\n\0\ndef add(a, b):\n    return a + b\n')
    assert v.status == 'bad_input' and v.criteria[0].key == 'grading.nul_byte' and v.criteria[0].fields['line'] == 2


def test_gradescope_results_have_the_spec_fields():
    v = Verdict('13.3.4-c-hooks', 'cannot_measure', [
        Criterion('runs', True, 'task.allreduce.ran'), Criterion('correct', True, 'task.allreduce.correct'),
        Criterion('safe', True, 'task.allreduce.safe'),
        Criterion('overlap', False, 'grading.unmeasurable.cores', {'cores': 1, 'needed': 2, 'unmeasurable': True})])
    from d2l_ext.display.grading import gradescope
    out = gradescope([v])
    assert set(out) >= {'score', 'tests'} and out['score'] == 3.0
    for test in out['tests']:
        assert set(test) == {'name', 'score', 'max_score', 'status', 'output'}
        assert isinstance(test['score'], float) and isinstance(test['max_score'], float)
        assert test['status'] in ('passed', 'failed') and test['output']
    unmeasured = out['tests'][-1]
    assert unmeasured['max_score'] == 0.0 and 'cannot measure' in unmeasured['output']


def test_a_notebook_build_it_cell_is_found_by_task_id(tmp_path):
    cells = [{'cell_type': 'code', 'source': 'import d2l_ext\n%matplotlib inline\n'},
             {'cell_type': 'markdown', 'source': '# 动手实现'},
             {'cell_type': 'code', 'source': ['def run_together(lanes, works):\n', '    return [w() for w in works]\n',
                                              "\nd2l_ext.check('13.3.1-lanes', run_together)\n"]},
             {'cell_type': 'code', 'metadata': {'jupyter': {'source_hidden': True}},  # the lesson's worked answer
              'source': "def run_together(lanes, works):\n    return 'answer'\nd2l_ext.check('13.3.1-lanes', f)"}]
    path = tmp_path / 'alice.ipynb'
    path.write_text(json.dumps({'cells': cells, 'nbformat': 4, 'nbformat_minor': 5, 'metadata': {}}))
    source = classroom.source_of('13.3.1-lanes', str(path))
    assert source.startswith('def run_together(lanes, works):') and 'check(' not in source and 'answer' not in source
    assert classroom.tasks_in(path) == ['13.3.1-lanes']


def test_the_score_for_nbgrader_is_a_number_and_nothing_on_stderr(tiny, capfd):
    from d2l_ext.display.grading import score
    got = score('tiny', learner())
    assert got == 2.0 and capfd.readouterr().err == ''


def test_the_command_line_speaks_chinese(tiny, monkeypatch, capsys):
    path = tiny / 'a.py'
    path.write_text(learner())
    assert check_main(['tiny', str(path), '--lang', 'zh']) == 1
    assert capsys.readouterr().out.startswith('尚未通过：tiny')
    monkeypatch.setenv('D2L_EXT_LANG', 'zh')
    check_main(['tiny', str(path)])
    assert '要改：' in capsys.readouterr().out
    from d2l_ext.i18n import set_language
    set_language('en')


def test_a_students_tasks_graded_in_one_process_give_each_its_own_verdict(tiny):
    from d2l_ext.grading.runner import grade_batch
    right, wrong = learner(), learner(body='return a - b')
    hangs = learner(body='while True:\n    pass\n')
    got = grade_batch([('tiny', right, 'a.py'), ('tiny', wrong, 'a.py'), ('tiny', hangs, 'a.py'),
                       ('tiny', right, 'a.py'), ('tiny', 'def add(a):\n    pass\n', 'a.py')], budget_s=3)
    assert [v.status for v in got] == ['not_yet', 'not_yet', 'hung', 'not_yet', 'bad_input']
    assert [c.passed for c in got[0].criteria][:2] == [True, True] and not got[1].criteria[1].passed
    assert got[3].criteria[1].passed  # graded on its own after the hang


def test_a_class_folder_gives_a_row_per_student_and_task(tiny, tmp_path):
    from d2l_ext.display.grading import write_table
    folder = tmp_path / 'class'
    folder.mkdir()
    (folder / 'ann.py').write_text(learner())
    (folder / 'bob.py').write_text(learner(body='return a * b'))
    rows, _ = classroom.grade_class(str(folder), ['tiny'], progress=False)
    assert [(r['student'], r['status'], r['score'], r['max_score']) for r in rows] == [
        ('ann', 'not_yet', 2.0, 3), ('bob', 'not_yet', 1.0, 3)]
    paths = write_table(rows, str(tmp_path / 'out'))
    assert [p.rsplit('/', 1)[1] for p in paths] == ['class.csv', 'class.json', 'class.png']


@pytest.mark.skipif(not landlock.landlock_abi(), reason='no Landlock here')
def test_under_landlock_the_process_may_write_its_own_proc_entry_and_nothing_else_outside(tmp_path):
    """CUDA writes to the process's own /proc entry (on an H100, cudaGetDeviceCount failed with error 304 until the
    rule allowed it); the rest of the file system stays read-only."""
    code = ('import os, sys\nfrom d2l_ext.grading.landlock import landlock\nassert landlock(sys.argv[1])\n'
            "open('/proc/self/comm', 'w').write('graded')\nopen(os.path.join(sys.argv[1], 'ok'), 'w').write('1')\n"
            "try:\n    open(sys.argv[2], 'w')\nexcept PermissionError:\n    print('refused')\n")
    inside, outside = tmp_path / 'in', tmp_path / 'out.txt'
    inside.mkdir()
    out = subprocess.run([sys.executable, '-c', code, str(inside), str(outside)], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, 'D2L_EXT_GRADING_WRITABLE': ''}, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == 'refused', out.stderr
    assert (inside / 'ok').exists() and not outside.exists()
