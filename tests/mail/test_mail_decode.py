"""Decoding inbound mail: the hand-written hostile corpus, pathological shapes and a fuzzer.

Whatever arrives, decode_message returns a usable result and never raises.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.mail.decode import MAX_LINE, DecodedMessage, decode_message, header_text
from gm.mail.loops import AutoKind

CORPUS = Path(__file__).parent.parent / "corpus" / "mail"
OWN = "gm@example.org"


def _load_generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mail_corpus_generate", CORPUS / "generate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


generate = _load_generator()
_ADDR = re.compile(r"^[^\s@<>]+@[^\s@<>]+$")
_UNWANTED = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def assert_usable(result: DecodedMessage) -> None:
    """What every caller may rely on, whatever the input."""
    assert isinstance(result, DecodedMessage)
    for text in (result.text, result.body):
        assert isinstance(text, str)
        assert "\r" not in text
        assert not _UNWANTED.search(text), repr(text[:200])
        assert all(len(line) <= MAX_LINE for line in text.split("\n"))
    for header in (result.subject, result.sender_name):
        assert "\n" not in header and "\r" not in header
        assert not _UNWANTED.search(header)
    assert result.sender is None or _ADDR.match(result.sender)
    assert result.message_id is None or re.match(r"^<[^<>\s]+>$", result.message_id)
    assert all(re.match(r"^<[^<>\s]+>$", ref) for ref in result.references)
    assert all(isinstance(p, str) and p for p in result.problems)
    if result.too_large:
        assert result.text == ""


# name -> (text must contain, text must not contain, problem substrings, automatic kind,
#          attachment count)
EXPECTED: dict[str, tuple[list[str], list[str], list[str], AutoKind | None, int]] = {
    "plain_orders.eml": (["A Par - Bur", "F Bre - MAO", "A Mar S A Par - Bur"], [], [], None, 0),
    "html_only.eml": (["A Par - Bur", "F Bre – MAO", "Thanks & bye"],
                      ["alert", "color", "<p>", "&nbsp;"], [], None, 0),
    "alternative_html_first.eml": (["PLAIN VERSION"], ["HTML VERSION"], [], None, 0),
    "qp_latin1.eml": (["Armée de Paris tient.", "A Par H"], ["=E9"], [], None, 0),
    "base64_utf8.eml": (["Приказы: A Mos - StP", "F Sev - BLA"], [], [], None, 0),
    "wrong_charset.eml": (["Café orders: A Vie - Tyr"], [], ["read as UTF-8"], None, 0),
    "unknown_charset.eml": (["A Ber - Kie"], [], ["unknown or unusable charset"], None, 0),
    "codec_charset.eml": ([], [], ["unknown or unusable charset 'zlib_codec'"], None, 0),
    "broken_base64.eml": ([], [], ["broken base64"], None, 0),
    "multipart_no_boundary.eml": (["A Lon - Wal"], [], ["without parts"], None, 0),
    "missing_end_boundary.eml": (["A Rom - Apu"], [], [], None, 1),
    "binary_body.eml": ([], [], ["no text part"], None, 1),
    "nul_and_controls.eml": (["A Par - Bur", "F Bre - MAO"], [], [], None, 0),
    "forged_headers.eml": (["A Par - Bur"], [], [], None, 0),
    "attachment_only.eml": ([], [], ["no text part"], None, 1),
    "text_and_attachment.eml": (["A Smy - Arm"], ["F Ank - BLA"], [], None, 2),
    "outlook_reply.eml": (["A Ven - Tri"], ["A Ven H", "Original Message"], [], None, 0),
    "outlook_header_block.eml": (["F Nap - ION"], ["F Nap H", "Sent:"], [], None, 0),
    "gmail_reply_html.eml": (["A Bud - Ser"], ["A Bud H", "A Vie H", "wrote"], [], None, 0),
    "plain_reply_bottom_post.eml": (["A Mun - Sil", "F Kie - HEL"],
                                    ["A Mun H", "wrote", "Bottom Poster"], [], None, 0),
    "signoff.eml": (["A War - Gal"], ["A War - Ukr", "Sent from my phone"], [], None, 0),
    "auto_reply.eml": ([], [], [], AutoKind.AUTO_REPLY, 0),
    "exchange_oof.eml": ([], [], [], AutoKind.AUTO_REPLY, 0),
    "bounce.eml": ([], [], [], AutoKind.BOUNCE, 0),
    "list_mail.eml": ([], [], [], AutoKind.LIST, 0),
    "encrypted.eml": ([], [], ["encrypted"], None, 0),
    "signed.eml": (["A Con - Bul"], ["PGP"], [], None, 0),
    "headers_only.eml": ([], [], [], None, 0),
    "flowed.eml": (["wrapped at seventy-two columns for us.", "From the space-stuffed line."],
                   [], [], None, 0),
    "eightbit_headers.eml": (["A Par - Pic ✓"], [], [], None, 0),
    "forwarded.eml": (["see below"], ["A Par - Bur"], [], None, 1),
    "utf7.eml": (["A Par - Bur é"], [], [], None, 0),
    "unknown_cte.eml": (["N Cne - Ohe"], [], [], None, 0),
    "no_from.eml": (["A Par H"], [], ["no From header"], None, 0),
    "unreadable_from.eml": (["A Par H"], [], ["unreadable From address"], None, 0),
    "crlf_mixed.eml": (["A Par - Bur\nF Bre - MAO", "A Mar H"], [], [], None, 0),
}


def test_every_corpus_file_has_expectations() -> None:
    assert {p.name for p in generate.corpus_files()} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_corpus_message(name: str) -> None:
    result = decode_message((CORPUS / name).read_bytes(), own_addresses=OWN)
    assert_usable(result)
    contains, excludes, problems, automatic, attachments = EXPECTED[name]
    for text in contains:
        assert text in result.text, (text, result.text)
    for text in excludes:
        assert text not in result.text, (text, result.text)
    for problem in problems:
        assert any(problem in p for p in result.problems), (problem, result.problems)
    assert (result.automatic.kind if result.automatic else None) == automatic
    assert len(result.attachments) == attachments, result.attachments


def test_headers_are_decoded() -> None:
    result = decode_message((CORPUS / "qp_latin1.eml").read_bytes())
    assert result.sender == "francois@example.fr"
    assert result.sender_name == "François"
    assert result.subject == "Défense de Paris"
    assert result.message_id == "<qp-1@example.fr>"
    raw8 = decode_message((CORPUS / "eightbit_headers.eml").read_bytes())
    assert raw8.sender_name == "Zoë Ölm"
    assert raw8.subject == "Ordres pour l'été"


def test_plain_message_fields() -> None:
    result = decode_message((CORPUS / "plain_orders.eml").read_bytes())
    assert result.sender == "anna@example.org"
    assert result.sender_name == "Anna Player"
    assert result.date is not None and result.date.year == 2025
    assert result.problems == ()
    assert not result.is_automatic
    assert result.reply_address == "anna@example.org"


def test_forged_headers_are_neutralised() -> None:
    result = decode_message((CORPUS / "forged_headers.eml").read_bytes())
    assert result.sender == "attacker@evil.example"  # the real address, not the display name
    assert result.sender_name == "gm@example.org"
    assert "\n" not in result.subject and "\r" not in result.subject
    assert result.subject.startswith("hello")
    assert result.reply_to == "reply@evil.example"
    assert result.in_reply_to == "<a@b>"
    assert result.references == ("<r1@x>", "<r2@x>")


def test_attachments_are_listed_with_names() -> None:
    result = decode_message((CORPUS / "text_and_attachment.eml").read_bytes())
    names = [a.filename for a in result.attachments]
    assert names[1] == "map.png"
    assert names[0] is not None and "\n" not in names[0] and "\r" not in names[0]
    assert [a.content_type for a in result.attachments] == ["text/plain", "image/png"]


def test_signoff_and_cuts_are_reported() -> None:
    result = decode_message((CORPUS / "signoff.eml").read_bytes())
    assert result.signoff
    assert any("SIGNOFF" in cut for cut in result.cuts)
    assert "A War - Ukr" in result.body  # the uncut text is kept for the record


def test_too_large_message_reads_headers_only() -> None:
    raw = generate.huge_line(200_000)
    result = decode_message(raw, max_bytes=100_000)
    assert result.too_large
    assert result.text == ""
    assert result.sender == "huge@example.org"
    assert result.subject == "huge"
    assert any("limit is 100000 bytes" in p for p in result.problems)
    assert_usable(result)


def test_truncated_message_uses_the_full_size() -> None:
    raw = (CORPUS / "plain_orders.eml").read_bytes()
    result = decode_message(raw[:101], max_bytes=100, size=5000)
    assert result.too_large and result.size == 5000
    assert result.sender == "anna@example.org"
    assert any("5000 bytes" in p for p in result.problems)


def test_huge_line_is_cut() -> None:
    result = decode_message(generate.huge_line(3_000_000), max_bytes=5_000_000)
    assert_usable(result)
    assert any("cut to" in p for p in result.problems)
    assert result.text.endswith("A Mar H")


@pytest.mark.parametrize("depth", [5, 25, 150, 400])
def test_deep_nesting(depth: int) -> None:
    result = decode_message(generate.deeply_nested(depth))
    assert_usable(result)
    if depth <= 20:
        assert result.text == "A Par - Bur"
    else:
        assert result.problems


def test_many_parts() -> None:
    few = decode_message(generate.many_parts(600))
    assert_usable(few)
    assert any("first 500 MIME parts" in p for p in few.problems)
    many = decode_message(generate.many_parts(20_000))
    assert_usable(many)
    assert many.sender == "many@example.org"
    assert any("MIME boundaries" in p for p in many.problems)


@pytest.mark.parametrize("raw", [b"", b"\n", b"\r\n\r\n", b"\x00" * 100, b"From:", b":",
                                 b"From: <>\n\n", b"Content-Type: multipart/mixed\n\n--",
                                 b"\xff\xfe\xfd" * 1000])
def test_degenerate_inputs(raw: bytes) -> None:
    assert_usable(decode_message(raw, max_bytes=1000))


def test_random_corpus_never_raises() -> None:
    count = 0
    for raw in generate.random_messages(20250106, 2500):
        result = decode_message(raw, max_bytes=1_000_000, own_addresses=OWN)
        assert_usable(result)
        count += 1
    assert count == 2500


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=4000))
def test_random_bytes_never_raise(raw: bytes) -> None:
    assert_usable(decode_message(raw, max_bytes=3000))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300), st.text(max_size=300))
def test_random_text_in_headers_and_body(subject: str, body: str) -> None:
    raw = (f"From: a@example.org\nSubject: {subject}\n\n{body}").encode("utf-8", "surrogatepass")
    result = decode_message(raw)
    assert_usable(result)


_ATOM = st.text(alphabet="abcXYZ019!#$%&'*+/=?^_`{|}~-", min_size=1, max_size=8)
_NAME_WORD = st.text(alphabet="abcXYZ019'-", min_size=1, max_size=8)


@st.composite
def _plain_addresses(draw: st.DrawFn) -> str:
    local = ".".join(draw(st.lists(_ATOM, min_size=1, max_size=3)))
    domain = ".".join(draw(st.lists(st.text(alphabet="abz09-", min_size=1, max_size=6),
                                    min_size=1, max_size=3)))
    spec = f"{local}@{domain}"
    form = draw(st.sampled_from(["bare", "angled", "named"]))
    if form == "bare":
        return spec
    if form == "angled":
        return f"<{spec}>"
    name = " ".join(draw(st.lists(_NAME_WORD, min_size=1, max_size=3)))
    return f"{name}{draw(st.sampled_from(['', ' ']))}<{spec}>"


@settings(max_examples=400, deadline=None)
@given(_plain_addresses(), st.sampled_from(["", " ", "\t"]))
def test_plain_addresses_read_as_the_header_parser_reads_them(value: str, pad: str) -> None:
    # the shortcut for the common address forms gives what the header parser gives
    from gm.mail.decode import _PLAIN_ADDRESS_RE, _address, _parsed_address

    padded = f"{pad}{value}{pad}"
    assert _PLAIN_ADDRESS_RE.match(padded)
    assert _address(padded) == _parsed_address(padded)


@pytest.mark.parametrize("value", [
    '"Quoted, Name" <a@example.org>', "=?utf-8?q?J=C3=B6rg?= <a@example.org>",
    "a@example.org (comment)", "Name <a@example.org>, b@example.org", "group: a@b.c;",
    "Jörg <a@example.org>", "a@example.org\r\nBcc: x@y.z", "two  spaces <a@example.org>",
    "a@example.org\n", "Name\r\n <a@example.org>",
])
def test_other_address_forms_go_to_the_header_parser(value: str) -> None:
    from gm.mail.decode import _PLAIN_ADDRESS_RE, _address, _parsed_address

    assert not _PLAIN_ADDRESS_RE.match(value)
    assert _address(value) == _parsed_address(value)


@pytest.mark.parametrize(("value", "read"), [
    ("=?utf-8?q?caf=C3=A9?=", "café"),
    ("=?utf-8?q?a?= =?utf-8?q?b?=", "ab"),  # white space between encoded words is dropped
    ("=?utf-8?q?a?= x =?utf-8?q?b?=", "a x b"),
    ("=?utf-8?b?Y2Fmww==?= =?utf-8?b?qSE=?=", "café!"),  # a character split between two
    ("Re: =?x-klingon?q?hi?=", "Re: =?x-klingon?q?hi?="),  # an unknown charset: as it came
    ("=?utf-8?b?!!!?= x", "=?utf-8?b?!!!?= x"),  # broken base64
    ("=?utf-8?q?=ZZ?=", "=?utf-8?q?=ZZ?="),  # broken quoted-printable
    ("=?utf-8?q?=FF?= =?utf-8?q?ok?=", "=?utf-8?q?=FF?= ok"),  # not UTF-8: that word as it came
    ("=?utf-8?q?x=0D=0ABcc:_v@x?=", "x Bcc: v@x"),  # decoded line breaks are spaces
])
def test_encoded_words_are_decoded_or_kept_as_they_came(value: str, read: str) -> None:
    assert header_text(value) == read
