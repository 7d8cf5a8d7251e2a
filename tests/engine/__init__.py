"""Tests of gm.engine."""
