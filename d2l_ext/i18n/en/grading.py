"""The "Build it" graders of 13.3.1-13.3.4: verdicts, stops, and input that cannot be graded."""
MESSAGES = {
    # a task's name as a learner reads it (the ids stay in code and on the command line)
    'grading.title.lanes': 'Build it 13.3.1: run_together',
    'grading.title.copy': 'Build it 13.3.2: run_and_copy',
    'grading.title.mlp': 'Build it (dependency graph): mlp_step',
    'grading.title.a_after': 'Build it (all-reduce) (a): backward_then_allreduce',
    'grading.title.b_flat': 'Build it (all-reduce) (b): flat_allreduce',
    'grading.title.c_hooks': 'Build it (all-reduce) (c): allreduce_in_hooks',
    'grading.title.d_buckets': 'Build it (all-reduce) (d): allreduce_in_buckets',
    # the first line of a verdict
    'grading.passed': '✓ passed: {task}',
    'grading.not_yet': 'not yet: {task}',
    'grading.cannot_grade': 'cannot grade {task}: {reason}',
    'grading.interrupted': 'grading interrupted: the grading process and everything it started were stopped',
    # the learner's function did not run to the end
    'grading.will_check': 'once it runs, the check will look for: {checks}',
    'grading.checks.lanes': ('no error; every result matching float64; every lane finished when run_together returns; '
                             'the shorter lane busy beside the other for at least {threshold:.0%} of its busy time'),
    'grading.checks.copy': ('no error; every result matching float64; every buffer complete the moment run_and_copy '
                            'returns; the copies beside a product for at least {threshold:.0%} of the overlap '
                            'predicted for them'),
    'grading.checks.mlp': ('no error; every SGD step matching one device on the whole minibatch in float64; each '
                           'half on its own lane and the gradients summed on the CPU; in the best of the graded steps, '
                           'the shorter half busy beside the other for at least {threshold:.0%} of its busy time'),
    'grading.checks.allreduce_a': ('no error or hang on 2 processes; after every step the parameters matching one '
                                   'float64 process on the whole minibatch (a tied and a frozen weight included); '
                                   'every all-reduce complete before optimizer.step(); the overlap is shown, not '
                                   'graded'),
    'grading.checks.allreduce_b': ('as for (a), with one all-reduce call per step; the overlap is shown, not graded'),
    'grading.checks.allreduce_c': ('as for (a), and backward computing during at least {threshold:.0%} of the '
                                   "all-reduces' time"),
    'grading.checks.allreduce_d': ('as for (c), with the buckets bucket_mb asks for (sizes giving 1, 2 and 3 '
                                   "buckets), and backward computing during at least {threshold:.0%} of the "
                                   "all-reduces' time"),
    'grading.todo': 'still raises NotImplementedError: replace the TODO with your code',
    'grading.raised': '{name} raised {error}',
    'grading.raised_at': '{name} raised {error} (line {line})',
    'grading.undefined': ('{name} raised {error}: only the function itself is graded, so import or define '
                          'what it uses inside it'),
    # the grading process was stopped, or stopped by itself
    'grading.hung': ('stopped after {seconds:.1f} s, the time bound for this task on this machine: '
                     'something waits forever, or runs far slower than the task needs'),
    'grading.hung_startup': 'stopped after {seconds:.1f} s: the grading process did not finish starting',
    'grading.killed': ('the grading process was killed by the system (SIGKILL), which usually means it ran '
                       'out of memory'),
    'grading.out_of_memory': 'ran out of memory ({error})',
    'grading.crashed_signal': 'the grading process crashed (signal {signal})',
    'grading.crashed_code': 'the grading process ended before reporting (exit code {code}): does your code exit?',
    'grading.crashed_error': 'grading stopped with {error}',
    'grading.task_broken': 'this task cannot be loaded here ({error})',
    'grading.no_criteria': 'the grader measured nothing',
    # input that cannot be graded (the command line exits with 2)
    'grading.syntax': 'syntax error on line {line}: {message}',
    'grading.missing': 'define a function {signature} (no function {name} was found at the top level)',
    'grading.signature': '{name} takes ({got}); the task needs {signature}',
    'grading.top_level': 'running the code outside the function raised {error}',
    'grading.no_task': 'there is no task {task}: choose one of {tasks}',
    'grading.no_file': '{path} does not exist: give the file that defines your function',
    'grading.is_dir': '{path} is a folder: give the .py file that defines your function',
    'grading.unreadable': 'cannot read {path} ({error})',
    'grading.not_regular': '{path} is not a regular file: give the .py file that defines your function',
    'grading.not_utf8': '{path} is not UTF-8 text: save it as UTF-8',
    'grading.too_big': '{path} is larger than {limit} bytes: give the file with your function only',
    'grading.no_source': ('cannot find the source of {name}: define it in a notebook cell or a file, '
                          'then check it again'),
    'grading.not_function': 'pass your function itself, not a {given}',
    'grading.names': '{task} grades {wanted}; got {given}: pass the functions with these names',
    'grading.bad_budget': 'the time bound must be a positive number of seconds, not {value}',
    # a generic criterion the task graders may use
    'grading.correct': ('values: largest relative error {error:.1e} against a float64 reference '
                        '(tolerance {tolerance:.0e})'),
    # the command line
    'grading.cli_error': 'python -m d2l_ext check: error: {message}',
    'grading.cli_usage': 'give a task id and a file (check 13.3.1-lanes my_answer.py), or --list',
    'grading.cli_interrupted': 'python -m d2l_ext check: interrupted; nothing is left running',
}
