"""Static matplotlib plots for 13.3: timelines, parallel-vs-serial bars, scaling, copies.

Every function draws into `ax` when given one, else into a new Figure made WITHOUT pyplot,
and returns the Figure. A Figure pyplot does not know about is shown exactly once in Jupyter
(as the cell's value, or via display(fig)) and never again by the inline backend, so no
plt.show or plt.close is needed and notebooks do not print duplicates.
"""

import math

from matplotlib.figure import Figure

PARALLEL_BARS = ("lane 1", "lane 2", "serial sum", "both together", "ideal max(lanes)")
COMM_BARS = (("run", "run"), ("copy", "copy"), ("run_then_copy", "run, then copy"),
             ("overlapped", "run + copy overlapped"), ("ideal", "ideal max(run, copy)"))


def _axes(ax, size):
    """The axes to draw into: the caller's, or one on a fresh pyplot-free Figure."""
    if ax is not None:
        return ax
    return Figure(figsize=size).add_subplot()


def _time_unit(seconds):
    """Pick s, ms or µs so the tick labels stay short."""
    if seconds >= 1:
        return "s", 1.0
    if seconds >= 1e-3:
        return "ms", 1e3
    return "µs", 1e6


def draw_timeline(events, ax=None, title=None, highlight=None):
    """Gantt chart of scheduled or measured events, one row per lane. Used by 13.3.1-13.3.3.

    events: dicts {'lane', 'name', 'start', 'end'} in seconds (as schedule.py returns them).
    highlight: names of events to outline in black (13.3.3 outlines the critical path).
    """
    highlight = set(highlight or ())
    lanes = list(dict.fromkeys(e["lane"] for e in events))
    ax = _axes(ax, (9, 0.7 + 0.6 * max(len(lanes), 1)))
    end = max((e["end"] for e in events), default=0.0)
    unit, scale = _time_unit(end)
    row = {lane: i for i, lane in enumerate(lanes)}
    for e in events:
        left, width = e["start"] * scale, (e["end"] - e["start"]) * scale
        marked = e["name"] in highlight
        ax.barh(row[e["lane"]], width, left=left, height=0.6, color=f"C{row[e['lane']] % 10}",
                edgecolor="black" if marked else "white", linewidth=1.6 if marked else 1,
                zorder=3 if marked else 2)
        # The row already names the lane, so 'fc1 fwd [lane 0]' is written 'fc1 fwd'.
        text = e["name"].replace(f" [{e['lane']}]", "")
        # Write the name inside the bar only where it fits; a crowded chart stays legible.
        bar_px = ax.bbox.width * width / (end * scale) if end > 0 else 0.0
        if bar_px >= len(text) * 8 * 0.62 * ax.figure.dpi / 72 + 4:
            ax.text(left + width / 2, row[e["lane"]], text, ha="center", va="center",
                    fontsize=8, color="white", clip_on=True)
    ax.set_yticks(range(len(lanes)))
    ax.set_yticklabels(lanes)
    ax.set_ylim(len(lanes) - 0.5, -0.5)  # first lane on top, as it was listed
    ax.set_xlim(0, end * scale * 1.02 if end > 0 else 1)
    ax.set_xlabel(f"time ({unit})")
    ax.grid(axis="x", alpha=0.3)
    if highlight:
        from matplotlib.patches import Patch
        ax.legend(handles=[Patch(fc="white", ec="black", lw=1.6, label="critical path")],
                  loc="lower right", fontsize=7, framealpha=0.8)
    if title:
        ax.set_title(title)
    return ax.figure


def _shared_label(results, i):
    """'lane 1: <label>' when every framework used the same lane i, else plain 'lane 1'."""
    labels = {r["lanes"][i].get("label") for r in results if len(r.get("lanes", [])) > i}
    name = PARALLEL_BARS[i]
    return f"{name}: {labels.pop()}" if len(labels) == 1 and None not in labels else name


