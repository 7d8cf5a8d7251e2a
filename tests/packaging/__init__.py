"""Tests of the package as built and installed."""
