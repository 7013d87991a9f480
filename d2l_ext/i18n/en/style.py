"""Plot words shared by every section: axes, legends, roles, the missing-font hint."""
MESSAGES = {
    'style.no_cjk_font': ('No Chinese font is installed, so plots use English labels; install one '
                          '(Debian/Ubuntu: apt-get install fonts-noto-cjk) and restart the kernel.'),
    'style.time_axis': 'time ({unit})',
    'style.start_axis': 'start time ({unit})',
    'style.predicted_total': 'predicted: {value}',
    'style.predicted': 'predicted',
    'style.measured': 'each repeat',
    'style.median': 'median',
    'style.critical_path': 'critical path',
    'style.role.lane': 'lane {number}',
    'style.role.gpu': 'GPU',
    'style.role.cpu': 'CPU',
    'style.role.compute': 'compute stream',
    'style.role.copy': 'copy stream',
    'style.role.link': 'transfer between devices',
    'style.role.backward': 'backward',
    'style.role.allreduce': 'all-reduce',
    'style.role.optimizer': 'optimizer step',
    'style.role.idle': 'idle',
}
