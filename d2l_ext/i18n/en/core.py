"""Lanes, checking, timing tables, workloads and workers (every section)."""
MESSAGES = {
    'core.benchmark': '{description}: {seconds:.4f} sec',
    'core.machine': 'Python {python}, PyTorch {torch}, MXNet {mxnet}; {cores} CPU cores; GPUs: {gpus}',
    'core.machine_torch': 'Python {python}, PyTorch {torch}; {cores} CPU cores; GPUs: {gpus}',
    'core.gpus': '{name} x{count}',  # a machine's GPUs: 'NVIDIA H200 x1'
    'core.not_installed': 'not installed',
    'core.no_gpu': 'none',
    'core.lane_gpu_label': 'GPU {index}',
    'core.lane_gpu_label_named': 'GPU {index} ({name})',
    'core.lane_gpu_torch': 'a whole GPU: PyTorch queues its kernels on the GPU and returns at once',
    'core.lane_gpu_mxnet': "a whole GPU: MXNet's engine queues the work on the GPU and returns at once",
    'core.lane_cpu_label': 'CPU ({threads} of {cores} cores)',
    'core.lane_cpu_plain': 'CPU',
    'core.lane_cpu_number': 'CPU lane {number}',
    'core.lane_cpu_all_label': 'CPU ({cores} cores)',
    'core.lane_cpu_beside_gpu_torch': (
        'the CPU with {threads} of its {cores} cores (one feeds the GPU), on its own Python thread: PyTorch '
        'finishes CPU operations in the calling thread'),
    'core.lane_cpu_beside_gpu_mxnet': (
        "the CPU: MXNet's engine runs its operations on a pool of CPU worker threads ({workers})"),
    'core.lane_cpu_share_label': 'CPU lane {number} ({threads} of {cores} cores)',
    'core.lane_cpu_share_torch': (
        'a Python thread running PyTorch on {threads} of the {cores} cores; '
        'PyTorch runs CPU operations synchronously, so two lanes need two threads.'),
    'core.lane_one_core': ' This machine has one core, so the two lanes take turns: expect no speedup.',
    'core.lane_worker_row': '{lane} / worker {worker}',
    'core.lane_mxnet_cpu_label': 'MXNet cpu({index})',
    'core.lane_mxnet_cpu': (
        "MXNet's dependency engine runs each CPU context on its own pool of worker threads ({workers}); "
        'cpu(0) and cpu(1) share the cores ({cores}): not separate hardware'),
    'core.describe_lane': 'lane {number}: {label} - {explanation}',
    'core.unknown_lane': "lane {lane} does not exist here for {framework}; this machine's lanes are: {names}",
    'core.lane_twice': 'lane {lane} is named twice: name each lane once',
    'core.no_lane': 'name at least one lane: {names}',
    'core.mismatch': '{what}: relative error {error:.2e} exceeds {tol:.0e}: the result is wrong',
    'core.worker_not_framework': 'worker {worker} does not run {framework}',
    'core.worker_failed': (
        'the {framework} worker process stopped before it finished (killed, crashed or out of memory); '
        'the next run starts a fresh one'),
    'core.col_median': 'median (s)',
    'core.col_iqr': 'IQR (s)',
    'core.col_min': 'min (s)',
    'core.col_max': 'max (s)',
    'core.col_times': 'every repeat (s)',
    'core.iters_per_lane': 'give one iteration count, or one per lane ({lanes} lanes)',
    'core.where_gpu': 'GPU {index}',
    'core.where_host': 'host memory',
    'core.memory_size': (
        'size {size} with {iters} products per lane needs {need:.1f} GiB on {where}, which has {free:.1f} GiB '
        'free: choose a size of at most {fit} or fewer iterations'),
    'core.memory_iters': (
        '{iters} products per lane of size {size} need {need:.1f} GiB on {where} (each result also costs '
        'bookkeeping memory), which has {free:.1f} GiB free: choose {option} {fit} or fewer'),
    'core.too_long': '{what} would take about {estimate} here, more than the limit of {limit}: choose {suggestion}',
    'core.suggest_iters': '{option} {iters} or fewer (about {estimate})',
    'core.suggest_size': '{option} {size} or smaller with {iters_option} 1',
    'core.duration_s': '{value:.3g} s',
    'core.duration_min': '{value:.1f} min',
    'core.duration_h': '{value:.1f} h',
    'core.worker_hung': (
        'the {framework} worker process gave no answer within {seconds} s (it hung) and was stopped; '
        'the next run starts a fresh one'),
    'core.unknown_framework': "unknown framework {name}: choose one of {names} (or 'all' in the CLI)",
    'core.mxnet_missing': ("MXNet is not installed here: install it with pip install 'd2l_ext[mxnet]' "
                           '(needs Python 3.11 and numpy<1.24), or choose PyTorch'),
    'core.torch_missing': 'PyTorch is not installed here: install it with pip install torch',
    'core.what_size': 'matrix size',
    'core.what_iters': 'iteration count',
    'core.what_repeats': 'repeats',
    'core.not_whole': '{what} must be a whole number, got {value}: {hint}',
    'core.not_positive': '{what} must be at least 1, got {value}: {hint}',
    'core.positive_hint': 'pass a positive {option}, e.g. {example}',
    'core.positive_any': 'use a whole number of at least 1',
    'core.and_hint': ', {hint}',
    'core.no_language': 'language {language} is not available: choose one of {choices}',
    'core.no_results': 'give at least one result to compare with the reference',
    'core.not_json': '{path}: cannot read it as JSON ({reason})',
    'core.see_help': '{message} (see --help)',
    'core.worker_silent': (
        'the {framework} worker process was silent for {seconds} s (stopped or frozen) and was ended; '
        'the next run starts a fresh one'),
}
