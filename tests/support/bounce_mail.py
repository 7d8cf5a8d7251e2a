"""Bounces as mail servers write them, for the tests: an RFC 3464 report as Postfix writes it
(failed, or delayed), and qmail's plain-text "failure notice" (no report)."""

from __future__ import annotations

from tests.support.service_support import SERVICE

_POSTFIX = """\
Return-Path: <>
Delivered-To: {to}
Received: by mx.example.org (Postfix)
\tid 3F1A2C0123; Sun,  1 Mar 2026 12:05:00 +0000 (UTC)
Date: Sun,  1 Mar 2026 12:05:00 +0000 (UTC)
From: MAILER-DAEMON@mx.example.org (Mail Delivery System)
Subject: {subject}
To: {to}
Auto-Submitted: auto-replied
MIME-Version: 1.0
Content-Type: multipart/report; report-type=delivery-status;
\tboundary="3F1A2C0123.1772366700/mx.example.org"
Content-Transfer-Encoding: 8bit
Message-Id: <20260301120500.{token}.{action}@mx.example.org>

This is a MIME-encapsulated message.

--3F1A2C0123.1772366700/mx.example.org
Content-Description: Notification
Content-Type: text/plain; charset=us-ascii

This is the mail system at host mx.example.org.

{notice}

                   The mail system

<{rcpt}>: host mail.example.net[192.0.2.7] said: {reply}
    (in reply to RCPT TO command)

--3F1A2C0123.1772366700/mx.example.org
Content-Description: Delivery report
Content-Type: message/delivery-status

Reporting-MTA: dns; mx.example.org
X-Postfix-Queue-ID: 3F1A2C0123
X-Postfix-Sender: rfc822; {to}
Arrival-Date: Sun,  1 Mar 2026 12:04:58 +0000 (UTC)

Final-Recipient: rfc822; {rcpt}
Original-Recipient: rfc822;{rcpt}
Action: {action}
Status: {status}
Remote-MTA: dns; mail.example.net
Diagnostic-Code: smtp; {reply}

--3F1A2C0123.1772366700/mx.example.org
Content-Description: Undelivered Message Headers
Content-Type: text/rfc822-headers

Return-Path: <{to}>
From: Judge <{service}>
To: {rcpt}
Subject: [gamma] a report

--3F1A2C0123.1772366700/mx.example.org--
"""

_QMAIL = """\
Return-Path: <>
Delivered-To: {to}
Date: 1 Mar 2026 12:05:00 -0000
From: MAILER-DAEMON@mx.example.net
To: {to}
Subject: failure notice

Hi. This is the qmail-send program at mx.example.net.
I'm afraid I wasn't able to deliver your message to the following addresses.
This is a permanent error; I've given up. Sorry it didn't work out.

<{rcpt}>:
Sorry, no mailbox here by that name. (#5.1.1)

--- Below this line is a copy of the message.

Return-Path: <{to}>
From: Judge <{service}>
To: {rcpt}
Subject: [gamma] a report

"""


def verp(token: str) -> str:
    """The envelope sender gm gives a message with `token`."""
    local, _, domain = SERVICE.partition("@")
    return f"{local}+b.{token}@{domain}"


def postfix_bounce(token: str, rcpt: str, *, delayed: bool = False) -> bytes:
    """Postfix's report that the message with `token` failed (or is delayed) for `rcpt`."""
    if delayed:
        values = dict(subject="Delayed Mail (still being retried)", action="delayed",
                      status="4.2.0", reply=f"450 4.2.0 <{rcpt}>: Mailbox busy, try later",
                      notice="Your message could not be delivered for 4.0 hours.\n"
                             "It will be retried until it is 5.0 days old.")
    else:
        values = dict(subject="Undelivered Mail Returned to Sender", action="failed",
                      status="5.1.1", reply=f"550 5.1.1 <{rcpt}>: Recipient address rejected:"
                                            " User unknown in virtual mailbox table",
                      notice="I'm sorry to have to inform you that your message could not\n"
                             "be delivered to one or more recipients.")
    text = _POSTFIX.format(to=verp(token), token=token, rcpt=rcpt, service=SERVICE, **values)
    return text.replace("\n", "\r\n").encode()


def qmail_bounce(token: str, rcpt: str) -> bytes:
    """qmail's failure notice (no delivery status report) for the message with `token`."""
    return _QMAIL.format(to=verp(token), rcpt=rcpt, service=SERVICE).replace(
        "\n", "\r\n").encode()
