"""Old home of the 13.3.1/13.3.2 panels.  # compatibility: remove once callers import d2l_ext.display.panels"""
from .display.panels import CommPanel, ParallelPanel, PipelinePanel, results_area, show_in

__all__ = ['CommPanel', 'ParallelPanel', 'PipelinePanel', 'results_area', 'show_in']
