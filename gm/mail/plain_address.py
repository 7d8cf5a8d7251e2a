"""The plain address: an addr-spec of dot-atoms on both sides of its @ (RFC 5322 3.4.1), as gm's
own and most players' are. Such an address is written as it is (in a header, or between the
angle brackets of MAIL FROM and RCPT TO); any other goes through the email package, which
reads it to the same result for a plain one."""

from __future__ import annotations

import re

_ATEXT = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
PLAIN_ADDR_SPEC = re.compile(rf"^{_ATEXT}(?:\.{_ATEXT})*@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+\Z")
