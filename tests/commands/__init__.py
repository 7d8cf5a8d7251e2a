"""Tests of gm.commands."""
