"""Benchmark harness for the performance targets of DESIGN §6."""
