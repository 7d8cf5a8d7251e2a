"""Tests of gm.export."""
