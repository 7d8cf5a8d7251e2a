"""Tests of gm.play."""
