"""harbor: schedules container deployments onto a small fleet of hosts."""

__version__ = "0.4.0"
