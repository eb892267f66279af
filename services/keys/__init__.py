"""API keys: their lifecycle, the per-process cache authentication reads, and IP allowlists."""
