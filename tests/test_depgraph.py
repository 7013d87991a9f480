"""The recorded dependency graph of the two-lane step (Fig. 13.3.1) and its numerics."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402

from d2l_ext import depgraph as dg  # noqa: E402
from d2l_ext import schedule  # noqa: E402

SERVER = "cpu (parameter server)"
TINY = {"batch": 8, "d_in": 5, "hidden": 6, "d_out": 3}


@pytest.fixture(scope="module")
def raw():
    return dg.record_step_graph(["cpu", "cpu"])


@pytest.fixture(scope="module")
def coarse(raw):
    return dg.coarsen_graph(raw)


def test_raw_graph_on_cpu(raw):
    # Per lane 18 ops, 8 grad copies, 4 adds (sum), 4 adds (update), 8 weight copies.
    assert dg.graph_summary(raw) == {
        "nodes": 60,
        "edges": {"copy": 24, "data": 42},
        "lanes": [SERVER, "lane 0", "lane 1"],
        "devices": ["cpu"],
        "copies": 16,
        "bytes_copied": 3256480,  # 4 x (784*256 + 256 + 256*10 + 10) floats x 4 bytes
        "flops": 210203158,
    }


def test_coarse_graph_on_cpu(coarse):
    assert dg.graph_summary(coarse) == {
        "nodes": 20,
        "edges": {"copy": 8, "data": 17},
        "lanes": [SERVER, "lane 0", "lane 1"],
        "devices": ["cpu"],
        "copies": 4,
        "bytes_copied": 3256480,
        "flops": 210203158,
    }
    names = [n["name"] for n in coarse["nodes"] if n["lane"] == "lane 1"]
    assert names == ["fc1 fwd", "relu", "fc2 fwd", "loss", "fc2 bwd", "relu bwd", "fc1 bwd"]
    edges = {(e["src"], e["dst"]): e for e in coarse["edges"]}
    up = edges[("fc1 bwd [lane 0]", f"grad copy [link:lane 0->{SERVER}]")]
    assert up["kind"] == "copy" and up["bytes"] == (784 * 256 + 256) * 4
    assert edges[("fc1 fwd [lane 0]", "relu [lane 0]")]["shapes"] == [(128, 256)]
    # The two lanes never talk to each other directly: only through the server.
    assert not any("lane 0" in a and "lane 1" in b for a, b in edges)


def test_copy_nodes_sit_on_links(raw):
    links = {n["lane"] for n in raw["nodes"] if n["kind"] == "copy"}
    assert links == {f"link:lane 0->{SERVER}", f"link:lane 1->{SERVER}",
                     f"link:{SERVER}->lane 0", f"link:{SERVER}->lane 1"}
    assert all(n["name"] == "_to_copy" for n in raw["nodes"] if n["kind"] == "copy")


def test_structure_does_not_depend_on_sizes(raw):
    small = dg.graph_summary(dg.record_step_graph(problem=dg.make_problem(**TINY)))
    big = dg.graph_summary(raw)
    assert (small["nodes"], small["edges"]) == (big["nodes"], big["edges"])
    assert small["bytes_copied"] == 4 * (5 * 6 + 6 + 6 * 3 + 3) * 4


@pytest.mark.parametrize("batch", [8, 7])  # 7 rows split 4 + 3: uneven lanes still match
def test_split_step_matches_full_batch_step(batch):
    problem = dg.make_problem(**dict(TINY, batch=batch))
    check = dg.check_step_matches(["cpu", "cpu"], problem)
    assert check["match"], check
    assert check["loss_split"] == pytest.approx(check["loss_whole"], rel=1e-5)


def test_default_check_matches_and_catches_a_wrong_step():
    assert dg.check_step_matches()["match"]
    params, X, Y = dg.make_problem(**TINY)
    split, _ = dg.parallel_step(params, X, Y, ["cpu", "cpu"], lr=0.1)
    other, _ = dg.single_device_step(params, X, Y, "cpu", lr=0.2)
    assert not torch.allclose(split["W1"], other["W1"], rtol=1e-5, atol=1e-6)


def test_task_costs_use_flops_and_bytes(coarse):
    speed = {"lane 0": 1e9, "lane 1": 1e9, SERVER: 1e8}
    tasks = {t.name: t for t in dg.task_costs(coarse, speed, link_bandwidth=1e8)}
    fc1 = tasks["fc1 fwd [lane 0]"]
    assert fc1.cost == pytest.approx((2 * 128 * 784 * 256 + 128 * 256) / 1e9)
    assert fc1.resource == "lane 0" and fc1.deps == ()
    up = tasks[f"grad copy [link:lane 1->{SERVER}]"]
    assert up.cost == pytest.approx(814120 / 1e8)
    assert set(up.deps) == {"fc2 bwd [lane 1]", "fc1 bwd [lane 1]"}


def test_raw_graph_schedules_too_and_copies_need_a_bandwidth(raw):
    tasks = dg.task_costs(raw, {"default": 1e9}, 1e9)
    assert len(tasks) == 60 and tasks[0].name == "addmm #0"
    assert schedule.serial_total(tasks) == pytest.approx(210203158 / 1e9 + 3256480 / 1e9)
    with pytest.raises(ValueError, match="link_bandwidth"):
        dg.task_costs(raw, {"default": 1e9}, None)
    with pytest.raises(ValueError, match="device_speed"):
        dg.task_costs(raw, {"lane 0": 1e9}, 1e9)


def test_schedule_step_overlaps_the_lanes(coarse):
    speed = {"default": 1e9}
    r = dg.schedule_step(coarse, speed, 1e9)
    # The lanes run side by side, so the step takes less than doing everything in turn...
    assert r["total"] < 0.75 * r["serial_total"]
    # ...but never less than its longest chain, which goes through one lane and the server.
    assert r["total"] >= r["critical_path_s"] - 1e-12
    assert r["critical_path"][0] == "fc1 fwd [lane 0]"
    assert r["critical_path"][-1].startswith("weight copy")
    lane_serial = schedule.serial_total(dg.task_costs(coarse, speed, 1e9))
    assert r["serial_total"] == lane_serial


def test_measured_costs_cover_every_node():
    coarse, costs = dg.measure_node_costs(problem=dg.make_problem(**TINY), repeats=2)
    assert set(costs) == {n["id"] for n in coarse["nodes"]}
    assert all(c > 0 for c in costs.values())
    r = dg.schedule_step(coarse, measured=costs)
    assert 0 < r["total"] <= r["serial_total"]


def test_draw_graph_writes_every_node(coarse):
    from matplotlib.figure import Figure

    fig = dg.draw_graph(coarse, title="step")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    texts = [t.get_text() for t in ax.texts]
    for n in coarse["nodes"]:
        assert n["name"] in texts
    assert "785 KiB" in texts  # a copy edge labelled with its bytes
    arrows = [t.arrow_patch for t in ax.texts if getattr(t, "arrow_patch", None) is not None]
    assert len(arrows) == len(coarse["edges"]) == 25
    dashed = [a for a in arrows if a.get_linestyle() in ("--", "dashed")]
    assert len(dashed) == 8  # one dashed arrow per copy edge


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_same_structure_with_a_gpu_lane(raw):
    g = dg.record_step_graph(["cuda:0", "cpu"])
    s, cpu = dg.graph_summary(g), dg.graph_summary(raw)
    assert s["devices"] == ["cpu", "cuda:0"]
    assert {k: s[k] for k in ("nodes", "edges", "lanes", "bytes_copied")} == \
        {k: cpu[k] for k in ("nodes", "edges", "lanes", "bytes_copied")}
    assert dg.check_step_matches(["cuda:0", "cpu"])["match"]


# --- the model graph, the real two-lane step, the texts, and exercise 5 -------------------

def test_model_graph_is_the_recorded_graph_without_arithmetic(coarse):
    m = dg.model_graph()
    sm, sc = dg.graph_summary(m), dg.graph_summary(coarse)
    assert sm["devices"] == ["model"]
    assert {k: v for k, v in sm.items() if k != "devices"} == {k: v for k, v in sc.items() if k != "devices"}
    big = dg.graph_summary(dg.model_graph(batch=4096, hidden=4096))
    assert big["bytes_copied"] == 4 * (784 * 4096 + 4096 + 4096 * 10 + 10) * 4


@pytest.mark.parametrize("kwargs", [{"batch": 1}, {"hidden": 0}, {"batch": 2.5}])
def test_model_graph_rejects_bad_sizes(kwargs):
    with pytest.raises(ValueError):
        dg.model_graph(**kwargs)


def test_book_setting_model_numbers_are_fixed():
    r = dg.schedule_step(dg.model_graph(), **dg.BOOK_SETTING)
    assert r["critical_path_s"] <= r["total"] <= r["serial_total"]
    assert round(r["serial_total"] * 1e6, 1) == 296.4
    assert round(r["total"] * 1e6, 1) == 150.2
    text = dg.schedule_text(r)
    assert "296.4 µs" in text and "critical path: fc1 fwd [lane 0]" in text
    assert "critical path:" not in dg.schedule_text(r, unit="s", path=False)


def test_as_lanes_makes_cpu_lanes_with_a_share_of_the_cores():
    lanes = dg.as_lanes(["cpu", "cpu"])
    assert [lane.kind for lane in lanes] == ["cpu", "cpu"]
    assert all(not lane.asynchronous and lane.threads >= 1 for lane in lanes)
    assert dg.as_lanes(lanes) == lanes


def test_run_step_on_two_threads_matches_autograd():
    problem = dg.make_problem(**TINY)
    check = dg.check_step_matches(problem=problem, lanes=["cpu", "cpu"])
    assert check["match"], check
    params, X, Y = problem
    apart, _ = dg.run_step(params, X, Y, ["cpu", "cpu"], together=False)
    at_once, _ = dg.run_step(params, X, Y, ["cpu", "cpu"], together=True)
    assert all(torch.equal(apart[k], at_once[k]) for k in dg.PARAM_NAMES)


def test_time_step_reports_the_three_variants():
    t = dg.time_step(["cpu", "cpu"], dg.make_problem(**TINY), repeats=2)
    assert list(t["times"]) == list(dg.STEP_VARIANTS)
    assert all(m["median"] > 0 for m in t["times"].values())
    assert t["speedup"] > 0 and t["vs_one_device"] > 0
    text = dg.step_timing_text(t)
    assert "two lanes together" in text and text.count(" s  (IQR") == 3
    one = dg.time_step(["cpu", "cpu"], dg.make_problem(**TINY), repeats=1, variants=("two lanes together",))
    assert list(one["times"]) == ["two lanes together"] and "speedup" not in one
    with pytest.raises(ValueError, match="unknown variants"):
        dg.time_step(["cpu", "cpu"], dg.make_problem(**TINY), variants=("fast",))


def test_measure_node_costs_accepts_lanes():
    lanes = dg.as_lanes(["cpu", "cpu"])
    coarse, costs = dg.measure_node_costs(lanes, dg.make_problem(**TINY), repeats=1)
    assert set(costs) == {n["id"] for n in coarse["nodes"]}
    assert torch.get_num_threads() >= 1


def test_texts_are_deterministic(raw, coarse):
    assert dg.summary_text(coarse, "boxes").startswith("boxes: 20 nodes, 25 edges (8 copy, 17 data)")
    ops = dg.stage_ops_text(raw)
    assert "fc1 fwd      addmm(256, 128x784, 784x256)" in ops
    assert "grad copy    _to_copy(784x256)" in ops


def test_diamond_dag_shape():
    dag = dg.diamond_dag(stages=2, arms=(1, 2, 3))
    names = [t["name"] for t in dag]
    assert len(dag) == 14 and names[:7] == ["1a1", "1b1", "1b2", "1c1", "1c2", "1c3", "1J"]
    deps = {t["name"]: t["deps"] for t in dag}
    assert deps["1a1"] == ["x"] and deps["2a1"] == ["1J"]
    assert deps["1b2"] == ["1b1", "1a1"] and deps["1c3"] == ["1c2", "1b1"]  # the cross edges
    assert deps["1J"] == ["1a1", "1b2", "1c3"]
    assert dg.diamond_dag(1, (2, 2), cross=False)[1]["deps"] == ["1a1"]
    with pytest.raises(ValueError):
        dg.diamond_dag(0)


def test_dag_plan_on_equal_lanes_reaches_the_critical_path():
    lanes = dg.as_lanes(["cpu", "cpu"])
    events, order = dg.dag_plan(dg.diamond_dag(), lanes)
    assert schedule.schedule_total(events) == 12.0
    assert sum(len(v) for v in order.values()) == 21 and all(order.values())


def test_dag_experiment_is_correct_and_the_broken_engine_is_caught():
    r = dg.dag_experiment(["cpu", "cpu"], n=24, stages=2, repeats=1)
    assert r["model"] == {"serial": 14.0, "planned": 8.0, "critical_path": 8.0}
    assert [row["label"] for row in r["rows"]][:2] == ["one lane, in order", "two lanes, planned"]
    assert all(row["max_rel_error"] < 1e-4 for row in r["rows"])
    assert {e["name"] for e in r["trace"]} == {t["name"] for t in r["dag"]}
    ran = {e["name"]: e for e in r["trace"]}
    for t in r["dag"]:  # the engine waited: no task started before its inputs were done
        for d in t["deps"]:
            if d != "x":
                assert ran[d]["end"] <= ran[t["name"]]["start"]
    assert "two lanes vs one lane" in dg.dag_text(r)
    caught, message = dg.broken_engine_check(r)
    assert caught and "relative error" in message
    fig = dg.draw_graph(dg.dag_graph(r), label_edges=False, rows=r["lanes"])
    assert len([t for t in fig.axes[0].texts if t.get_text() in r["order"][r["lanes"][0]]]) > 0


def test_check_dag_raises_on_a_wrong_answer():
    from d2l_ext.errors import ResultMismatch

    ref = {"a": torch.ones(3, 3, dtype=torch.float64)}
    assert dg.check_dag({"a": torch.ones(3, 3)}, ref) == 0.0
    with pytest.raises(ResultMismatch):
        dg.check_dag({"a": torch.zeros(3, 3)}, ref)
