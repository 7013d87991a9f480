"""Text a learner reads: result tables and sentences built from what was just measured (13.3)."""
from __future__ import annotations

NAMES = {'torch': 'PyTorch', 'mxnet': 'MXNet'}


def parallel_text(r: dict) -> str:
    """13.3.1 result as a small table: each lane, serial sum, together, ideal, speedup."""
    lines = [f"{NAMES[r['framework']]}: size {r['size']}, products per lane {r['iters']}, "
             f"{r['repeats']} repeats after a warm-up"]
    for lane, m in zip(r['lanes'], r['lane_times']):
        lines.append(f"  {lane['label']:34s} {m['median']:.4f} s  (IQR {m['iqr']:.4f})  [{lane['name']}]")
    t = r['together']
    lines += [f"  {'serial sum (one after the other)':34s} {r['serial_sum']:.4f} s",
              f"  {'all lanes together':34s} {t['median']:.4f} s  (IQR {t['iqr']:.4f})",
              f"  {'ideal: max(lane times)':34s} {r['ideal']:.4f} s",
              f"  speedup {r['speedup']:.2f}x of an ideal {r['ideal_speedup']:.2f}x; "
              f"answers checked, worst relative error {r['max_rel_error']:.1e}"]
    return '\n'.join(lines)


def comm_text(r: dict) -> str:
    """13.3.2 result as a table: per copy mode run, copy, run;copy, overlapped, ideal, GB/s."""
    lines = [f"{NAMES[r['framework']]} on {r['lane']['label']}: size {r['size']}, "
             f"{r['iters']} products, {r['repeats']} repeats after a warm-up"]
    if r.get('link_gbps'):
        lines.append('  link, device to host: ' + ', '.join(f'{k} {v:.1f} GB/s' for k, v in r['link_gbps'].items()))
    elif not r['has_link']:
        lines.append('  no GPU here, so no device-to-host link: the rows are a labelled CPU analogue')
    lines.append(f"  {'mode':44s} {'run':>8s} {'copy':>8s} {'run;copy':>9s} {'overlap':>8s} {'ideal':>8s} {'GB/s':>7s}")
    for row in r['rows']:
        lines.append(f"  {row['mode'][:44]:44s} {row['run']:8.4f} {row['copy']:8.4f} {row['run_then_copy']:9.4f} "
                     f"{row['overlapped']:8.4f} {row['ideal']:8.4f} {row['copy_gbps']:7.1f}")
    lines.append(f"  answers checked, worst relative error {max(x['max_rel_error'] for x in r['rows']):.1e}")
    return '\n'.join(lines)


def explain_parallel(results: list[dict]) -> str:
    """Sentences that state this machine's measured speedups and say why frameworks differ."""
    out = []
    for r in results:
        name = NAMES[r['framework']]
        lanes = ' and '.join(lane['label'] for lane in r['lanes'])
        out.append(f"{name} ({lanes}): one after the other {r['serial_sum']:.3f} s, together "
                   f"{r['together']['median']:.3f} s, so running together was {r['speedup']:.2f}x faster; "
                   f"the best possible here is {r['ideal_speedup']:.2f}x.")
        kinds = {lane['kind'] for lane in r['lanes']}
        if r['framework'] == 'torch' and kinds == {'cpu'}:
            out.append('  PyTorch runs each CPU operation to completion before returning, so the two lanes '
                       'overlap only because each has its own Python thread and its own core.')
        if r['framework'] == 'mxnet' and kinds == {'cpu'}:
            one = r['lane_times'][0]['median']
            out.append(f"  MXNet's engine already spreads ONE lane's independent products over its CPU workers "
                       f"(one lane alone took {one:.3f} s), so a second lane finds no idle core: "
                       'the parallelism happened inside each lane (exercise 1).')
    return '\n'.join(out)


def machine_text() -> str:
    """The first cell of every notebook: versions, cores, GPUs, and the lanes per framework."""
    from .machine import available_frameworks, cpu_cores, gpu_names_torch, versions
    v = versions()
    gpus = gpu_names_torch()
    lines = ['versions: ' + ', '.join(f'{k} {val}' for k, val in v.items()),
             f'CPU cores: {cpu_cores()}',
             'GPUs: ' + (', '.join(gpus) if gpus else 'none (CPU-only machine)')]
    if 'mxnet' not in available_frameworks():
        lines.append("MXNet: not installed - to add it: pip install 'd2l_ext[mxnet]' (Python 3.11, numpy<1.24)")
    return '\n'.join(lines)


def sync_mistake_text(r: dict) -> str:
    """The book's 'GPU1 & GPU2' timing next to correct ones (13.3.1)."""
    if r.get('times') is None:
        return 'Nothing to show on this machine: ' + r['reason'] + '.'
    lines = [f"lanes: {', '.join(r['lanes'])}; size {r['size']}, products {r['iters']}"]
    for name, t in r['times'].items():
        lines.append(f'  {name:58s} {t:.4f} s')
    return '\n'.join(lines)


def independence_text(r: dict) -> str:
    """Exercise 1's answer for one framework (and engine): a ratio well above 1 means overlap."""
    return (f"{NAMES[r['framework']]} ({r['engine']}, {r['lane']}): {r['iters']} products of {r['size']}x{r['size']} "
            f"one at a time {r['one_at_a_time']:.4f} s, issued together {r['issued_together']:.4f} s, "
            f"ratio {r['ratio']:.2f}")


def small_ops_text(r: dict) -> str:
    """Exercise 2's answer."""
    return (f"{r['device']}, {r['products']} products of {r['size']}x{r['size']} ({r['how']}): "
            f"one lane {r['one_lane']:.4f} s, two lanes {r['two_lanes']:.4f} s, ratio {r['ratio']:.2f}")
