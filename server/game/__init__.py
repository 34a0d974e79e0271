"""The deterministic game engine: pure state and transitions, no I/O (issue 3)."""
