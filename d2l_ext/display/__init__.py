"""Everything a learner reads: text, tables, plots and widgets, in one visual language (13.3.x)."""
