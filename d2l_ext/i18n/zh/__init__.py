"""Chinese messages (simplified, d2l-zh's terms: see docs/glossary.md), one module per area."""
