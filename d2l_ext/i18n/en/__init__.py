"""English messages, one module per area (each defines MESSAGES)."""
