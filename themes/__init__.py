"""Built-in themes."""
