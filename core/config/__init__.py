"""Configuration: discovery, typed model, tolerant loading."""
