"""A step's dependency graph from the aten ops it runs (13.3.3): an edge joins A to B when B reads a tensor A wrote;
`stage(lane, name)` names the lane and the book's stage; a copy between lanes is a node on the link carrying its
bytes. Lanes are logical ('lane 0'), so [cpu, cpu] and [cuda:0, cpu] give one shape; 'device' keeps the device."""

import contextlib
import threading

import torch
from torch.utils._python_dispatch import TorchDispatchMode

# The (lane, stage) the step is in right now: one stack per thread, since lanes run in threads.
_LOCAL = threading.local()
_VIEW_OPS = {'t', 'transpose', 'view', '_unsafe_view', 'expand', 'alias', 'detach',
             'as_strided', 'reshape', 'permute', 'slice', 'select', 'unsqueeze', 'squeeze'}
_COPY_OPS = {'_to_copy', 'copy_'}
_SPLIT_OPS = {'split', 'split_with_sizes', 'unbind', 'chunk', 'narrow', 'tensor_split'}  # views, several outputs


def _marks():
    if not hasattr(_LOCAL, 'marks'):
        _LOCAL.marks = []
    return _LOCAL.marks


@contextlib.contextmanager
def stage(lane, name):
    """Label the operations run inside with a lane (a number i means 'lane i') and a book-level stage name (13.3.3)."""
    _marks().append((f'lane {lane}' if isinstance(lane, int) else lane, name))
    try:
        yield
    finally:
        _marks().pop()


def _tensors_in(obj):
    """Every tensor inside nested lists, tuples and dicts, in order."""
    if isinstance(obj, torch.Tensor):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [t for x in obj for t in _tensors_in(x)]
    if isinstance(obj, dict):
        return [t for x in obj.values() for t in _tensors_in(x)]
    return []


class GraphRecorder(TorchDispatchMode):
    """Logs each aten op as a node and data flow between ops as edges (13.3.3). labels: {id(tensor): name} for tensors
    made before recording; a view or copy keeps its label, and a copy node lists what it moved in 'carries'."""

    def __init__(self, keep_calls=False, inputs_on='host', labels=None):
        super().__init__()
        self._inputs_on = inputs_on  # the lane holding tensors made before recording (the step's inputs)
        self._labels = dict(labels or {})  # id(tensor) -> what it is; kept alive by _alive or by the caller
        self.nodes, self.edges, self.calls = [], [], []
        self._producer = {}  # id(tensor) -> (node id, lane holding it, tensor key)
        self._alive = []  # keep tensors alive so a Python id is never reused while recording
        self._keep_calls = keep_calls

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        ins, outs = _tensors_in((args, kwargs)), _tensors_in(out)
        if not outs:
            return out
        op = func.overloadpacket.__name__
        marked = bool(_marks())
        lane, stage_name = _marks()[-1] if marked else (str(outs[0].device), op)
        is_copy, src_lane, src_dev = False, lane, outs[0].device
        if op in _COPY_OPS:
            src = args[1] if op == 'copy_' else args[0]  # copy_(dst, src) vs _to_copy(src)
            src_lane = self._producer[id(src)][1] if id(src) in self._producer else self._inputs_on
            src_dev = src.device
            # Two lanes on one CPU have no device change, so the logical lane counts too.
            is_copy = src_dev != outs[0].device or (marked and src_lane != lane)
        carried = self._labels.get(id(ins[0])) if ins and (op in _COPY_OPS or op in _VIEW_OPS or op in _SPLIT_OPS) \
            else None
        if op == 'copy_' and len(ins) > 1:
            carried = self._labels.get(id(ins[1]))
        node_id = len(self.nodes)
        self.nodes.append({
            'id': node_id, 'name': op, 'op': str(func), 'stage': stage_name, 'marked': marked,
            'kind': 'copy' if is_copy else 'compute',
            'lane': f'link:{src_lane}->{lane}' if is_copy else lane,
            'device': f'{src_dev}->{outs[0].device}' if is_copy else str(outs[0].device),
            'in_shapes': [tuple(t.shape) for t in ins], 'out_shapes': [tuple(t.shape) for t in outs],
            'dtype': str(outs[0].dtype).replace('torch.', ''),
            'bytes': sum(t.nbytes for t in outs) if is_copy else 0,
            'carries': [carried] if is_copy and carried else [],
        })
        seen = set()
        for t in ins:
            if id(t) in self._producer and id(t) not in seen:
                seen.add(id(t))  # D * D reads D twice: one edge
                src, _, tensor = self._producer[id(t)]
                self.edges.append({'src': src, 'dst': node_id, 'tensor': tensor,
                                   'shapes': [tuple(t.shape)], 'bytes': t.nbytes})
        for k, t in enumerate(outs):
            # A copy's output lives on the lane it landed on, not on the link.
            self._producer[id(t)] = (node_id, lane, f'{node_id}:{k}')
            if carried:  # a view or a copy of a labelled tensor is still that data
                self._labels[id(t)] = carried
            else:
                self._labels.pop(id(t), None)  # an id reused by a new tensor loses the old label
        self._alive.append((ins, outs))
        if self._keep_calls:
            self.calls.append((func, args, kwargs))
        return out

    def graph(self):
        """{'nodes', 'edges', 'devices'}: the marked ops if the step marked any stage, else every op."""
        keep = {n['id'] for n in self.nodes if n['marked']} or {n['id'] for n in self.nodes}
        ids = {old: new for new, old in enumerate(sorted(keep))}  # renumber: ids index `calls`
        nodes = [dict(n, id=ids[n['id']]) for n in self.nodes if n['id'] in keep]
        edges = [dict(e, src=ids[e['src']], dst=ids[e['dst']]) for e in self.edges
                 if e['src'] in keep and e['dst'] in keep]
        kind = {n['id']: n['kind'] for n in nodes}
        for e in edges:  # an edge is 'copy' when it enters or leaves a copy node
            e['kind'] = 'copy' if 'copy' in (kind[e['src']], kind[e['dst']]) else 'data'
        devices = sorted({n['device'] for n in nodes if n['kind'] == 'compute'})
        g = {'nodes': nodes, 'edges': edges, 'devices': devices}
        if self._keep_calls:
            g['calls'] = [c for i, c in enumerate(self.calls) if i in keep]
        return g


