"""Trajectory logs: append safely, read tolerantly, compact by age."""
