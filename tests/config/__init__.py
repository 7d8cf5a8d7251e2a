"""Tests of gm.config."""
