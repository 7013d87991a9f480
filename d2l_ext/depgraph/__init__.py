"""13.3.3 "The Dependency Graph", data only (drawing: display.graph; grading: grading.mlp). model: the MLP of
Fig. 13.3.1 (lane_step, mlp_step); worked: mlp_step's typical wrong versions; halves: when each half ran; tracer: a
step's graph from its operations; runs: that graph and the float64 check here; recording: the step timed three
ways; schedule: critical path, list scheduling; dag: exercise 5. Loads PyTorch, never matplotlib.
"""
from .dag import (
                  DAG_VARIANTS,
                  check_dag,
                  dag_experiment,
                  dag_model,
                  dag_plan,
                  diamond_dag,
                  task_times,
)
from .model import PARAM_NAMES, SERVER, lane_step, make_problem, mlp_step, reference_step, sgd_step
from .recording import record_step
from .runs import as_lanes, check_step_matches, check_update, record_step_graph, whole_device
from .tracer import coarsen_graph, graph_summary, stage, trace
from .worked import wrong_version

__all__ = [
    'as_lanes', 'check_dag', 'check_step_matches', 'check_update', 'coarsen_graph',
    'dag_experiment', 'dag_model', 'dag_plan', 'DAG_VARIANTS', 'diamond_dag', 'graph_summary', 'lane_step',
    'make_problem', 'mlp_step', 'PARAM_NAMES', 'task_times', 'record_step', 'record_step_graph',
    'reference_step', 'SERVER', 'sgd_step', 'stage', 'trace', 'whole_device', 'wrong_version'
]