def trace(step_fn, *args, keep_calls=False, inputs_on='host', labels=None, **kwargs):
    """Run step_fn(*args, **kwargs) once -> (its graph, its result) (13.3.3). The recorder sees this thread only, so
    run a step's lanes one after the other here; `inputs_on`: the lane holding tensors made before; `labels`: as
    GraphRecorder's."""
    rec = GraphRecorder(keep_calls=keep_calls, inputs_on=inputs_on, labels=labels)
    with torch.no_grad(), rec:
        result = step_fn(*args, **kwargs)
    return rec.graph(), result


def coarsen_graph(g):
    """Merge the ops of each (lane, stage) into one book-level node, e.g. 'fc1 fwd' (13.3.3)."""
    groups, order = {}, []
    for n in g['nodes']:
        key = f"{n['stage']} [{n['lane']}]"
        if key not in groups:
            order.append(key)
            groups[key] = {'id': key, 'name': n['stage'], 'stage': n['stage'], 'kind': n['kind'],
                           'lane': n['lane'], 'device': n['device'], 'ops': [], 'bytes': 0,
                           'carries': []}
        c = groups[key]
        c['ops'].append(n['id'])
        c['carries'] += [x for x in n.get('carries', ()) if x not in c['carries']]
        c['bytes'] += n['bytes']
    where = {i: key for key in order for i in groups[key]['ops']}
    edges, seen_tensor = {}, set()
    for e in g['edges']:
        a, b = where[e['src']], where[e['dst']]
        if a == b:
            continue
        edge = edges.setdefault((a, b), {'src': a, 'dst': b, 'kind': e['kind'], 'shapes': [], 'bytes': 0})
        if e['kind'] == 'copy':
            edge['kind'] = 'copy'
        if (e['tensor'], b) not in seen_tensor:  # a tensor read by several ops of a box crosses once
            seen_tensor.add((e['tensor'], b))
            edge['shapes'].append(e['shapes'][0])
            edge['bytes'] += e['bytes']
    return {'nodes': [groups[k] for k in order], 'edges': list(edges.values()), 'devices': list(g['devices'])}


def graph_summary(g):
    """Counts that do not depend on timing: nodes, edges by kind, lanes, devices, copies (13.3.3)."""
    kinds = {}
    for e in g['edges']:
        kinds[e['kind']] = kinds.get(e['kind'], 0) + 1
    compute = [n for n in g['nodes'] if n['kind'] == 'compute']
    copies = [n for n in g['nodes'] if n['kind'] == 'copy']
    return {'nodes': len(g['nodes']), 'edges': dict(sorted(kinds.items())),
            'lanes': sorted({n['lane'] for n in compute}), 'devices': sorted({n['device'] for n in compute}),
            'copies': len(copies), 'bytes_copied': sum(n['bytes'] for n in copies)}
