"""13.3.3 "The Dependency Graph", split by job; the names the lesson uses are re-exported here.

* model:    the two-layer MLP of Fig. 13.3.1 and its SGD step, on one device or split over two lanes
* tracer:   recording a step's dependency graph from the operations it runs (TorchDispatchMode)
* costs:    node costs (modelled or measured here) and the step's schedule
* schedule: the generic algorithms: serial total, critical path, list scheduling (13.3.1-13.3.3)
* runs:     running, checking and timing the step on this machine's lanes
* dag:      exercise 5, a DAG of products planned and run on two lanes by a small dependency engine

Text and pictures live in d2l_ext.display.graph, the panel in d2l_ext.display.graph_panel.
"""
from ..display.graph import (
    dag_model_text,
    dag_text,
    draw_dag,
    draw_graph,
    draw_schedule,
    draw_step_timing,
    schedule_text,
    stage_ops_text,
    step_timing_text,
    summary_text,
)
from .costs import BOOK_SETTING, StepSchedule, measure_node_costs, schedule_step, task_costs
from .dag import (
    DAG_VARIANTS,
    DagExperiment,
    broken_engine_check,
    check_dag,
    dag_experiment,
    dag_graph,
    dag_model,
    dag_plan,
    dag_problem,
    dag_reference,
    dag_size,
    dag_task,
    diamond_dag,
    place_dag,
    run_dag,
)
from .model import (
    DEFAULT_SIZES,
    LANES,
    PARAM_NAMES,
    SERVER,
    forward_backward,
    make_problem,
    reference_step,
    server_update,
    sgd_step,
    split_minibatch,
    split_step,
)
from .runs import (
    APART,
    ONE_DEVICE,
    STEP_VARIANTS,
    TOGETHER,
    StepTiming,
    as_lanes,
    check_step_matches,
    check_update,
    predict_step,
    step_variants,
    time_step,
    whole_device,
)
from .tracer import GraphRecorder, coarsen_graph, graph_summary, model_graph, record_step_graph, stage, trace

__all__ = [
    'APART', 'as_lanes', 'BOOK_SETTING', 'broken_engine_check', 'check_dag', 'check_step_matches', 'check_update',
    'coarsen_graph', 'dag_experiment', 'dag_graph', 'dag_model', 'dag_model_text', 'dag_plan', 'dag_problem',
    'dag_reference', 'dag_size', 'dag_task', 'dag_text', 'DAG_VARIANTS', 'DagExperiment', 'DEFAULT_SIZES',
    'diamond_dag', 'draw_dag', 'draw_graph', 'draw_schedule', 'draw_step_timing', 'forward_backward', 'graph_summary',
    'GraphRecorder', 'LANES', 'make_problem', 'measure_node_costs', 'model_graph', 'ONE_DEVICE', 'PARAM_NAMES',
    'place_dag', 'predict_step', 'record_step_graph', 'reference_step', 'run_dag', 'schedule_step', 'schedule_text',
    'SERVER', 'server_update', 'sgd_step', 'split_minibatch', 'split_step', 'stage', 'stage_ops_text',
    'step_timing_text', 'STEP_VARIANTS', 'step_variants', 'StepSchedule', 'StepTiming', 'summary_text', 'task_costs',
    'time_step', 'TOGETHER', 'trace', 'whole_device'
]
