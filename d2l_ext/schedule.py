"""Moved to d2l_ext.depgraph.schedule; kept so `from d2l_ext.schedule import pipeline_model` still works."""
from .depgraph.schedule import *  # noqa: F401,F403
