"""The Textual workbench. Imported only when the workbench opens."""
