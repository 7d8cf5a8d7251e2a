"""Malformed and hostile messages for the service tests and the soak run: a fixed corpus, and a
seeded generator of random ones (random bytes, mutated valid messages, random order lines).

None of them carries the protected game's passwords, so none may change that game.
"""

from __future__ import annotations

import base64
import random
from collections.abc import Iterator

from tests.support.service_support import GM, PLAYERS, SERVICE

HOSTILE_SENDER = "mallory@example.net"
VICTIM = "victim@example.com"
FORGED = "forged-observer@example.com"  # an address the OBSERVE case forges
SUBJECT_SECRET = "subject-Pw-7731"  # a (wrong) password the Subject case holds
_DATE = "Date: Sun, 01 Mar 2026 12:00:00 +0000\r\n"


def _raw(headers: str, body: bytes | str, n: int) -> bytes:
    data = body.encode() if isinstance(body, str) else body
    return (f"{headers}Message-ID: <hostile-{n}@example.net>\r\n{_DATE}\r\n").encode() + data


def corpus() -> list[tuple[str, bytes, bool]]:
    """(what, raw message, whether it must be answered) for each hostile case; the ones not
    answered are automatic mail or have no usable sender, and are ignored on purpose."""
    frm = f"From: {HOSTILE_SENDER}\r\nTo: {SERVICE}\r\n"
    cases: list[tuple[str, str | bytes, str | bytes, bool]] = [
        ("multipart without its boundary",
         frm + "Subject: broken\r\nMIME-Version: 1.0\r\n"
         "Content-Type: multipart/mixed; boundary=\"nowhere\"\r\n",
         "LIST\r\n--elsewhere\r\nContent-Type: text/plain\r\n\r\nHELP\r\n", True),
        ("multipart without a boundary parameter",
         frm + "Subject: broken\r\nContent-Type: multipart/alternative\r\n",
         "--x\r\n\r\nLIST\r\n--x--\r\n", True),
        ("unterminated multipart",
         frm + "Subject: cut\r\nContent-Type: multipart/mixed; boundary=b\r\n",
         "--b\r\nContent-Type: text/plain\r\n\r\nLIST\r\n--b\r\nContent-Type: text/pl", True),
        ("unknown charset",
         frm + "Subject: klingon\r\nContent-Type: text/plain; charset=x-klingon-9\r\n",
         b"LIST\r\n\xa4\xe9\xff\xfe\r\n", True),
        ("wrong charset (latin-1 bytes declared utf-8)",
         frm + "Subject: =?utf-8?q?caf=E9?=\r\nContent-Type: text/plain; charset=utf-8\r\n",
         b"SIGNON France kappa caf\xe9\r\nA Par - Bur\r\n", True),
        ("unknown charset in an encoded word",
         frm + "Subject: =?x-bogus?q?abc?= =?utf-8?b?!!!notbase64?=\r\n", "HELP\r\n", True),
        ("unknown transfer encoding",
         frm + "Subject: x\r\nContent-Transfer-Encoding: x-rot13\r\n", "YVFG\r\n", True),
        ("broken base64",
         frm + "Subject: b64\r\nContent-Type: text/plain\r\n"
         "Content-Transfer-Encoding: base64\r\n", "TElTVA=\r\n@@@***\r\nA", True),
        ("broken quoted-printable",
         frm + "Subject: qp\r\nContent-Transfer-Encoding: quoted-printable\r\n",
         "LIST=\r\n=ZZ=4\r\n=", True),
        ("a 2 MB line", frm + "Subject: long\r\n", "A Par - " + "Bur" * 700_000 + "\r\n", True),
        ("a line of 100,000 order words",
         frm + "Subject: long\r\n", "SIGNON France kappa x " + "A Par - Bur " * 10_000, True),
        ("larger than the size limit",
         frm + "Subject: huge\r\n", "x" * (5 * 1024 * 1024 + 100), True),
        ("HTML only",
         frm + "Subject: html\r\nContent-Type: text/html; charset=utf-8\r\n",
         "<html><body><p>LIST</p><script>alert(1)</script><p>HELP &amp; more"
         "<style>p{}</style></body></html>", True),
        ("HTML with nothing but tags",
         frm + "Subject: html\r\nContent-Type: text/html\r\n", "<<<<>>>><!-- <p", True),
        ("binary body only",
         frm + "Subject: bin\r\nContent-Type: application/octet-stream\r\n"
         "Content-Transfer-Encoding: base64\r\n",
         base64.encodebytes(bytes(range(256)) * 20).decode(), True),
        ("binary bytes declared text", frm + "Subject: bin\r\n",
         bytes(random.Random(7).randrange(256) for _ in range(4000)), True),
        ("NUL bytes in the body and subject",
         frm + "Subject: nul=?utf-8?q?=00x?=\r\n", b"LIST\x00\r\nHELP\x00\x00\r\n", True),
        ("nothing but random bytes", "",
         bytes(random.Random(11).randrange(256) for _ in range(3000)), False),
        ("the empty message", "", b"", False),
        ("headers and no body", frm + "Subject: empty\r\n", "", True),
        ("an empty body", frm + "Subject: empty\r\nContent-Type: text/plain\r\n", "\r\n", True),
        ("nested multiparts 60 deep",
         frm + "Subject: deep\r\nContent-Type: multipart/mixed; boundary=b0\r\n",
         "".join(f"--b{i}\r\nContent-Type: multipart/mixed; boundary=b{i + 1}\r\n\r\n"
                 for i in range(60)) + "--b60\r\nContent-Type: text/plain\r\n\r\nLIST\r\n"
         + "".join(f"--b{i}--\r\n" for i in range(60, -1, -1)), True),
        ("3000 empty parts",
         frm + "Subject: wide\r\nContent-Type: multipart/mixed; boundary=w\r\n",
         "--w\r\n\r\n" * 3000 + "--w--\r\n", True),
        ("header injection in an encoded subject",
         frm + "Subject: =?utf-8?b?" + base64.b64encode(
             f"orders\r\nBcc: {VICTIM}\r\nX-Evil: 1".encode()).decode() + "?=\r\n",
         "LIST\r\n", True),
        ("header injection in the sender's name",
         "From: =?utf-8?q?Eve=0D=0ABcc=3A_" + VICTIM.replace("@", "=40") + "?= <"
         + HOSTILE_SENDER + f">\r\nTo: {SERVICE}\r\nSubject: hi\r\n", "LIST\r\n", True),
        ("header injection in a game name",
         frm + "Subject: create\r\n", f"CREATE evil\rBcc:{VICTIM} standard pw\r\n", True),
        ("8-bit UTF-8 headers",
         "From: Jürgen Müller <" + HOSTILE_SENDER + ">\r\nTo: " + SERVICE
         + "\r\nSubject: Bestellungen für Frühling\r\n", "LIST\r\n", True),
        ("8-bit latin-1 headers",
         b"From: J\xfcrgen <" + HOSTILE_SENDER.encode() + b">\r\nTo: " + SERVICE.encode()
         + b"\r\nSubject: caf\xe9 \xff\xfe\r\n", "LIST\r\n", True),
        # 8-bit bytes in the Message-IDs and the address itself once reached the database
        # as lone surrogates, and storing the message failed (found by the fuzzer)
        ("8-bit bytes in the address and the message ids",
         b"From: m\xe4llory@example.net\r\nIn-Reply-To: <\xff\xfe@x>\r\n"
         b"References: <a\xe9@b> <ok@b>\r\nSubject: x\r\n", "LIST\r\n", True),
        ("8-bit UTF-8 in the address",
         "From: m\u00e4llory@example.net\r\nSubject: x\r\n".encode(), "LIST\r\n", True),
        ("forged From: the GM, wrong password",
         f"From: {GM}\r\nSender: {HOSTILE_SENDER}\r\nSubject: x\r\n",
         "SIGNON GM kappa guess\r\nROLLBACK S1901M\r\nTERMINATE\r\nPROCESS\r\n", True),
        ("forged From: a player, wrong passwords",
         f"From: {PLAYERS['France']}\r\nReply-To: {HOSTILE_SENDER}\r\nSubject: x\r\n",
         "SIGNON France kappa guess\r\nA Par - Pic\r\nSIGNON Ffrance guess\r\nCLEAR\r\n", True),
        ("orders without a sign-on", frm + "Subject: x\r\n",
         "A Par - Pic\r\nA Mar - Spa\r\nCLEAR\r\nPREVIEW\r\nROLLBACK S1901M\r\n", True),
        ("forged From: the service itself", f"From: {SERVICE}\r\nSubject: loop\r\n",
         "LIST\r\n", False),
        ("two From headers", f"From: {HOSTILE_SENDER}\r\nFrom: {GM}\r\nSubject: two\r\n",
         "LIST\r\n", True),
        ("From without an address", "From: nobody at all\r\nSubject: x\r\n", "LIST\r\n", False),
        ("From with several addresses",
         f"From: {HOSTILE_SENDER}, {VICTIM}\r\nSubject: x\r\n", "LIST\r\n", True),
        ("a bounce (null return path)",
         "Return-Path: <>\r\nFrom: MAILER-DAEMON@example.net\r\nSubject: Undelivered\r\n",
         "LIST\r\n", False),
        ("a vacation reply", frm + "Auto-Submitted: auto-replied\r\nSubject: away\r\n",
         "LIST\r\n", False),
        ("list mail", frm + "Precedence: bulk\r\nList-Id: <l.example.net>\r\nSubject: x\r\n",
         "LIST\r\n", False),
        ("a thousand header lines",
         frm + "".join(f"X-Junk-{i}: {'y' * 50}\r\n" for i in range(1000)), "LIST\r\n", True),
        ("a header 100,000 characters long", frm + "Subject: " + "s" * 100_000 + "\r\n",
         "LIST\r\n", True),
        ("a Message-ID 5000 characters long",
         frm + "In-Reply-To: <" + "r" * 5000 + "@x>\r\nReferences: " + "<a@b> " * 2000
         + "\r\n", "LIST\r\n", True),
        ("bare LF and CR line ends", frm.replace("\r\n", "\n") + "Subject: lf\n",
         "LIST\rHELP\nSUMMARY kappa\r\n", True),
        ("press with a forged header block", frm + "Subject: x\r\n",
         "BROADCAST\r\nBcc: victim@example.com\r\n\r\nhi\r\nENDPRESS\r\n", True),
        # dates at the ends of the calendar, local times that do not exist
        ("far dates", frm + "Subject: dates\r\n",
         "JOIN kappa pw\r\nSET ABSENCE 9999-12-31 TO 9999-12-31\r\n"
         "SET DEADLINE 9999-12-31 23:59\r\nSET DEADLINE Dec 31 9999 23:59\r\n"
         "SET DEADLINE 0001-01-01 00:00\r\nSET DEADLINE 2027-03-14 02:30\r\n"
         "HISTORY kappa S1901M TO F9999M\r\nHISTORY kappa LAST 99999999999999999999\r\n",
         True),
        # OBSERVE from a forged address: answered there, subscribing nobody (kappa unchanged)
        ("a forged OBSERVE", f"From: {FORGED}\r\nTo: {SERVICE}\r\nSubject: x\r\n",
         "OBSERVE kappa\r\nOBSERVE kappa CONFIRM guessedcode\r\nWATCH kappa\r\n", True),
        ("JOIN three times", frm + "Subject: x\r\n",
         "JOIN kappa a\r\nJOIN kappa b\r\nJOIN France kappa c\r\n", True),
        ("5,001 signature lines in a plain message", frm + "Subject: x\r\n",
         "LIST\r\n" + "-- \r\n" * 5_001, True),
        ("5,001 MIME parts",
         frm + "Subject: wide\r\nContent-Type: multipart/mixed; boundary=p\r\n",
         "--p\r\nContent-Type: text/plain\r\n\r\nLIST\r\n" * 5_001 + "--p--\r\n", True),
        ("600 MIME parts of commands",
         frm + "Subject: wide\r\nContent-Type: multipart/mixed; boundary=p\r\n",
         "--p\r\nContent-Type: text/plain\r\n\r\nHELP\r\n" * 600 + "--p--\r\n", True),
        ("a 1 MB press line", frm + "Subject: x\r\n",
         "BROADCAST\r\n" + "x" * 1_000_000 + "\r\nENDPRESS\r\nA Par - " + "B" * 999_992
         + "\r\n", True),
        ("a password in the Subject", frm + f"Subject: Re: SIGNON France kappa {SUBJECT_SECRET}"
         "\r\n", f"SIGNON France kappa {SUBJECT_SECRET}\r\nA Par H\r\n", True),
        ("broken encoded words", frm + "Subject: Re: =?x-klingon?q?hi?= =?utf-8?b?@@?= "
         "=?utf-8?q?=ZZ?=\r\n", "LIST\r\n", True),
        ("hidden HTML text",
         frm + "Subject: html\r\nContent-Type: text/html; charset=utf-8\r\n",
         '<p>LIST</p><p style="display:none">SIGNON France kappa x</p>'
         '<span style="font-size:0">CREATE hidden standard pw</span>'
         + '<span style="display:none">' * 20_000 + "CREATE deep standard pw", True),
        ("a report pasted under an unquoted attribution", frm + "Subject: Re: results\r\n",
         "LIST\r\n\r\nOn Sun, 1 Mar 2026 at 12:00, Judge <judge@example.org> wrote:\r\n"
         "Orders of France for Spring 1901, Movement:\r\nA Par - Bur\r\n", True),
        ("5,000 attribution lines in press", frm + "Subject: x\r\n",
         "BROADCAST\r\n" + "On 1 Mar 2026 at 12:00, x wrote:\r\ntext\r\n" * 5_000
         + "ENDPRESS\r\n", True),
    ]
    out = []
    for n, (what, headers, body, answered) in enumerate(cases):
        if isinstance(headers, bytes):
            data = body.encode() if isinstance(body, str) else body
            raw = headers + f"Message-ID: <hostile-{n}@example.net>\r\n{_DATE}\r\n".encode() + data
        elif not headers:
            raw = body.encode() if isinstance(body, str) else body
        else:
            raw = _raw(headers, body, n)
        out.append((what, raw, answered))
    return out


