"""13.3.1's timelines: which events belong to a lane (its own row and, for MXNet, its engine workers' rows)."""
from __future__ import annotations

from ..backends import split_row


def events_of(timeline, lane: dict) -> list[dict]:
    """A lane's events in a timeline (its ids, Lane.as_dict): its own row and its engine workers' rows (MXNet)."""
    return [e for e in timeline.events if split_row(e['lane'])[0] == lane['name']]

