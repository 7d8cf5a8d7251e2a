"""The heading of a press message, read as njudge reads it (njudge `data/press`, ml_press.c):
PRESS or BROADCAST, then options in any order:

    TO <list> | +<list>               to those only (partial press)
    TO ALL BUT <list> | -<list>       to all but those (gm also reads BUT <list>)
    TO ALL                            to everyone (BROADCAST alone is the same)
    WHITE | UNANONYMOUS(LY)           signed press
    GREY | GRAY | ANONYMOUS(LY)       grey press (gm also reads GREY before PRESS)
    FAKE [BROADCAST]                  shown to its recipients as sent to everyone
    FAKE [PARTIAL] TO [ALL BUT] <list> | FAKE +<list> | FAKE -<list>
                                      shown as sent to those (or to all but those)
    NO FAKE [BROADCAST] | NOFAKE      not faked

A list is power letters run together (`FRG`; M the GM, O the observers) or names separated by
commas or spaces. PRESS with no option sends nothing, as on njudge (so that nothing goes to
everyone by mistake); PRESS with options but no list is a broadcast. FAKE fakes only whom the
press is shown as sent to: it never changes its sender."""

from __future__ import annotations

from dataclasses import dataclass

from gm.commands.reading import Invalid, quote


@dataclass(frozen=True)
class Fake:
    """A FAKE option: the press is shown as sent to `shown_to` (empty: to everyone, FAKE
    BROADCAST), or with `but` as sent to all but them."""

    shown_to: tuple[str, ...] = ()
    but: bool = False


@dataclass(frozen=True)
class Heading:
    """What a press heading asks for: to `recipients` (names or letter runs as written; with
    `but` the ones left out), or to everyone (`broadcast`); grey, white or (neither) the game's
    default; faked or not."""

    recipients: tuple[str, ...] = ()
    broadcast: bool = False
    but: bool = False
    grey: bool = False
    white: bool = False
    fake: Fake | None = None


_GREY = frozenset({"GREY", "GRAY", "ANONYMOUS", "ANONYMOUSLY"})
_WHITE = frozenset({"WHITE", "UNANONYMOUS", "UNANONYMOUSLY"})
# words that end a list of recipients
_STOPS = _GREY | _WHITE | frozenset({"FAKE", "NOFAKE", "NO", "TO", "BUT", "+", "-"})

FORMS = ("PRESS TO <powers> (names, or letters run together: PRESS TO FRG; M the GM, O the"
         " observers), PRESS +<letters>, PRESS TO ALL BUT <powers>, PRESS -<letters>,"
         " BROADCAST or PRESS TO ALL, each with GREY or WHITE, and FAKE BROADCAST or"
         " FAKE TO <powers> where the game allows fake press (HELP PRESS)")


def _tokens(text: str) -> list[str]:
    """The words of a heading, a comma, a leading `+` or `-` each a word of its own."""
    out: list[str] = []
    for word in text.replace(",", " , ").split():
        if word[0] in "+-" and len(word) > 1:
            out += [word[0], word[1:]]
        else:
            out.append(word)
    return out


class _Reader:
    def __init__(self, text: str) -> None:
        self.words = _tokens(text)
        self.at = 0

    def peek(self, ahead: int = 0) -> str:
        i = self.at + ahead
        return self.words[i].upper() if i < len(self.words) else ""

    def take(self) -> str:
        word = self.words[self.at]
        self.at += 1
        return word

    def names(self, after: str) -> tuple[str, ...]:
        """A list of recipients: names between commas (a name may have two words: St
        Petersburg), or without commas each word a name; "and" joins the last."""
        words: list[str] = []
        while self.peek() and (self.peek() not in _STOPS or self.peek() == ","):
            words.append(self.take())
        names: list[str] = []
        current: list[str] = []
        commas = "," in words
        for word in words:
            if word == "," or word.upper() == "AND":
                if current:
                    names.append(" ".join(current))
                current = []
            elif commas:
                current.append(word)
            else:
                names.append(word)
        if current:
            names.append(" ".join(current))
        if not names:
            raise Invalid(f"{after} needs the powers: letters run together (FRG) or names"
                          " separated by commas")
        return tuple(names)


