"""Tests of gm.notation."""
