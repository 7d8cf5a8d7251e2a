"""Playing a game: adjudicate a phase, compose its reports, deadlines, rendering, what is coming.

The use cases the email commands and the processes (gm.service) call; below the commands.
"""
