"""The pure rules engine: no I/O, no clock, no database, no asyncio."""
