"""`python -m d2l_ext check ...`: grade a "Build it" task's file or notebook,
a class folder (--class), or list the tasks (--list). Exit codes: one per status (EXIT_CODES), also with --json.
The language: --lang, else D2L_EXT_LANG, else English. An entry point: it draws with d2l_ext.display.grading.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from dataclasses import asdict
from pathlib import Path

from .cliparse import OneLineParser
from .grading.core import EXIT_CODES, BadSubmission
from .i18n import t

_Parser = OneLineParser  # one line, exit 2 (argparse would print the whole usage first)


def _epilog() -> str:
    from .grading.measurable import CORES_NEEDED, LOAD_SHARE, SPREAD
    from .grading.sandbox import limits, sandbox_name
    lim = limits()
    how = {'bubblewrap': 'bubblewrap (the rest of the file system read-only, own process namespace)',
           'landlock': 'Landlock (writes only in its folder, /dev/shm, /dev/null and GPU devices; reads everywhere)',
           'keeper': 'the keeper only (no bwrap, no Landlock: the file system stays writable)'}[sandbox_name()]
    return (f"exit codes: {', '.join(f'{c} {s}' for s, c in EXIT_CODES.items())}. Each submission runs in its own "
            f"temporary folder with a clean environment, as its own process group under a subreaper; limits: "
            f"memory {lim['memory_mb']:.0f} MB (resident, whole tree), files {lim['file_mb']:.0f} MB, output "
            f"{lim['output_kb']:.0f} KB, CPU time {lim['cpu_factor']:g} x the wall bound x cores, wall: the task's "
            f"bound (--budget); change with D2L_EXT_GRADING_MEMORY_MB etc. Sandbox here: {how}. A timed criterion "
            f"(overlap) is 'cannot measure here' with fewer than {CORES_NEEDED} cores, other programs using over "
            f"{LOAD_SHARE:.0%} of them, or its repeats' interquartile range over {SPREAD:.0%} of their median.")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """The `check` subcommand and its options (13.3.1-13.3.4's "Build it" tasks)."""
    s = subparsers.add_parser('check', help='grade a "Build it" task: check TASK FILE, check --class FOLDER, --list',
                              epilog=_epilog())
    s.add_argument('task', nargs='?', help="a task id from 'check --list', e.g. 13.3.1-lanes")
    s.add_argument('file', nargs='?', help="the .py file or notebook (.ipynb, en or zh) with the task's function(s)")
    s.add_argument('--list', action='store_true', help='list the tasks, one line each')
    s.add_argument('--class', dest='folder', default=None,
                   help='grade every task in every submission of FOLDER (one .py or .ipynb per student)')
    s.add_argument('--out', default=None, help='where --class and --format gradescope write (default: .)')
    s.add_argument('--tasks', nargs='+', default=None, help='with --class: only these tasks')
    s.add_argument('--format', choices=('text', 'gradescope'), default='text',
                   help="gradescope: write Gradescope's results.json")
    s.add_argument('--json', action='store_true', help='print JSON (the verdict, its lines and details, or the list)')
    s.add_argument('--lang', choices=('en', 'zh'), default=None, help='language (default: $D2L_EXT_LANG, else en)')
    s.add_argument('--budget', default=None, help="seconds grading may take (default: the task's bound here)")
    return s


def _list(as_json: bool) -> int:
    from .grading.registry import listing
    rows = listing()
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    width = max(len(r['id']) for r in rows)
    for r in rows:
        print(f"{r['id']:{width}s}  {'; '.join(r['signatures'])}  {r['description']}")
    return 0


def _language(args) -> None:
    from .i18n import set_language
    lang = getattr(args, 'lang', None) or os.environ.get('D2L_EXT_LANG') or 'en'
    set_language(lang if lang in ('en', 'zh') else 'en')


def _write_gradescope(verdicts, out) -> str:
    from .display.grading import gradescope
    path = Path(out or '.') / 'results.json'
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(gradescope(verdicts), ensure_ascii=False, indent=1), encoding='utf-8')
    return str(path)


def _class(args) -> int:
    from .display.grading import write_table
    from .grading.classroom import grade_class
    from .grading.runner import check_budget
    try:
        check_budget(args.budget)
        if not Path(args.folder).is_dir():
            raise BadSubmission('grading.is_not_dir', path=args.folder)
    except BadSubmission as e:
        print(t('grading.cli_error', message=str(e)), file=sys.stderr)
        return 2
    rows, verdicts = grade_class(args.folder, args.tasks, budget_s=args.budget, progress=not args.json)
    paths = write_table(rows, args.out or '.')
    if args.format == 'gradescope':
        for student in dict.fromkeys(s for s, _ in verdicts):
            paths.append(_write_gradescope([v for (s, _), v in verdicts.items() if s == student],
                                           Path(args.out or '.') / student))
    wrote = t('grading.cli_wrote', paths=', '.join(paths))
    print(json.dumps(rows, ensure_ascii=False, indent=1) if args.json else wrote)
    return 0


def run(args) -> int:
    """Grade one file or notebook, a class, or list the tasks; the exit code says the status (EXIT_CODES)."""
    from .display.grading import details, lines
    from .grading.runner import bad_input, grade
    _language(args)
    if args.list:
        if args.task or args.file or args.folder:
            print(t('grading.cli_error', message=t('grading.cli_extra')), file=sys.stderr)
            return 2
        return _list(args.json)
    if args.folder:
        return _class(args)
    if not args.task or not args.file:
        print(t('grading.cli_error', message=t('grading.cli_usage')), file=sys.stderr)
        return 2
    try:
        from .grading.classroom import source_of
        from .grading.registry import entry
        entry(args.task)  # an unknown task is named before the file is looked at
        verdict = grade(args.task, source_of(args.task, args.file), budget_s=args.budget, filename=args.file)
    except BadSubmission as e:
        verdict = bad_input(args.task, e)
    drawn = lines(verdict)
    if args.format == 'gradescope' and verdict.status != 'bad_input':
        _write_gradescope([verdict], args.out)
    if args.json:
        from .grading.sandbox import sandbox_name
        print(json.dumps({'command': 'check', **asdict(verdict), 'lines': drawn, 'details': details(verdict),
                          'containment': sandbox_name()},
                         ensure_ascii=False, indent=1, default=str))
    elif verdict.status == 'bad_input':
        print(t('grading.cli_error', message=drawn[0]), file=sys.stderr)
    else:
        print('\n'.join(drawn))
    return EXIT_CODES.get(verdict.status, 1)


def main(argv=None) -> int:
    """The `check` subcommand alone ('check' may be left out): tests and scripts call it without the main CLI."""
    parser = _Parser(prog='python -m d2l_ext')
    sub = parser.add_subparsers(dest='command', required=True, parser_class=_Parser)
    add_parser(sub)
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv if argv[:1] == ['check'] else ['check', *argv])
    try:
        return run(args)
    except KeyboardInterrupt:  # the runner has ended the grading process and its group
        print(t('grading.cli_interrupted'), file=sys.stderr)
        return 130
    except BrokenPipeError:  # `check --list | head`: the reader left; say nothing more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
