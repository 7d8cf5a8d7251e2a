"""The mail service: ingest inbound mail, run its commands, queue and send the replies."""
