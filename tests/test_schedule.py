"""Scheduler results on small DAGs worked out by hand, and the 13.3.2 pipeline model."""

import pytest

from d2l_ext.depgraph import schedule
from d2l_ext.depgraph.schedule import Task


def spans(events):
    return {e['name']: (e['lane'], e['start'], e['end']) for e in events}


def test_chain_across_resources_runs_back_to_back():
    tasks = [Task('A', 1.0, 'cpu'), Task('B', 2.0, 'gpu0', ('A',)), Task('C', 1.0, 'cpu', ('B',))]
    assert schedule.serial_total(tasks) == 4.0
    assert schedule.critical_path(tasks) == (4.0, ['A', 'B', 'C'])
    assert spans(schedule.earliest_start_schedule(tasks)) == {
        'A': ('cpu', 0.0, 1.0), 'B': ('gpu0', 1.0, 3.0), 'C': ('cpu', 3.0, 4.0)}


def test_diamond_runs_both_branches_at_once():
    # A feeds B (gpu0, 2 s) and C (gpu1, 3 s); D needs both. Parallel: 1 + 3 + 1 = 5, serial 7.
    tasks = [Task('A', 1, 'cpu'), Task('B', 2, 'gpu0', ('A',)), Task('C', 3, 'gpu1', ('A',)),
             Task('D', 1, 'cpu', ('B', 'C'))]
    events = schedule.earliest_start_schedule(tasks)
    assert spans(events) == {'A': ('cpu', 0, 1), 'B': ('gpu0', 1, 3), 'C': ('gpu1', 1, 4),
                             'D': ('cpu', 4, 5)}
    assert schedule.schedule_total(events) == 5.0
    assert schedule.serial_total(tasks) == 7.0
    assert schedule.critical_path(tasks) == (5.0, ['A', 'C', 'D'])


def test_diamond_on_one_resource_is_serial():
    tasks = [Task('A', 1, 'gpu'), Task('B', 2, 'gpu', ('A',)), Task('C', 3, 'gpu', ('A',)),
             Task('D', 1, 'gpu', ('B', 'C'))]
    events = schedule.earliest_start_schedule(tasks)
    assert schedule.schedule_total(events) == 7.0
    # B and C are ready together: B is listed first, so it goes first.
    assert [e['name'] for e in events] == ['A', 'B', 'C', 'D']
    assert spans(events)['C'] == ('gpu', 3, 6)
    # The critical path ignores the shared resource: it is only a lower bound here.
    assert schedule.critical_path(tasks)[0] == 5.0


def test_tie_break_follows_task_order():
    first = schedule.earliest_start_schedule([Task('X', 2, 'cpu'), Task('Y', 1, 'cpu')])
    second = schedule.earliest_start_schedule([Task('Y', 1, 'cpu'), Task('X', 2, 'cpu')])
    assert spans(first) == {'X': ('cpu', 0, 2), 'Y': ('cpu', 2, 3)}
    assert spans(second) == {'Y': ('cpu', 0, 1), 'X': ('cpu', 1, 3)}


def test_a_task_that_can_start_earlier_is_not_held_up_by_list_order():
    # T1 waits for G (5 s on the gpu); T2, listed later, is free at once and runs first.
    tasks = [Task('G', 5, 'gpu'), Task('T1', 1, 'cpu', ('G',)), Task('T2', 1, 'cpu')]
    s = spans(schedule.earliest_start_schedule(tasks))
    assert s['T2'] == ('cpu', 0, 1)
    assert s['T1'] == ('cpu', 5, 6)


def test_critical_path_tie_goes_to_first_listed():
    tasks = [Task('A', 1, 'x'), Task('B', 1, 'y'), Task('C', 1, 'z', ('A', 'B'))]
    assert schedule.critical_path(tasks) == (2.0, ['A', 'C'])
    assert schedule.critical_path([]) == (0.0, [])


def test_dict_tasks_are_accepted():
    tasks = [{'name': 'a', 'cost': 0.5, 'resource': 'cpu'},
             {'name': 'b', 'cost': 0.25, 'resource': 'cpu', 'deps': ['a']}]
    assert schedule.schedule_total(schedule.earliest_start_schedule(tasks)) == 0.75


@pytest.mark.parametrize('tasks, message', [
    ([Task('A', 1, 'cpu', ('B',)), Task('B', 1, 'cpu', ('A',))], 'cycle'),
    ([Task('A', 1, 'cpu', ('nope',))], 'unknown'),
    ([Task('A', 1, 'cpu'), Task('A', 2, 'gpu')], 'repeated'),
    ([Task('A', -1, 'cpu')], 'negative'),
])
def test_bad_graphs_are_rejected(tasks, message):
    with pytest.raises(ValueError, match=message):
        schedule.earliest_start_schedule(tasks)


