"""Where each node of a recorded dependency graph is drawn (display/graph.py): a row per lane, a column per depth."""
from __future__ import annotations

from .model import SERVER


def rows(g) -> dict[str, float]:
    """Row height of each lane: compute lanes top to bottom, the server in the middle, copies halfway."""
    lanes = sorted(dict.fromkeys(n['lane'] for n in g['nodes'] if n['kind'] == 'compute'),
                   key=lambda x: int(x[5:]) if x.startswith('lane ') and x[5:].isdigit() else -1)
    if SERVER in lanes:
        lanes.remove(SERVER)
        lanes.insert(len(lanes) // 2, SERVER)
    y = {lane: 2.0 * i for i, lane in enumerate(lanes)}
    for n in g['nodes']:
        if n['lane'] not in y:
            a, _, b = n['lane'][len('link:'):].partition('->')
            y[n['lane']] = (y.get(SERVER if a == 'cpu' else a, 0.0) + y.get(SERVER if b == 'cpu' else b, 0.0)) / 2
    return y


def positions(g, y) -> dict:
    """(column, row) of each node: the column is the longest chain before it; shared places are spread out."""
    preds, depth, slot = {}, {}, {}
    for e in g['edges']:
        preds.setdefault(e['dst'], []).append(e['src'])
    for n in g['nodes']:  # recorded order is a topological order
        depth[n['id']] = 1 + max((depth[p] for p in preds.get(n['id'], [])), default=-1)
        slot.setdefault((n['lane'], depth[n['id']]), []).append(n['id'])
    pos = {}
    for (lane, col), ids in slot.items():
        for k, i in enumerate(ids):
            pos[i] = (float(col), y[lane] + (0.0 if len(ids) == 1 else -0.45 + 0.9 * k / (len(ids) - 1)))
    return pos
