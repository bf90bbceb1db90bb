"""Screens of the workbench, one per view."""
