"""Random and pathological mail messages for the decoder's robustness tests.

`random_messages(seed, count)` yields a reproducible mix of: structured random messages (random
MIME trees, charsets real and bogus, transfer encodings with valid and broken payloads, encoded
words, 8-bit and control characters in headers), mutations of the hand-written corpus files
(truncated, bytes flipped, parts repeated), and plain random bytes.

Run as a script to write some to a directory for a look: python generate.py OUTDIR [COUNT]
"""

from __future__ import annotations

import base64
import quopri
import random
import sys
from collections.abc import Iterator
from pathlib import Path

CORPUS = Path(__file__).parent

CHARSETS = ["utf-8", "us-ascii", "iso-8859-1", "windows-1252", "koi8-r", "shift_jis", "utf-16",
            "utf-7", "gb2312", "x-unknown", "zlib_codec", "base64", "rot13", "idna", "", "\"\"",
            "utf-8\x00", "latin-1; foo=bar", "a" * 300, "punycode", "hex_codec"]
TYPES = ["text/plain", "text/html", "text/enriched", "application/octet-stream", "image/png",
         "message/rfc822", "text/calendar", "application/pdf", "multipart/alternative",
         "multipart/mixed", "multipart/related", "multipart/signed", "multipart/encrypted",
         "multipart/report", "multipart/x-unknown", "text/plain; format=flowed", "garbage",
         "", "/", "text/"]
ENCODINGS = ["7bit", "8bit", "binary", "base64", "quoted-printable", "x-uuencode", "bogus", ""]
WORDS = ["A Par - Bur", "F Bre - MAO", "SIGNOFF", "-- ", "> quoted", "On Mon, X wrote:",
         "-----Original Message-----", "<p>", "</div>", "<blockquote>", "&amp;", "&#0;",
         "&#x110000;", "<script>", "\u202e", "\x00", "\r", "\x1b[2J", "é", "日本", "🎲",
         "=?utf-8?q?=0D=0A?=", "\udcff"]
HEADER_NAMES = ["From", "To", "Subject", "Message-ID", "In-Reply-To", "References", "Date",
                "Reply-To", "Return-Path", "Auto-Submitted", "Precedence", "List-Id", "Sender",
                "Content-Type", "Content-Transfer-Encoding", "X-Autoreply", "MIME-Version"]


def _text(rng: random.Random, words: int) -> str:
    out = []
    for _ in range(words):
        roll = rng.random()
        if roll < 0.5:
            out.append(rng.choice(WORDS))
        elif roll < 0.8:
            out.append("".join(chr(rng.randrange(32, 127)) for _ in range(rng.randrange(1, 12))))
        else:
            out.append("".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(1, 6))))
        out.append(rng.choice([" ", "\n", "\r\n", "\t", ""]))
    return "".join(out)


def _encode_text(rng: random.Random, text: str, charset: str) -> bytes:
    try:
        return text.encode(charset.strip('"'), errors="replace")
    except Exception:
        return text.encode("utf-8", errors="surrogateescape")


def _header_value(rng: random.Random) -> bytes:
    roll = rng.random()
    if roll < 0.3:
        return _text(rng, rng.randrange(1, 6)).encode("utf-8", "surrogateescape")
    if roll < 0.5:
        charset = rng.choice(CHARSETS)
        payload = base64.b64encode(rng.randbytes(rng.randrange(0, 30))).decode()
        return f"=?{charset}?{rng.choice('bBqQx')}?{payload}?=".encode("utf-8", "replace")
    if roll < 0.65:
        return rng.randbytes(rng.randrange(0, 80)).replace(b"\n", b" ")
    if roll < 0.8:
        name = _text(rng, 2).replace("\n", " ")
        return f'"{name}" <{rng.choice(["a@b.c", "bad", "<>", "x@[1.2.3.4]", "@@", ""])}>'.encode(
            "utf-8", "surrogateescape")
    if roll < 0.9:
        return b"<" + rng.randbytes(rng.randrange(0, 20)).replace(b"\n", b"") + b">"
    return b"x" * rng.randrange(1000, 20000)  # a huge header line


def _body(rng: random.Random, encoding: str, data: bytes) -> bytes:
    if encoding == "base64":
        encoded = base64.encodebytes(data)
        if rng.random() < 0.3:  # break it
            encoded = encoded[: rng.randrange(0, len(encoded) + 1)] + b"!*%"
        return encoded
    if encoding == "quoted-printable":
        encoded = quopri.encodestring(data)
        if rng.random() < 0.3:
            encoded += b"=ZZ=\n="
        return encoded
    return data


