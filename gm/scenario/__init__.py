"""Scenario (adjudication test) files: `format` reads them, `runner` runs and compares them."""
