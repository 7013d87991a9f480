"""One core, said plainly (issue 35): the one line the CLI, the lessons and the grader print, and the noise floor."""
from d2l_ext.cli import caveats
from d2l_ext.i18n import tight, using_language
from d2l_ext.lanes import fake_hardware
from d2l_ext.machine import NOISE_S, noise_line, turns_line

ONE_CORE = 'this machine has 1 core for 2 lanes: they take turns, so no overlap or speedup can be measured here'


def test_the_turns_line_names_cores_and_work_and_is_empty_when_each_gets_a_core():
    assert turns_line(2, 1) == ONE_CORE
    assert turns_line(8, 2, 'processes') == ('this machine has 2 cores for 8 processes: they take turns, so no '
                                             'overlap or speedup can be measured here')
    assert turns_line(2, 2) == '' and turns_line(1, 1) == ''
    with fake_hardware(cores=1):
        assert turns_line(2) == ONE_CORE  # the cores this process may use by default
    with using_language('zh'):
        assert turns_line(2, 1) == '这台机器只有1个核心，却要运行2个计算资源：它们轮流运行，因此这里测不出重叠或加速'


def test_times_below_a_millisecond_are_called_noise():
    assert noise_line(0.5, NOISE_S) == '' and noise_line() == ''
    assert noise_line(0.2, 0.0004).startswith('times below 1 ms are mostly noise here')
    with using_language('zh'):
        assert noise_line(0.0001).startswith('低于1毫秒的时间在这里主要是噪声')


def test_the_cli_says_both_under_its_table_on_one_core():
    cpu = {'kind': 'cpu'}
    data = {'lanes': [cpu, cpu], 'together': {'median': 0.0002}, 'lane_times': [{'median': 0.0001}]}
    with fake_hardware(cores=1):
        lines = caveats('parallel', data)
    assert lines[0] == ONE_CORE and lines[1].startswith('times below 1 ms')
    with fake_hardware(cores=2):
        assert caveats('parallel', dict(data, together={'median': 0.5}, lane_times=[])) == []
        assert caveats('parallel', {'lanes': [{'kind': 'gpu'}, cpu], 'together': {'median': 0.5}}) == []
    with fake_hardware(cores=1):  # 13.3.2 on a CPU: products and copies need a core each
        assert caveats('comm', {'lane': cpu, 'rows': [{'median': 0.5}]})[0].startswith(
            'this machine has 1 core for 2 threads (products and copies): they take turns')
        assert caveats('comm', {'lane': {'kind': 'gpu'}, 'rows': [{'median': 0.5}]}) == []


def test_the_machine_line_leaves_mxnet_out_where_a_lesson_never_runs_it():
    from d2l_ext.display.machine import machine_line
    with using_language('en'):
        assert 'MXNet' in machine_line() and 'MXNet' not in machine_line(mxnet=False)
        assert machine_line(mxnet=False).startswith('Python ') and 'CPU cores; GPUs: ' in machine_line(mxnet=False)
    with using_language('zh'):
        assert 'MXNet' not in machine_line(mxnet=False) and '个CPU核心' in tight(machine_line(mxnet=False))
