"""Mail transport: reading the inbox (IMAP or a local Maildir), sending (SMTP or a local Maildir),
decoding inbound messages to text, recognising robots, and composing replies."""
