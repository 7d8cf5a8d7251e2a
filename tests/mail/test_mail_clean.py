"""Cutting quoted replies, signatures, and everything after SIGNOFF."""

from __future__ import annotations

from gm.mail.clean import clean_body, unquoted
from gm.mail.htmltext import html_to_text


def test_signoff_ends_the_text_in_any_case() -> None:
    result = clean_body("A Par - Bur\n  SignOff \nA Par - Pic\n")
    assert result.text == "A Par - Bur"
    assert result.signoff
    assert result.cuts == ("ignored everything after SIGNOFF (line 2)",)


def test_signoff_inside_a_line_is_text() -> None:
    result = clean_body("press: I will SIGNOFF soon\nA Par H")
    assert result.text == "press: I will SIGNOFF soon\nA Par H"
    assert not result.signoff


def test_signature_separator() -> None:
    assert clean_body("A Par H\n-- \nJohn\nA Mar H").text == "A Par H"
    assert clean_body("A Par H\n--\nJohn").text == "A Par H"
    assert clean_body("A Par -- Bur\n").text == "A Par -- Bur"  # not alone on its line


def test_signatures_without_a_separator() -> None:
    assert clean_body("A Par H\nSent from my iPhone\n\n> old").text == "A Par H"
    assert clean_body("A Par H\nGet Outlook for Android").text == "A Par H"
    result = clean_body("A Par H\n\nBest regards,\nJean Dupont\n+33 6 12 34 56 78\n")
    assert result.text == "A Par H"
    assert result.cuts == ("cut the signature ('Best regards,' and after)",)
    # without contact details a name stays (it may be a mistyped order, answered as such)
    assert clean_body("A Par H\nJean Dupont").text == "A Par H\nJean Dupont"
    # commands and orders naming addresses are not contact details
    for text in ("SIGNON GM g pw\nReplace France bob@example.org",
                 "SIGNON GM g pw\nADD OBSERVER late@example.com",
                 "SIGNON GM g pw\nSET OBSERVERS a@example.org, b@example.net"):
        assert clean_body(text).text == text


def test_quoted_lines_are_dropped() -> None:
    result = clean_body("> A Par H\nA Par - Bur\n >> old\n")
    assert result.text == "A Par - Bur"
    assert "dropped 2 quoted lines" in result.cuts


def test_attribution_before_quotes_is_dropped_and_text_after_kept() -> None:
    text = "On Mon, 6 Jan 2025, gm <gm@example.org> wrote:\n> A Par H\n\nA Par - Bur"
    assert clean_body(text).text == "A Par - Bur"
    split = "On Mon, 6 Jan 2025 at 10:00, Game Master <gm@example.org>\nwrote:\n\n> x\nA Mar H"
    assert clean_body(split).text == "A Mar H"
    german = "Am 06.01.2025 um 10:00 schrieb gm <gm@example.org>:\n> x\nA Kie H"
    assert clean_body(german).text == "A Kie H"
    french = "Le lun. 6 janv. 2025 à 10:00, gm <gm@example.org> a écrit :\n> x\nF Bre H"
    assert clean_body(french).text == "F Bre H"


def test_attribution_like_press_without_quotes_is_kept() -> None:
    text = "On Monday Germany wrote:\nwe attack Russia together."
    assert clean_body(text).text == text


def test_a_report_pasted_under_an_unquoted_attribution_is_cut() -> None:
    text = ("A Par - Bur\n\nOn Sun, 1 Mar 2026 at 12:00, Judge <judge@example.org> wrote:\n"
            "Orders of France for Spring 1901, Movement:\nA Par - Bur\nA Mar - Spa")
    cleaned = clean_body(text)
    assert cleaned.text == "A Par - Bur"
    assert "cut the original message pasted without quote marks from line 3" in cleaned.cuts
    split = "F Bre H\nOn Sun, 1 Mar 2026 at 12:00, Judge\n<judge@example.org> wrote:\nA Par H"
    assert clean_body(split).text == "F Bre H"
    # in press, or naming no time and no address, it is the player's text
    press = "PRESS TO England\nOn 1 Mar at 12:00 Germany wrote:\nattack\nENDPRESS"
    assert clean_body(press).text == press


def test_outlook_original_message_cuts_the_rest() -> None:
    text = "F Lon - NTH\n\n-----Original Message-----\nFrom: gm\nF Lon H"
    assert clean_body(text).text == "F Lon - NTH"
    header_block = ("A Par H\n\nFrom: gm <gm@example.org>\nSent: Monday\nTo: x\n"
                    "Subject: orders\n\nold")
    assert clean_body(header_block).text == "A Par H"
    underscores = "A Par H\n________________________________\nFrom: gm\nold"
    assert clean_body(underscores).text == "A Par H"


