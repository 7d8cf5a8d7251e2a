"""Tests of gm.scenario."""
