"""HTML bodies to text: what the reader does not see is not read."""

from __future__ import annotations

from gm.mail.htmltext import hiding_selectors, html_to_text


def test_hidden_text_is_not_read() -> None:
    html = ('<div>SIGNON France kappa pw<br>'
            '<span style="display: none">A Par - Bur</span>'
            '<p style="font-size:0px">A Mar - Spa</p>'
            '<p style="FONT-SIZE: 0.0pt !important">A Mar - Gas</p>'
            '<div hidden>A Par - Pic<div>A Par - Gas</div></div>'
            '<p style="visibility:hidden">F Bre - ENG</p>'
            '<p style="mso-hide:all">F Bre - PIC</p>'
            '<p style="color:red;opacity:0">F Bre - GAS</p>'
            '<p>F Bre - MAO</p>'
            '<p style="font-size:10px">A Par H</p>'
            '<span style="opacity:0.5">A Mar H</span></div>')
    assert html_to_text(html).split("\n") == [
        "SIGNON France kappa pw", "F Bre - MAO", "A Par H", "A Mar H"]


def test_an_unclosed_hidden_element_hides_until_its_parent_closes() -> None:
    html = '<div><span style="display:none">A Par - Bur</div><p>A Par H</p>'
    assert html_to_text(html) == "A Par H"
    deep = "<b>" * 5000 + "A Par H" + "</i>" * 5000  # many open elements, no hidden text
    assert html_to_text(deep) == "A Par H"


def test_text_a_style_rule_hides_is_not_read() -> None:
    html = ("<html><head><style>/* hidden */ .x, p#y { display: none !important }"
            " span { visibility : hidden } .shown { color: red } div > .deep { display:none }"
            "</style></head><body><p>A Par-Bur</p><p class='a x'>A Mar-Spa</p>"
            "<p id='y'>F Bre H</p><p class='shown'>F Bre-MAO</p><span>A Mar H</span>"
            "<div><p class='deep'>A Vie H</p></div></body></html>")
    assert html_to_text(html) == "A Par-Bur\nF Bre-MAO\nA Vie H"
    assert hiding_selectors(".a{display:none} .b {opacity:0} .c{color:blue}") == {".a", ".b"}
