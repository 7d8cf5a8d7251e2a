"""Tests of gm.service."""