def _part(rng: random.Random, depth: int) -> bytes:
    ctype = rng.choice(TYPES)
    headers = [b"Content-Type: " + ctype.encode()]
    if ctype.startswith("multipart/") and depth < 6:
        boundary = f"b{rng.randrange(10**6)}"
        if rng.random() < 0.8:
            headers[0] += f'; boundary="{boundary}"'.encode()
        children = [_part(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
        body = b"".join(b"--" + boundary.encode() + b"\n" + c + b"\n" for c in children)
        if rng.random() < 0.7:
            body += b"--" + boundary.encode() + b"--\n"
        return b"\n".join(headers) + b"\n\n" + body
    charset = rng.choice(CHARSETS)
    if rng.random() < 0.7:
        headers[0] += f"; charset={charset}".encode("utf-8", "surrogateescape")
    encoding = rng.choice(ENCODINGS)
    if encoding:
        headers.append(b"Content-Transfer-Encoding: " + encoding.encode())
    if rng.random() < 0.2:
        headers.append(rng.choice([b"Content-Disposition: attachment; filename=\"x.bin\"",
                                   b"Content-Disposition: inline",
                                   b"Content-Disposition: attachment; filename*=utf-8''%FF%0A"]))
    if rng.random() < 0.2:
        data = rng.randbytes(rng.randrange(0, 400))
    else:
        data = _encode_text(rng, _text(rng, rng.randrange(0, 40)), charset or "utf-8")
    return b"\n".join(headers) + b"\n\n" + _body(rng, encoding, data)


def structured_message(rng: random.Random) -> bytes:
    lines = []
    for _ in range(rng.randrange(0, 12)):
        name = rng.choice(HEADER_NAMES).encode()
        lines.append(name + b": " + _header_value(rng))
        if rng.random() < 0.1:
            lines.append(b" folded continuation " + rng.randbytes(5).replace(b"\n", b""))
    body_part = _part(rng, 0)
    separator = rng.choice([b"\n", b"\r\n"])
    message = separator.join(lines) + separator + body_part
    return message if rng.random() > 0.05 else message.replace(b"\n", b"\r")


def mutated_corpus_message(rng: random.Random, originals: list[bytes]) -> bytes:
    data = bytearray(rng.choice(originals))
    for _ in range(rng.randrange(1, 6)):
        roll = rng.random()
        if not data:
            break
        position = rng.randrange(len(data))
        if roll < 0.3:
            data[position] = rng.randrange(256)
        elif roll < 0.5:
            del data[position:]
        elif roll < 0.7:
            chunk = data[position: position + rng.randrange(1, 200)]
            data[position:position] = chunk * rng.randrange(1, 20)
        elif roll < 0.85:
            data[position:position] = rng.choice([b"\n\n", b"\r", b"--", b"=?", b"\x00", b"<"])
        else:
            data[position:position] = rng.randbytes(rng.randrange(1, 50))
    return bytes(data)


def deeply_nested(depth: int) -> bytes:
    """A multipart nested `depth` levels deep with the text at the bottom."""
    head = b"From: deep@example.org\nSubject: deep\nMessage-ID: <deep@example.org>\n"
    parts = b"".join(
        b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (i, i) for i in range(depth))
    return head + parts + b"Content-Type: text/plain\n\nA Par - Bur\n"


def huge_line(length: int) -> bytes:
    return (b"From: huge@example.org\nSubject: huge\nMessage-ID: <huge@example.org>\n\n"
            + b"A Par - Bur " * (length // 12) + b"\nA Mar H\n")


def many_parts(count: int) -> bytes:
    head = (b"From: many@example.org\nSubject: many\nMessage-ID: <many@example.org>\n"
            b"Content-Type: multipart/mixed; boundary=M\n\n")
    part = b"--M\nContent-Type: text/plain\n\nA Par H\n"
    return head + part * count + b"--M--\n"


def corpus_files() -> list[Path]:
    return sorted(CORPUS.glob("*.eml"))


def random_messages(seed: int, count: int) -> Iterator[bytes]:
    rng = random.Random(seed)
    originals = [p.read_bytes() for p in corpus_files()]
    for _ in range(count):
        roll = rng.random()
        if roll < 0.55:
            yield structured_message(rng)
        elif roll < 0.9:
            yield mutated_corpus_message(rng, originals)
        else:
            yield rng.randbytes(rng.randrange(0, 3000))


if __name__ == "__main__":
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    total = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    for number, message in enumerate(random_messages(1, total)):
        (out / f"random-{number:05d}.eml").write_bytes(message)
