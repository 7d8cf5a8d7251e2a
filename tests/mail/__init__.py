"""Tests of gm.mail."""