def test_pipeline_one_stream_is_serial():
    m = schedule.pipeline_model(1.0, 0.5, 4, overlap=False)
    assert m['total'] == 6.0
    assert m['serial_total'] == 6.0
    assert m['ideal'] == 4.5
    assert {e['lane'] for e in m['events']} == {'one stream'}
    assert [e['name'] for e in m['events']][:3] == ['product 1', 'copy 1', 'product 2']


def test_pipeline_two_streams_hide_the_copies():
    m = schedule.pipeline_model(1.0, 0.5, 4, overlap=True)
    assert m['total'] == 4.5  # 4 products back to back, then the last copy
    assert m['serial_total'] == 6.0
    assert m['ideal'] == 4.5
    s = spans(m['events'])
    assert s['copy 1'] == ('copy stream', 1.0, 1.5)
    assert s['product 2'] == ('compute stream', 1.0, 2.0)
    assert s['copy 4'] == ('copy stream', 4.0, 4.5)


def test_pipeline_copy_bound_case():
    # Copies are slower: first product, then 4 copies back to back = 0.5 + 4 = 4.5.
    m = schedule.pipeline_model(0.5, 1.0, 4, overlap=True)
    assert m['total'] == 4.5 and m['ideal'] == 4.5 and m['serial_total'] == 6.0
    assert schedule.pipeline_model(0.5, 1.0, 4, overlap=False)['total'] == 6.0


def test_pipeline_single_iteration_cannot_overlap():
    m = schedule.pipeline_model(1.0, 0.5, 1, overlap=True)
    assert m['total'] == m['serial_total'] == m['ideal'] == 1.5


def test_pipeline_rejects_bad_iters():
    with pytest.raises(ValueError):
        schedule.pipeline_model(1.0, 0.5, 0, overlap=True)


def test_bottom_levels_count_the_longest_chain_behind_each_task():
    tasks = [Task('A', 1, ''), Task('B', 2, '', ('A',)), Task('C', 3, '', ('A',)),
             Task('D', 1, '', ('B', 'C'))]
    assert schedule.bottom_levels(tasks) == {'A': 5.0, 'B': 3.0, 'C': 4.0, 'D': 1.0}


def test_list_schedule_places_the_long_branch_first_on_two_lanes():
    # A diamond with arms of 1 and 2 tasks: serial 5, two lanes 1 + 2 + 1 = 4.
    tasks = [Task('A', 1, ''), Task('B1', 1, '', ('A',)), Task('C1', 1, '', ('A',)),
             Task('C2', 1, '', ('C1',)), Task('D', 1, '', ('B1', 'C2'))]
    s = spans(schedule.list_schedule(tasks, ['l0', 'l1']))
    assert s['A'] == ('l0', 0, 1)
    assert s['C1'] == ('l0', 1, 2)  # the longer arm first, on the lane that is free first
    assert s['B1'] == ('l1', 1, 2)
    assert s['D'][2] == 4


def test_list_schedule_uses_speeds_and_copy_costs():
    tasks = [Task('A', 1, ''), Task('B', 1, '', ('A',)), Task('C', 1, '', ('A',))]
    # A lane 10 times slower gets nothing when waiting on the fast lane finishes earlier.
    s = spans(schedule.list_schedule(tasks, ['gpu', 'cpu'], speed={'gpu': 10, 'cpu': 1}))
    assert {lane for lane, _, _ in s.values()} == {'gpu'}
    # Equal lanes but a costly copy: C stays with A rather than pay for the move.
    s = spans(schedule.list_schedule(tasks, ['l0', 'l1'], copy_s=5))
    assert {lane for lane, _, _ in s.values()} == {'l0'}
    s = spans(schedule.list_schedule(tasks, ['l0', 'l1'], copy_s=0.5))
    assert s['C'] == ('l1', 1.5, 2.5)


@pytest.mark.parametrize('kwargs, message', [
    ({'resources': []}, 'needs a resource'),
    ({'resources': ['a', 'b'], 'speed': {'a': 1}}, 'speed'),
    ({'resources': ['a'], 'speed': {'a': 0}}, 'speed'),
])
def test_list_schedule_rejects_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        schedule.list_schedule([Task('A', 1, '')], **kwargs)


def test_list_schedule_rejects_cycles():
    with pytest.raises(ValueError, match='cycle'):
        schedule.list_schedule([Task('A', 1, '', ('B',)), Task('B', 1, '', ('A',))], ['l0'])


def test_list_schedule_keeps_pinned_tasks_where_they_were_pinned():
    tasks = [Task('A', 1, ''), Task('B', 1, '', ('A',)), Task('C', 1, '', ('A',))]
    s = spans(schedule.list_schedule(tasks, ['gpu', 'cpu'], speed={'gpu': 10, 'cpu': 1}, pinned={'C': 'cpu'}))
    assert s['C'][0] == 'cpu' and s['B'][0] == 'gpu'
    with pytest.raises(ValueError, match='unlisted'):
        schedule.list_schedule(tasks, ['gpu'], pinned={'C': 'tpu'})
