"""13.3.3's names: what a learner reads for the graph's row ids, stages, boxes and ways to run the step.

One home for them, shared by the sentences (display.graph), the figures (display.graph_draw) and the
recorded step (display.graph_recorded); a name for a figure is made in the plot language.
"""
from __future__ import annotations

from ..i18n import language, t
from ..lanes import label_of
from . import style
from .fonts import plot_lane

SERVER = 'cpu (parameter server)'  # the server's row id in the graphs (depgraph.model.SERVER)
# The keys graph.stage.<stage>, one per stage of the worked step, and the stage ids they name.
# 'copy in' is recorded as 'weights in' or 'rows in', each copy named by what it moved (runs.name_copies_in).
STAGES = ('copy_in', 'weights_in', 'rows_in', 'fc1_fwd', 'relu', 'fc2_fwd', 'loss', 'fc2_bwd', 'relu_bwd', 'fc1_bwd',
          'grad_copy', 'sum', 'update')
STAGE_OF = {stage.replace('_', ' '): stage for stage in STAGES}  # 'fc1 fwd' -> 'fc1_fwd'
VARIANTS = ('one_device', 'in_turn', 'split')  # the keys graph.variant.<variant> (depgraph.runs.STEP_VARIANTS)


def lane_name(lane: str, plot: bool = False) -> str:
    """What a learner reads for a row id: 'lane 0' -> '执行路 0', the server, a link 'a -> b', a device 'cuda:0'.

    A device id (the source of the minibatch's rows) reads as its label, 'cpu' -> 'CPU', 'cuda:0' -> 'GPU 0';
    any other id as itself.
    """
    say = style.plot_text if plot else t
    if lane.startswith('lane ') and lane[5:].isdigit():
        return say('graph.lane', i=lane[5:])
    if lane == SERVER:
        return say('graph.server')
    if lane.startswith('link:'):
        a, _, b = lane[5:].partition('->')
        return say('graph.link', src=lane_name(_end(a), plot), dst=lane_name(_end(b), plot))
    return plot_lane(lane) if plot else label_of(lane, language())


def _end(device: str) -> str:
    """A copy's end as a row id: the CPU's memory is the server's (SERVER), so the weights and the minibatch's rows,
    both read from it, name their source one way ('server (CPU) → lane 0', never also 'CPU → lane 0')."""
    return SERVER if device == 'cpu' else device


def link_row(lane: str, stages, plot: bool = False) -> str:
    """A link's row in a timeline: its ends and what its copies moved ('server (CPU) → lane 0: rows in')."""
    what = (style.plot_text if plot else t)('graph.sep_list').join(dict.fromkeys(stage_label(x, plot) for x in stages))
    return (style.plot_text if plot else t)('graph.link_row', link=lane_name(lane, plot), what=what) if what \
        else lane_name(lane, plot)


def role_of(lane: str, rows: list[str]) -> str:
    """Colour role of a row: links are transfers, the server is the CPU, 'lane N' is lane N, others by position."""
    if lane.startswith('link:'):
        return 'link'
    if lane == SERVER:
        return 'cpu'
    if lane.startswith('lane ') and lane[5:].isdigit():
        return style.lane_role(int(lane[5:]))
    others = [x for x in rows if x != SERVER]
    return style.lane_role(others.index(lane)) if lane in others else 'idle'


def fmt_bytes(b: int) -> str:
    """Bytes as the graph labels its copies: '785 KiB', '3.1 MiB'."""
    return f'{b / 2**20:.1f} MiB' if b >= 2**20 else f'{b / 2**10:.0f} KiB' if b >= 2**10 else f'{b} B'


def stage_label(name: str, plot: bool = False) -> str:
    """A stage id of the worked step as a learner reads it ('fc1 fwd' -> 'fc1 前向'); a learner's own as itself."""
    stage = STAGE_OF.get(name)
    return (style.plot_text if plot else t)(f'graph.stage.{stage}') if stage else name


def box_name(box: str, plot: bool = False) -> str:
    """A coarse node id as a learner reads it: 'fc1 fwd [lane 0]' -> 'fc1 前向 [执行路 0]' in Chinese."""
    name, sep, lane = box.rpartition(' [')
    if sep and lane.endswith(']'):
        return f'{stage_label(name, plot)} [{lane_name(lane[:-1], plot)}]'
    return stage_label(box, plot)


def variant_label(variant: str, plot: bool = False) -> str:
    """One of the three ways to run the step (VARIANTS) as a learner reads it."""
    return (style.plot_text if plot else t)(f'graph.variant.{variant}')


def lanes_text(n: int) -> str:
    """'lane 0 + lane 1': the lanes as the graphs name them (machine_text says which device each is)."""
    return ' + '.join(lane_name(f'lane {i}') for i in range(n))
