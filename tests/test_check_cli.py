"""`python -m d2l_ext check` (also `python -m d2l_ext.grading`): exit 0 passed, 1 not yet, 2 bad input; --list."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from d2l_ext.cli_check import main
from d2l_ext.grading import registry

TINY = """
from d2l_ext.grading.core import Task, call_learner, criterion


def grade(submission):
    ok, got = call_learner(submission.functions['add'], 2, 3)
    if not ok:
        return [got]
    return [criterion('correct', got == 5, 'grading.correct', error=abs(got - 5) / 5, tolerance=0.0)]


TASK = Task(id='tiny', section='0', functions=('add',), signatures={'add': 'add(a, b)'},
            description_key='tiny.description', grade=grade, budget_s=lambda: 60.0)
"""
ENTRY = "registry.Entry('tiny', 'd2l_tiny_task:TASK', '0', {'add': 'add(a, b)'}, 'tiny.description')"
HANG = """
import os, subprocess, sys, time
sleeper = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])
with open({path!r} + '.part', 'w') as f:
    f.write(f'{{os.getpid()}} {{sleeper.pid}}')
os.replace({path!r} + '.part', {path!r})
while True:
    time.sleep(0.05)
"""


@pytest.fixture
def tiny(tmp_path, monkeypatch):
    (tmp_path / 'd2l_tiny_task.py').write_text(TINY, encoding='utf-8')
    monkeypatch.setenv('PYTHONPATH', str(tmp_path))
    monkeypatch.setenv('D2L_EXT_GRADING_WRITABLE', str(tmp_path))  # the learner's code writes its pids here
    monkeypatch.setitem(registry.TASKS, 'tiny', eval(ENTRY))  # noqa: S307 (the same text the subprocess runs)
    return tmp_path


def answer(folder: Path, code: str, name: str = 'answer.py') -> str:
    path = folder / name
    path.write_text('def add(a, b):\n' + textwrap.indent(textwrap.dedent(code).strip('\n'), '    ') + '\n')
    return str(path)


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def gone(pid: int) -> bool:
    try:
        import psutil
        return not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE
    except ImportError:
        stat = Path(f'/proc/{pid}/stat')
        try:
            return stat.read_text().rsplit(')', 1)[1].split()[0] == 'Z'
        except OSError:
            return True
    except Exception:  # noqa: BLE001 (ended between the two calls)
        return True


def test_exit_0_when_passed(tiny, capsys):
    code, out, err = run(capsys, 'tiny', answer(tiny, 'return a + b'))
    assert code == 0 and out.splitlines()[0] == '✓ passed: tiny' and err == ''


def test_exit_1_with_one_line_per_criterion_and_what_to_change(tiny, capsys):
    code, out, _ = run(capsys, 'check', 'tiny', answer(tiny, 'return a * b'))
    assert code == 1
    header, line, change = out.splitlines()
    assert header == 'not yet: tiny' and line == '  ✗ correct: worst error 2.0e-01 (allowed 0e+00)'
    assert change.startswith('  change: ') and len(change.split()) <= 21


@pytest.mark.parametrize('code, key, status', [
    ('raise NotImplementedError', 'grading.todo', 'not_yet'),
    ('import os\nos._exit(3)', 'grading.crashed_code', 'crashed'),
    ('while True:\n    pass', 'grading.hung', 'hung'),
])
def test_todo_crash_and_hang_have_their_status_and_exit_code(tiny, capsys, code, key, status):
    from d2l_ext.grading.core import EXIT_CODES
    got, out, _ = run(capsys, 'tiny', answer(tiny, code), '--budget', '1', '--json')
    verdict = json.loads(out)
    assert verdict['status'] == status and got == EXIT_CODES[status] and verdict['criteria'][0]['key'] == key
    assert set(verdict) == {'command', 'task', 'status', 'criteria', 'seconds', 'budget_s', 'output', 'lines',
                            'details', 'containment'}
    assert verdict['lines'][0] == 'not yet: tiny'


def test_json_when_passed(tiny, capsys):
    code, out, _ = run(capsys, 'tiny', answer(tiny, 'return a + b'), '--json')
    verdict = json.loads(out)
    assert code == 0 and verdict['status'] == 'passed' and verdict['budget_s'] == 60.0
    assert verdict['criteria'] == [{'id': 'correct', 'passed': True, 'key': 'grading.correct',
                                    'fields': {'error': 0.0, 'tolerance': 0.0}}]


def _bad_files(folder: Path) -> dict:
    files = {'latin1.py': '# café\ndef add(a, b):\n    return a + b\n'.encode('latin-1'),
             'syntax.py': b'def add(a, b)\n    return a + b\n',
             'sig.py': b'def add(a):\n    return a\n',
             'other.py': b'def plus(a, b):\n    return a\n'}
    for name, data in files.items():
        (folder / name).write_bytes(data)
    keys = {'nothing.py': 'grading.no_file', '.': 'grading.is_dir', 'latin1.py': 'grading.not_utf8',
            'syntax.py': 'grading.syntax', 'sig.py': 'grading.signature', 'other.py': 'grading.missing'}
    return {key: str(folder / name) for name, key in keys.items()}


def test_exit_2_for_bad_files_with_one_line(tiny, capsys):
    for key, path in _bad_files(tiny).items():
        code, out, err = run(capsys, 'tiny', path)
        assert code == 2 and out == '', key
        assert err.count('\n') == 1 and err.startswith('python -m d2l_ext check: error: cannot grade tiny: '), err
        code, out, _ = run(capsys, 'tiny', path, '--json')
        assert code == 2 and json.loads(out)['criteria'][0]['key'] == key


def test_exit_2_for_an_unknown_task_or_missing_arguments(capsys):
    code, out, err = run(capsys, '13.3.9', 'x.py')
    assert code == 2 and out == '' and err.count('\n') == 1 and '13.3.1-lanes' in err
    code, _, err = run(capsys, '13.3.1-lanes')
    assert code == 2 and '--list' in err
    code, _, err = run(capsys, '13.3.1-lanes', __file__, '--budget', 'nan')
    assert code == 2 and 'positive number of seconds' in err


def test_list_and_list_json(capsys):
    code, out, _ = run(capsys, '--list')
    rows = out.splitlines()
    assert code == 0 and [r.split()[0] for r in rows] == list(registry.TASKS)
    code, out, _ = run(capsys, '--list', '--json')
    listed = json.loads(out)
    assert code == 0 and [r['id'] for r in listed] == list(registry.TASKS)
    one = listed[0]
    assert one['function'] == 'run_together' and one['signature'] == 'run_together(lanes, works)'
    assert one['description'] and not one['description'].startswith('task.')


def test_the_module_entry_answers_with_one_line():
    def python(*argv):
        return subprocess.run([sys.executable, '-m', 'd2l_ext', *argv], capture_output=True, text=True)
    done = python('check', 'no-such-task', 'x.py')
    assert done.returncode == 2 and done.stdout == '' and done.stderr.count('\n') == 1
    assert 'Traceback' not in done.stderr
    done = python('check', '--list')
    assert done.returncode == 0 and done.stdout.startswith('13.3.1-lanes')
    done = python('check', '--bogus')
    assert done.returncode == 2 and done.stderr.count('\n') == 1


def test_ctrl_c_is_one_line_exit_130_and_nothing_left(tiny, sigint_from_a_terminal):
    pids = tiny / 'pids.txt'
    script = ('import sys\nfrom d2l_ext.grading import registry\nfrom d2l_ext.cli_check import main\n'
              f'registry.TASKS["tiny"] = {ENTRY}\nsys.exit(main(sys.argv[1:]))\n')
    proc = subprocess.Popen([sys.executable, '-c', script, 'tiny', answer(tiny, HANG.format(path=str(pids)))],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    try:
        end = time.monotonic() + 60
        while not pids.exists() and proc.poll() is None and time.monotonic() < end:
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130 and err == 'python -m d2l_ext check: interrupted; nothing is left running\n', err
    children = [int(p) for p in pids.read_text().split()]
    end = time.monotonic() + 20
    while not all(gone(p) for p in children) and time.monotonic() < end:
        time.sleep(0.05)
    assert all(gone(p) for p in children)


def test_the_command_module_leaves_d2l_ext_check_the_function():
    """Importing the `check` command's module must not replace `d2l_ext.check` (what every notebook calls)."""
    import d2l_ext
    import d2l_ext.cli_check  # noqa: F401
    assert callable(d2l_ext.check) and d2l_ext.check.__module__ != 'd2l_ext.cli_check'
