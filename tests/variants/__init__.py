"""Tests of gm.variants."""
