"""The mail service's processes, above the commands: ingest inbound mail and run its commands,
serve (poll, ingest, tick, send), tick, queue and send the replies; what they do to a game is
in gm.play."""