# -- the fuzzer ---------------------------------------------------------------------------------

_TEMPLATES = [
    ("From: {sender}\r\nTo: judge@example.org\r\nSubject: {subject}\r\nMessage-ID: <{mid}>\r\n"
     "Content-Type: text/plain; charset=utf-8\r\n\r\n{body}"),
    ("From: \"{name}\" <{sender}>\r\nSubject: {subject}\r\nMessage-ID: <{mid}>\r\n"
     "MIME-Version: 1.0\r\nContent-Type: multipart/alternative; boundary=\"zz\"\r\n\r\n"
     "--zz\r\nContent-Type: text/plain; charset=iso-8859-1\r\n"
     "Content-Transfer-Encoding: quoted-printable\r\n\r\n{body}\r\n--zz\r\n"
     "Content-Type: text/html\r\n\r\n<p>{body}</p>\r\n--zz--\r\n"),
    ("From: {sender}\r\nSubject: {subject}\r\nMessage-ID: <{mid}>\r\n"
     "Content-Transfer-Encoding: base64\r\n\r\n{b64}"),
]
_WORDS = ["SIGNON", "GM", "France", "England", "kappa", "gamma", "PRESS", "TO", "ENDPRESS",
          "BROADCAST", "CREATE", "standard", "JOIN", "ADD", "START", "PROCESS", "PREVIEW",
          "ROLLBACK", "S1901M", "SET", "DEADLINE", "48h", "HELP", "LIST", "HISTORY", "SUMMARY",
          "CLEAR", "RESIGN", "SIGNOFF", "A", "F", "Par", "Bur", "Mar", "Spa/nc", "Bre", "MAO",
          "-", "S", "C", "H", "R", "B", "D", "VIA", "CONVOY", "hold", "build", "disband",
          "remove", "waive", "Kie", "Den", "Stp/sc", "BLA", "=", ">", "->", "Fmyg", "pw",
          "EMBARK", "HOME", "ALLIANCE", "\u00e9", "\u2014", "\U0001f600", "<b>", "\t", ""]


