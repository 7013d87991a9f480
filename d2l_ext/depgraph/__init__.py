"""13.3.3 "The Dependency Graph", split by job; data only (drawing lives in d2l_ext.display.graph_draw).

* model:    the two-layer MLP of Fig. 13.3.1: one lane's forward and backward, the problem, its float64 answer
* worked:   the worked answer, mlp_step (the step on two lanes), the halves in turn, and the typical wrong versions
* task:     the graded "Build it" task '13.3.3-mlp': what it records of the learner's step, and its criteria
* tracer:   recording a step's dependency graph from the operations it runs (TorchDispatchMode)
* runs:     recording, running, checking and timing the step on this machine's lanes
* costs:    node costs (modelled or measured here), the lanes' measured rates, the schedule and predictions
* schedule: the generic algorithms: serial total, critical path, list scheduling (13.3.1-13.3.3)
* dag:      the book's exercise 5, a DAG of products planned and run on two lanes by a small dependency engine

Importing it loads PyTorch, never matplotlib.
"""
from .costs import (
    BOOK_SETTING,
    LaneRates,
    StepSchedule,
    measure_node_costs,
    measure_rates,
    predict_step,
    schedule_step,
    task_costs,
)
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
    PARAM_NAMES,
    SERVER,
    lane_step,
    make_problem,
    reference_gradients,
    reference_step,
    sgd_step,
)
from .runs import (
    APART,
    ONE_DEVICE,
    STEP_VARIANTS,
    TOGETHER,
    LaneOverlap,
    StepTiming,
    as_lanes,
    check_step_matches,
    check_update,
    lane_overlap,
    model_graph,
    record_step_graph,
    step_variants,
    time_step,
    whole_device,
)
from .task import wrong_version
from .tracer import GraphRecorder, coarsen_graph, graph_summary, stage, trace
from .worked import mlp_step_in_turn

__all__ = [
    'APART', 'as_lanes', 'BOOK_SETTING', 'broken_engine_check', 'check_dag', 'check_step_matches', 'check_update',
    'coarsen_graph', 'dag_experiment', 'dag_graph', 'dag_model', 'dag_plan', 'dag_problem', 'dag_reference',
    'dag_size', 'dag_task', 'DAG_VARIANTS', 'DagExperiment', 'DEFAULT_SIZES', 'diamond_dag', 'graph_summary',
    'GraphRecorder', 'lane_overlap', 'lane_step', 'LaneOverlap', 'LaneRates', 'make_problem', 'measure_node_costs',
    'measure_rates', 'mlp_step_in_turn', 'model_graph', 'ONE_DEVICE', 'PARAM_NAMES', 'place_dag', 'predict_step',
    'record_step_graph', 'reference_gradients', 'reference_step', 'run_dag', 'schedule_step', 'SERVER', 'sgd_step',
    'stage', 'StepSchedule', 'StepTiming', 'STEP_VARIANTS', 'step_variants', 'task_costs', 'time_step', 'TOGETHER',
    'trace', 'whole_device', 'wrong_version'
]
