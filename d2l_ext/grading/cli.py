"""`python -m d2l_ext check ...` (the "Build it" tasks of 13.3.1-13.3.4); also `python -m d2l_ext.grading ...`.

    check --list [--json]                 the tasks, one line each starting with its id
    check TASK FILE.py [--json] [--budget S]   grade FILE: exit 0 passed, 1 not yet, 2 bad input

An entry point (like d2l_ext/cli.py): it draws verdicts with d2l_ext.display.grading.
"""
from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from dataclasses import asdict
from pathlib import Path

from ..cliparse import OneLineParser
from ..i18n import t
from .core import EXIT_CODES, BadSubmission

MAX_BYTES = 1 << 20  # a learner's answer is a few functions; anything larger is the wrong file


_Parser = OneLineParser  # one line, exit 2 (argparse would print the whole usage first)


def add_parser(subparsers) -> argparse.ArgumentParser:
    """The `check` subcommand and its options (13.3.1-13.3.4's "Build it" tasks)."""
    s = subparsers.add_parser('check', help='grade a "Build it" task: check TASK FILE.py, or check --list')
    s.add_argument('task', nargs='?', help="a task id from 'check --list', e.g. 13.3.1-lanes")
    s.add_argument('file', nargs='?', help="the .py file that defines the task's function(s)")
    s.add_argument('--list', action='store_true', help='list the tasks, one line each')
    s.add_argument('--json', action='store_true', help='print JSON (the verdict and its drawn lines, or the list)')
    s.add_argument('--budget', default=None, help="seconds grading may take (default: the task's bound here)")
    return s


def read_source(path: str) -> str:
    """The learner's file as text; BadSubmission saying what to change if missing, a folder, unreadable, not UTF-8."""
    p = Path(path)
    try:
        info = p.stat()
    except FileNotFoundError:
        raise BadSubmission('grading.no_file', path=path) from None
    except OSError as e:
        raise BadSubmission('grading.unreadable', path=path, error=e.strerror or type(e).__name__) from None
    if stat.S_ISDIR(info.st_mode):
        raise BadSubmission('grading.is_dir', path=path)
    if not stat.S_ISREG(info.st_mode):  # a pipe or a device would block or never end
        raise BadSubmission('grading.not_regular', path=path)
    if info.st_size > MAX_BYTES:
        raise BadSubmission('grading.too_big', path=path, limit=MAX_BYTES)
    try:
        data = p.read_bytes()
    except OSError as e:
        raise BadSubmission('grading.unreadable', path=path, error=e.strerror or type(e).__name__) from None
    try:
        return data.decode('utf-8-sig')
    except UnicodeDecodeError:
        raise BadSubmission('grading.not_utf8', path=path) from None


def _list(as_json: bool) -> int:
    from .registry import listing
    rows = listing()
    if as_json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    width = max(len(r['id']) for r in rows)
    for r in rows:
        print(f"{r['id']:{width}s}  {'; '.join(r['signatures'])}  {r['description']}")
    return 0


def run(args) -> int:
    """Grade one file (or list the tasks) and print the verdict: exit 0 passed, 1 not yet, 2 bad input."""
    from ..display.grading import details, lines
    from .runner import bad_input, grade
    if args.list:
        return _list(args.json)
    if not args.task or not args.file:
        print(t('grading.cli_error', message=t('grading.cli_usage')), file=sys.stderr)
        return 2
    try:
        from .registry import entry
        entry(args.task)  # an unknown task is named before the file is looked at
        verdict = grade(args.task, read_source(args.file), budget_s=args.budget, filename=args.file)
    except BadSubmission as e:
        verdict = bad_input(args.task, e)
    drawn = lines(verdict)
    if args.json:
        print(json.dumps({'command': 'check', **asdict(verdict), 'lines': drawn, 'details': details(verdict)},
                         ensure_ascii=False, indent=1, default=str))
    elif verdict.status == 'bad_input':
        print(t('grading.cli_error', message=drawn[0]), file=sys.stderr)
    else:
        print('\n'.join(drawn))
    return EXIT_CODES.get(verdict.status, 1)


def main(argv=None) -> int:
    """`python -m d2l_ext.grading`: the same subcommand before the main CLI has it ('check' may be left out)."""
    parser = _Parser(prog='python -m d2l_ext.grading')
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