def plot_parallel_bars(results, ax=None):
    """Per framework: each lane alone, their serial sum, both together, and the ideal. Used by 13.3.1.

    Error bars span the interquartile range (±IQR/2) of measured times; the serial sum and the
    ideal are computed from medians, so they have none.
    """
    ax = _axes(ax, (max(6, 2.6 * len(results)), 4))
    width = 0.16
    for j, name in enumerate(PARALLEL_BARS):
        heights, errs = [], []
        for r in results:
            measured = {0: r["lane_times"][0], 1: r["lane_times"][1], 3: r["together"]}.get(j)
            heights.append(measured["median"] if measured else
                           r["serial_sum"] if j == 2 else r["ideal"])
            errs.append(measured.get("iqr", 0.0) / 2 if measured else 0.0)
        xs = [i + (j - 2) * width for i in range(len(results))]
        label = _shared_label(results, j) if j < 2 else name
        ax.bar(xs, heights, width, yerr=errs, capsize=3, label=label, color=f"C{j}")
    for i, r in enumerate(results):
        if r.get("speedup") is not None:
            top = max(r["serial_sum"], r["together"]["median"])
            ax.text(i, top * 1.06, f"speedup {r['speedup']:.2f}×", ha="center", fontsize=9)
    ax.set_xticks(range(len(results)))
    ax.set_xticklabels([r["framework"] for r in results])
    ax.set_ylabel("time (s)")
    ax.set_ylim(0, max([r["serial_sum"] for r in results] + [0]) * 1.2 or 1)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("Two lanes: one after the other vs. together")
    return ax.figure


def plot_scaling(points, ax=None):
    """Speedup of running both lanes together vs. matrix size, per framework. Used by 13.3.1.

    Solid: measured serial_sum / together. Dashed: serial_sum / ideal, the best possible.
    """
    ax = _axes(ax, (6, 4))
    frameworks = list(dict.fromkeys(p["framework"] for p in points))
    for k, fw in enumerate(frameworks):
        pts = sorted((p for p in points if p["framework"] == fw), key=lambda p: p["size"])
        sizes = [p["size"] for p in pts]
        ax.plot(sizes, [p["speedup"] for p in pts], "o-", color=f"C{k}", label=f"{fw} measured")
        if all(p.get("ideal_speedup") is not None for p in pts):
            ax.plot(sizes, [p["ideal_speedup"] for p in pts], "--", color=f"C{k}",
                    label=f"{fw} ideal")
    ax.axhline(1.0, color="0.5", lw=0.8)  # below this line, running together lost time
    if points and min(p["size"] for p in points) > 0:
        ax.set_xscale("log", base=2)
    ax.set_xlabel("matrix size n (n×n)")
    ax.set_ylabel("speedup (serial sum / together)")
    ax.legend(fontsize=8)
    ax.set_title("Does running two lanes together pay off?")
    return ax.figure


def plot_comm_bars(rows, ax=None):
    """Run, copy, run-then-copy, overlapped and ideal times, one group per copy mode. Used by 13.3.2.

    A value that is missing or None (say, a mode that cannot overlap) leaves its bar out.
    """
    ax = _axes(ax, (max(6, 2.4 * len(rows)), 4))
    width = 0.16
    for j, (key, label) in enumerate(COMM_BARS):
        xs = [i + (j - 2) * width for i, r in enumerate(rows) if r.get(key) is not None]
        hs = [r[key] for r in rows if r.get(key) is not None]
        ax.bar(xs, hs, width, label=label, color=f"C{j}")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["mode"].replace(", ", ",\n") for r in rows])  # long names wrap
    ax.set_ylabel("time (s)")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax.set_title("Computing and copying: in turn vs. overlapped")
    return ax.figure


def _gbps(row):
    if row.get("gbps") is not None:
        return float(row["gbps"])
    return row["bytes"] / row["copy"] / 1e9


def plot_bandwidth(rows, link_gbps, ax=None):
    """Achieved copy bandwidth per mode against the link's measured GB/s. Used by 13.3.2.

    Each row has 'mode' and either 'gbps' or 'bytes' and 'copy' (seconds); GB is 1e9 bytes.
    """
    ax = _axes(ax, (max(5, 1.6 * len(rows)), 3.5))
    values = [_gbps(r) for r in rows]
    bars = ax.bar(range(len(rows)), values, 0.6, color="C1", label="achieved")
    for b, v in zip(bars, values):
        ax.text(b.get_x() + b.get_width() / 2, v, f"{v:.1f}", ha="center", va="bottom", fontsize=8)
    link_ok = link_gbps is not None and math.isfinite(link_gbps)
    if link_ok:
        ax.axhline(link_gbps, color="0.2", ls="--", label=f"link, measured: {link_gbps:.1f} GB/s")
    ax.set_xticks(range(len(rows)))
    ax.set_xticklabels([r["mode"].replace(", ", ",\n") for r in rows])
    ax.set_ylabel("GB/s")
    ax.set_ylim(0, max(values + [link_gbps if link_ok else 0, 0]) * 1.15 or 1)
    ax.legend(fontsize=8)
    ax.set_title("Copy bandwidth")
    return ax.figure