def test_blank_lines_are_squeezed_and_trimmed() -> None:
    assert clean_body("\n\n\nA Par H\n\n\n\nA Mar H\n\n").text == "A Par H\n\nA Mar H"


def test_html_blockquotes_become_quotes() -> None:
    html = ("<div>A Par - Bur</div><div>On Mon, gm wrote:</div>"
            "<blockquote><p>A Par H</p><blockquote>deeper</blockquote></blockquote><p>after</p>")
    text = html_to_text(html)
    assert text.split("\n") == ["A Par - Bur", "On Mon, gm wrote:", "> A Par H", "> > deeper",
                                "after"]
    assert clean_body(text).text == "A Par - Bur\nafter"


def test_html_lists_tables_pre_and_entities() -> None:
    html = ("<ul><li>A Par - Bur</li><li>F Bre &rarr; MAO</li></ul>"
            "<table><tr><td>A</td><td>Mar</td></tr></table><pre>  x\n  y</pre>"
            "<script>var a = '<p>';</script><p>a&amp;b&#33;</p>")
    text = html_to_text(html)
    assert "- A Par - Bur" in text
    assert "- F Bre → MAO" in text
    assert "A Mar" in text
    assert "  x\n  y" in text
    assert "var a" not in text
    assert "a&b!" in text


def test_broken_html_never_raises() -> None:
    for html in ["<", "<![", "<!--", "<p<p<p>>>", "</blockquote>" * 5 + "x", "<" * 10000,
                 "<![CDATA[x", "<!DOCTYPE", "&#99999999999;", "<a href='"]:
        assert isinstance(html_to_text(html), str)


def test_unquoted_keeps_the_signature_and_drops_what_is_quoted() -> None:
    reply = "Signed on as France.\n\n-- \nJudge: send HELP for help."
    outlook = ("A Par H\n\n-----Original Message-----\nFrom: Judge\nSent: today\n"
               f"Subject: Re\n\n{reply}")
    assert unquoted(outlook) == "A Par H\n"
    web = f"A Par H\n________________________________\nFrom: Judge\nSent: today\n\n{reply}"
    assert unquoted(web) == "A Par H"
    gmail = "A Par H\n-- \nJean\n\nOn Sun, Judge wrote:\n> Signed on.\n> -- \n"
    assert unquoted(gmail) == "A Par H\n-- \nJean\n\nOn Sun, Judge wrote:\n"
    # a robot's echo, not quoted: all of it stays
    assert unquoted(f"I am away.\n{reply}") == f"I am away.\n{reply}"


def test_sign_offs_in_several_languages_end_the_orders() -> None:
    for closing in ("Cordialement,\nJean", "Bien cordialement,\n\nJean-Paul", "Saludos,\nJuan",
                    "Gruss\nHans", "Gruß,\nHans", "Mit freundlichen Gruessen\nHans Müller",
                    "Mit freundlichen Grüßen,\nHans", "Cordiali saluti\nMarco",
                    "Best regards,\nJohn\nSmith", "Cheers,\nBob", "Cheers Bob", "Regards",
                    "Thanks!", "Thanks, Jean", "Kind regards", "Groeten,\nPiet", "Jean"):
        result = clean_body(f"SIGNON France g pw\nA Par H\n\n{closing}\n")
        assert result.text == "SIGNON France g pw\nA Par H", closing
        assert result.cuts and result.cuts[0].startswith("cut the signature"), closing


def test_an_order_or_command_is_never_taken_for_a_name() -> None:
    for last in ("A Par H", "Hold", "END", "Paris Holds", "Waive", "Build", "PROCESS",
                 "Best regards,\nHold", "Thanks\nA Par H", "Regards\nA", "Jean Dupont"):
        text = f"SIGNON France g pw\nA Mar H\n{last}"
        assert clean_body(text).text == text, last


def test_press_not_ended_keeps_its_last_words_and_closing() -> None:
    """Press with no ENDPRESS runs to the end of the mail: a one-word last line or a sign-off
    there is the player's press, never cut as a signature."""
    from gm.mail.clean import clean_body

    for body in ("BROADCAST\nGreetings.\n", "PRESS TO France\nAgreed.\nCheers,\nJean\n",
                 "grey press to England, Italy\nHello\n"):
        assert clean_body(body).text.strip() == body.strip(), body
    # once the press is ended, a closing after the orders is cut as before
    ended = "BROADCAST\nHi all.\nENDPRESS\nA Par - Bur\nCordialement,\nJean\n"
    assert "Cordialement" not in clean_body(ended).text and "A Par - Bur" in clean_body(
        ended).text
