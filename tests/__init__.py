"""Shipyard test suite."""
