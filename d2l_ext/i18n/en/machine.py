"""What this machine can measure: the one-core line and the noise floor (d2l_ext.machine; CLI, lessons, grader)."""
MESSAGES = {
    'machine.one_core': '1 core',
    'machine.cores': '{count} cores',
    'machine.turns_lanes': ('this machine has {cores} for {needed} lanes: they take turns, so no overlap or speedup '
                            'can be measured here'),
    'machine.turns_processes': ('this machine has {cores} for {needed} processes: they take turns, so no overlap or '
                                'speedup can be measured here'),
    'machine.turns_threads': ('this machine has {cores} for {needed} threads (products and copies): they take turns, '
                              'so no overlap or speedup can be measured here'),
    'machine.noise': ('times below {ms} ms are mostly noise here (the clock and the scheduler): a larger --size '
                      'or more --iters gives times that can be compared'),
}
