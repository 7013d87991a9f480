"""The command line (python -m d2l_ext), for instructors."""
MESSAGES = {
    'cli.error': 'python -m d2l_ext: error: {message}',
    'cli.interrupted': 'python -m d2l_ext: interrupted; no worker is left running',
    'cli.recording_to': 'recording to {path}',
    'cli.recorded': 'recorded to {path}',
    'cli.out_exists': '{path} already exists: pass --force to replace it, or --out another file',
    'cli.out_is_dir': '{path} is a folder: pass --out with a file name, e.g. {path}/recording.json',
    'cli.out_no_folder': 'the folder {folder} does not exist: create it or choose another --out',
    'cli.out_not_writable': 'cannot write into {folder}: choose an --out in a folder you can write to',
    'cli.lane_missing': ('lane {lane} exists for {has} but not for {lacks}: run --framework {has} alone, '
                         'or leave out --lanes'),
    'cli.mxnet_missing': "not installed: pip install 'd2l_ext[mxnet]' (Python 3.11, numpy<1.24)",
    'cli.yes_hint': 'or pass --yes to run it anyway',
}
