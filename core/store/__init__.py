"""The context store: SQLite + FTS5 (write_context / read_context)."""
