"""Backends: the numpy reference ("CPU") and, later, GPU code generators over the drivers."""
