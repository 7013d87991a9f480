"""The command line (python -m d2l_ext), for instructors."""
MESSAGES = {
    'cli.error': '{prog}: error: {message}',
    'cli.interrupted': '{prog}: interrupted; no worker is left running',
    'cli.recording_to': 'recording to {path}',
    'cli.recorded': 'recorded to {path}',
    'cli.out_exists': '{path} already exists: pass --force to replace it, or --out another file',
    'cli.out_is_dir': '{path} is a folder: pass --out with a file name, e.g. {suggestion}',
    'cli.out_no_folder': 'the folder {folder} does not exist: create it or choose another --out',
    'cli.lane_missing': ('lane {lane} exists for {has} but not for {lacks}: run --framework {has} alone, '
                         'or leave out --lanes'),
    'cli.mxnet_missing': "not installed: pip install 'd2l_ext[mxnet]' (Python 3.11, numpy<1.24)",
    'cli.yes_hint': 'or pass --yes to run it anyway',
    'cli.out_not_regular': ('{path} is not a regular file but {kind}, and is never replaced, even with --force: '
                            'choose another {option}, e.g. {suggestion}'),
    'cli.kind_file': 'a file',
    'cli.kind_device': 'a device',
    'cli.kind_fifo': 'a named pipe (FIFO)',
    'cli.kind_socket': 'a socket',
    'cli.kind_other': 'neither a file nor a folder',
    'cli.not_a_regular_file': 'not a regular file',
    'cli.path_dangling': '{path} is a link to nothing: choose another {option}',
    'cli.path_under_file': '{path} lies under a file, not a folder: choose another {option}',
    'cli.path_is_file': '{path} is {kind}, not a folder: choose another {option}, e.g. {suggestion}',
    'cli.path_cannot_write': ('cannot write into {path} ({reason}): choose another {option} in a folder '
                              'you can write to, e.g. {suggestion}'),
    'cli.saved_elsewhere': 'could not write {path} ({reason}); the recording is saved in {saved} instead',
    'cli.traces_missing': ('{count} of {total} trace files could not be written (first: {first}); '
                           'the numbers above are complete: choose another --trace-dir to get the traces'),
    'cli.timeout': '--timeout must be a number of seconds from {low} to {high}, got {value}: e.g. 30',
    'cli.port': '--port must be a whole number from 1024 to 65535, got {value}: or leave it out to pick a free one',
    'cli.world_range': ('--world-size must be a whole number from {fewest} to {most} here (gloo runs one process '
                        'per core, at least 2; cores here: {cores}), got {value}'),
    'cli.model_memory': ('{world} processes with --layers {layers} --width {width} --batch {batch} need about '
                         '{need:.1f} GiB and this machine has {free:.1f} GiB free: choose {option} {fit} or less'),
    'cli.world_only': '--world-size can only be {only} here, got {value}: {turns}',
    'cli.hung_after': '{message} (bound: max({floor} s, {factor} x the estimated {estimate:.0f} s))',
}