def read_heading(text: str) -> Heading:
    """The heading `text` (its first words PRESS or BROADCAST, or GREY/WHITE before them), or
    Invalid saying why it cannot be read."""
    r = _Reader(text)
    grey = white = False
    if r.peek() in _GREY | _WHITE and r.peek(1) in ("PRESS", "BROADCAST"):
        grey, white = r.peek() in _GREY, r.peek() in _WHITE
        r.take()
    keyword = r.peek()
    if keyword not in ("PRESS", "BROADCAST"):
        raise Invalid(f"{r.words[0].upper()} goes before PRESS or BROADCAST: GREY PRESS TO"
                      " France or GREY BROADCAST")
    r.take()
    if keyword == "PRESS" and not r.peek():
        raise Invalid("PRESS alone sends nothing (so that nothing goes to everyone by"
                      " mistake): write PRESS TO <powers>, or BROADCAST for everyone")
    recipients: tuple[str, ...] = ()
    to = but = everyone = False
    fake: Fake | None = None
    nofake = False
    while r.peek():
        word = r.peek()
        original = r.take()
        if word in _GREY | _WHITE:
            if grey or white:
                raise Invalid("a press heading takes one of GREY and WHITE, once")
            grey, white = word in _GREY, word in _WHITE
        elif word in ("TO", "+", "-", "BUT"):
            if to or but or everyone:
                raise Invalid("a press heading takes one list of recipients (TO, +, - or"
                              " TO ALL BUT)")
            if word == "TO" and r.peek() == "ALL" and r.peek(1) == "BUT":
                r.take(), r.take()
                word = "BUT"
            elif word == "TO" and r.peek() == "ALL":
                r.take()
                everyone = True
                continue
            but, to = word in ("-", "BUT"), word in ("TO", "+")
            recipients = r.names(original.upper() if word != "BUT" else "TO ALL BUT")
        elif word in ("FAKE", "NOFAKE", "NO"):
            if fake is not None or nofake:
                raise Invalid("a press heading takes one FAKE option")
            if word == "NO" and r.peek() != "FAKE":
                raise Invalid(f"{quote(original)} is not a press option; NO goes before FAKE")
            if word != "FAKE":
                if word == "NO":
                    r.take()
                if r.peek() == "BROADCAST":
                    r.take()
                nofake = True
                continue
            fake = _fake(r)
        else:
            raise Invalid(f"{quote(original)} is not a press option")
    return Heading(recipients, broadcast=not (to or but), but=but, grey=grey, white=white,
                   fake=fake)


def _fake(r: _Reader) -> Fake:
    """The rest of a FAKE option, after the word FAKE."""
    if r.peek() == "BROADCAST":
        r.take()
        return Fake()
    if r.peek() == "PARTIAL":
        r.take()
        if r.peek() not in ("TO", "+", "-"):
            raise Invalid("FAKE PARTIAL needs TO <powers>: FAKE PARTIAL TO FG")
    word = r.peek()
    if word == "TO" and r.peek(1) == "ALL" and r.peek(2) == "BUT":
        r.take(), r.take(), r.take()
        return Fake(r.names("FAKE TO ALL BUT"), but=True)
    if word == "TO" and r.peek(1) == "ALL":
        r.take(), r.take()
        return Fake()
    if word in ("TO", "+", "-"):
        r.take()
        return Fake(r.names(f"FAKE {word}"), but=word == "-")
    if word and word not in _STOPS:
        raise Invalid(f"FAKE fakes only whom the press is shown as sent to (FAKE BROADCAST,"
                      f" FAKE TO <powers>), never its sender: white press always names its"
                      f" sender, so {quote(r.words[r.at])} after FAKE cannot be read (for press"
                      " without your name, write GREY)")
    return Fake()
