"""Tests of gm.pictures."""
