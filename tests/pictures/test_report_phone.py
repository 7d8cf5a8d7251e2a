"""The HTML report on a phone: the phase report the tick makes, composed as the sender sends it
(tests/pictures/test_report_chromium.py), is opened in headless Chromium in a frame 390 CSS
pixels wide, as a phone shows it (a headless window is at least 500 wide). The pictures it
shows by Content-ID are given to the page as files, as a mail client hands them over; a script
in the page measures it once loaded and tells the page around the frame. Nothing
reaches past the right edge of the screen (the page cannot be dragged sideways) except the
tables inside their scrolling wrappers, and each map picture is scaled down to the screen's
width."""

from __future__ import annotations

import json
import re
from email import message_from_bytes
from email.message import Message
from pathlib import Path

from tests.pictures.test_report_chromium import _chromium, _related_part

PHONE = (390, 844)  # CSS pixels: a phone's screen
MEASURE = """<script>
addEventListener("load", () => {
  const width = document.documentElement.clientWidth;
  const scrolls = (el) => {  // inside a wrapper that scrolls sideways
    for (let up = el.parentElement; up; up = up.parentElement) {
      const x = getComputedStyle(up).overflowX;
      if (x === "auto" || x === "scroll") return true;
    }
    return false;
  };
  const outside = [];
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if ((box.right > width + 0.5 || box.left < -0.5) && !scrolls(el)) {
      outside.push(`${el.tagName} ${Math.round(box.left)}..${Math.round(box.right)}: `
                   + (el.textContent || el.getAttribute("src") || "").trim().slice(0, 50));
    }
  }
  const wrapped = [...document.querySelectorAll("table")].map((t) => ({
    wide: t.getBoundingClientRect().width, wrapper: t.parentElement.clientWidth,
    scrolls: scrolls(t)}));
  const images = [...document.images].map((img) => ({
    src: img.getAttribute("src"), loaded: img.complete && img.naturalWidth > 0,
    natural: img.naturalWidth, width: img.getBoundingClientRect().width,
    right: img.getBoundingClientRect().right,
    room: img.parentElement.getBoundingClientRect().right}));
  parent.postMessage(JSON.stringify({
    width, page: document.documentElement.scrollWidth, outside, wrapped, images}), "*");
});
</script>"""
PHONE_PAGE = f"""<!DOCTYPE html><html><body style="margin:0">
<iframe src="report.html" style="width:{PHONE[0]}px;height:{PHONE[1]}px;border:0"></iframe>
<script>
addEventListener("message", (e) => document.body.setAttribute("data-measured", e.data));
</script></body></html>"""


def _as_files(related: bytes, folder: Path) -> Path:
    """The HTML part written to `folder` with each `cid:` picture as a file beside it, and the
    page that shows it in a phone-wide frame."""
    message = message_from_bytes(related)
    html = ""
    files: dict[str, str] = {}
    for part in message.walk():
        if part.is_multipart():
            continue
        assert isinstance(part, Message)
        payload = part.get_payload(decode=True)
        assert isinstance(payload, bytes)
        if part.get_content_type() == "text/html":
            html = payload.decode(part.get_content_charset() or "utf-8")
        else:
            cid = (part.get("Content-ID") or "").strip("<>")
            name = f"picture-{len(files)}.png"
            (folder / name).write_bytes(payload)
            files[cid] = name
    assert html and files, "the related part holds the HTML and its pictures"
    html = re.sub(r'src="cid:([^"]+)"', lambda m: f'src="{files[m.group(1)]}"', html)
    assert "cid:" not in html
    (folder / "report.html").write_text(html.replace("</body>", MEASURE + "</body>"),
                                        encoding="utf-8")
    phone = folder / "phone.html"
    phone.write_text(PHONE_PAGE, encoding="utf-8")
    return phone


def test_the_report_fits_a_phone_screen(tmp_path: Path) -> None:
    page = _as_files(_related_part(tmp_path), tmp_path)
    dom = _chromium(tmp_path, "--window-size=800,900", "--hide-scrollbars",
                    "--virtual-time-budget=5000", "--dump-dom", page.as_uri()).stdout.decode()
    found = re.search(r'data-measured="([^"]*)"', dom)
    assert found, "the page was measured once loaded"
    seen = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&")
                      .replace("&lt;", "<").replace("&gt;", ">"))
    width = seen["width"]
    assert width == PHONE[0]  # the frame's: a phone's scroll bars take no room
    assert seen["outside"] == [], "reaches past the screen's edge outside a scrolling table"
    assert seen["page"] <= width, "the page scrolls sideways"
    # the orders and the centres: a table wider than the screen would scroll in its wrapper
    assert len(seen["wrapped"]) == 2 and all(t["scrolls"] for t in seen["wrapped"])
    assert len(seen["images"]) == 2
    for image in seen["images"]:
        assert image["loaded"], image["src"]
        assert image["natural"] > width  # drawn larger than the screen ...
        assert 0.8 * width <= image["width"] <= width  # ... and scaled down to fit it
        assert image["right"] <= image["room"]  # its frame included, within its paragraph