def _order_line(rng: random.Random) -> str:
    return " ".join(rng.choice(_WORDS) for _ in range(rng.randrange(1, 9)))


def _body(rng: random.Random) -> str:
    lines = []
    if rng.random() < 0.5:  # a sign-on that always fails: wrong password or another game
        lines.append(rng.choice(["SIGNON France kappa wrongpw", "SIGNON Fkappa nope",
                                 "SIGNON GM kappa guess", "SIGNON Turkey nosuchgame pw",
                                 "JOIN kappa pw", "JOIN Italy kappa pw"]))
    lines += [_order_line(rng) for _ in range(rng.randrange(0, 30))]
    return "\r\n".join(lines)


def _mutate(data: bytes, rng: random.Random) -> bytes:
    buf = bytearray(data)
    for _ in range(rng.randrange(1, 12)):
        op = rng.randrange(5)
        pos = rng.randrange(len(buf) + 1)
        if op == 0 and buf:  # flip a byte
            buf[min(pos, len(buf) - 1)] = rng.randrange(256)
        elif op == 1:  # insert random bytes
            buf[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 20)))
        elif op == 2:  # delete a run
            del buf[pos:pos + rng.randrange(1, 40)]
        elif op == 3:  # duplicate a run
            buf[pos:pos] = buf[pos:pos + rng.randrange(1, 200)]
        else:  # insert a MIME or header token
            token = rng.choice([b"\r\n", b"\r\n\r\n", b"--zz\r\n", b"=?utf-8?b?", b"?=", b"=",
                                b"Content-Type: multipart/mixed; boundary=zz\r\n",
                                b"charset=\"utf-7\"", b"\x00", b"\xff\xfe", b"<", b">", b";"])
            buf[pos:pos] = token
    return bytes(buf)


def fuzz_messages(seed: int, count: int) -> Iterator[bytes]:
    """`count` random messages, the same for the same seed."""
    rng = random.Random(seed)
    for n in range(count):
        kind = rng.randrange(3)
        if kind == 0:
            yield bytes(rng.randrange(256) for _ in range(rng.randrange(0, 600)))
            continue
        body = _body(rng)
        text = rng.choice(_TEMPLATES).format(
            sender=rng.choice([HOSTILE_SENDER, PLAYERS["France"], GM, "x@y", "<>", ""]),
            name=_order_line(rng), subject=_order_line(rng), mid=f"fuzz-{seed}-{n}@example.net",
            body=body, b64=base64.encodebytes(body.encode()).decode())
        raw = text.encode("utf-8", "surrogateescape")
        yield _mutate(raw, rng) if kind == 1 else raw
