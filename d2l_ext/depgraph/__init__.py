"""13.3.3 "The Dependency Graph", split by job; data only (drawing lives in d2l_ext.display.graph).

* model:     the two-layer MLP of Fig. 13.3.1: one lane's forward and backward (lane_step), the step on two lanes
             (mlp_step, the Build-it's worked answer), the problem, its float64 answer
* worked:    the typical wrong versions of mlp_step (the grader's tests, exercise 1)
* halves:    when each half ran (the instrumentation the recordings and the grader share)
* tracer:    recording a step's dependency graph from the operations it runs (TorchDispatchMode)
* runs:      the step's recorded graph and its check against float64 on this machine's lanes
* recording: the step timed three ways with every repeat and interval (here, or shipped from a GPU machine)
* schedule:  the generic algorithms: serial total, critical path, list scheduling (13.3.1-13.3.3)
* dag:       the book's exercise 5, a DAG of products planned and run on two lanes by a small dependency engine
* its "Build it" task '13.3.3-mlp' is graded by d2l_ext.grading.mlp (nothing here imports it)

Importing it loads PyTorch, never matplotlib.
"""
from .dag import (
    DAG_VARIANTS,
    DagExperiment,
    broken_engine_check,
    check_dag,
    dag_experiment,
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
    mlp_step,
    reference_gradients,
    reference_step,
    sgd_step,
)
from .recording import predict_split, record_step
from .runs import as_lanes, check_step_matches, check_update, record_step_graph, whole_device
from .tracer import GraphRecorder, coarsen_graph, graph_summary, stage, trace
from .worked import wrong_version

__all__ = [
    'as_lanes', 'broken_engine_check', 'check_dag', 'check_step_matches', 'check_update', 'coarsen_graph',
    'dag_experiment', 'dag_model', 'dag_plan', 'dag_problem', 'dag_reference', 'dag_size', 'dag_task',
    'DAG_VARIANTS', 'DagExperiment', 'DEFAULT_SIZES', 'diamond_dag', 'graph_summary', 'GraphRecorder', 'lane_step',
    'make_problem', 'mlp_step', 'PARAM_NAMES', 'place_dag', 'predict_split', 'record_step',
    'record_step_graph', 'reference_gradients', 'reference_step', 'run_dag', 'SERVER', 'sgd_step', 'stage', 'trace',
    'whole_device', 'wrong_version'
]
