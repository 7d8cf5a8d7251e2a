"""What one reply may carry, so that one message cannot make gm mail out far more than it
was sent (a forged sender's 2,000 lines of `MAP mygame` were one reply of 332 MB).

- A line that only answers (a command whose spec says `answers_only`: HELP, LIST, HISTORY,
  MAP, SUMMARY, ORDERS, PREVIEW), or a line that could not be read, given again in the same
  message (the same words, under the same sign-on) is answered once; the reply says how many
  times it came.
- Of the lines that only answer, a message gets `Limits.reply_answers` answered, and no more
  than fit in `Limits.reply_bytes` (the reply's text and files together) and
  `Limits.reply_files` files. The others are left out, not run, and the reply lists them, to
  be sent again in another message.
- What the other commands did is done: their lines stay in the reply, but past the bytes and
  files allowed the end of the reply's text, and its pictures, are cut, the reply saying so.

A picture still to be drawn (a PNG made from its SVG when the mail goes out) counts as its SVG
and half again: about what the indexed PNGs measure (README, "Map pictures").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gm.commands.handlers.context import Context, Results
from gm.commands.values import Command, CommandError
from gm.store.rows import Attachment

if TYPE_CHECKING:
    from gm.play.order_pictures import ReplyPicture

LISTED = 20  # left-out lines the reply quotes; the rest are counted


def _attachment_bytes(attachment: Attachment) -> int:
    if attachment.drawn:
        return len(attachment.data)
    return len(attachment.svg or b"") * 3 // 2


def _files(results: Results) -> list[Attachment]:
    return [*results.attachments, *(a for p in results.pictures.values() for a in p.attachments)]


def reply_size(results: Results) -> tuple[int, int]:
    """The reply's bytes (its text lines and files) and its number of files."""
    files = _files(results)
    text = sum(len(line.encode("utf-8")) + 1 for line in results.lines)
    return text + sum(_attachment_bytes(a) for a in files), len(files)


@dataclass(frozen=True)
class _Mark:
    """The reply as it was before a command ran, to undo what the command added."""

    lines: int
    attachments: int
    pictures: dict[str, ReplyPicture]


@dataclass
class _Repeat:
    first: Command
    times: int = 1


@dataclass
class ReplyCap:
    """One message's account of its answers (made by gm.commands.dispatch.run_commands)."""

    ctx: Context
    answered: int = 0
    repeats: dict[tuple[object, ...], _Repeat] = field(default_factory=dict)
    left_out: list[Command] = field(default_factory=list)
    _mark: _Mark | None = None

    def _key(self, command: Command) -> tuple[object, ...]:
        signed = self.ctx.signed
        who = None if signed is None else (signed.game.id, signed.power)
        return (type(command), " ".join(command.line.text.split()).casefold(), who)

    def repeated(self, command: Command) -> bool:
        """Whether `command` repeats one of the message's earlier lines (it is counted, and
        not run again)."""
        key = self._key(command)
        found = self.repeats.get(key)
        if found is None:
            self.repeats[key] = _Repeat(command)
            return False
        found.times += 1
        return True

    def _over(self) -> bool:
        limits = self.ctx.limits
        size, files = reply_size(self.ctx.results)
        return bool((limits.reply_bytes and size > limits.reply_bytes)
                    or (limits.reply_files and files > limits.reply_files))

    def admits(self, command: Command) -> bool:
        """Before a line that only answers: whether it runs (else it is left out)."""
        limits = self.ctx.limits
        if (limits.reply_answers and self.answered >= limits.reply_answers) or self._over():
            self.left_out.append(command)
            return False
        results = self.ctx.results
        self._mark = _Mark(len(results.lines), len(results.attachments), dict(results.pictures))
        return True

    def answered_one(self, command: Command) -> None:
        """After a line that only answers: its answer stays if the reply still fits, else it
        is taken out again and the line left out."""
        mark, self._mark = self._mark, None
        if mark is None:
            return
        if not self._over():
            self.answered += 1
            return
        results = self.ctx.results
        del results.lines[mark.lines:]
        del results.attachments[mark.attachments:]
        results.pictures.clear()
        results.pictures.update(mark.pictures)
        self.left_out.append(command)

    def close(self) -> None:
        """After the message's last command: the reply's lines about repeated and left-out
        lines, and the cut of what is still over the bytes and files allowed."""
        self._cut()
        results, limits = self.ctx.results, self.ctx.limits
        notes = [_repeat_note(r) for r in self.repeats.values() if r.times > 1]
        if self.left_out:
            count = len(self.left_out)
            notes.append(
                ("This line was" if count == 1 else f"These {count} lines were")
                + " not answered: one reply carries at most "
                f"{limits.reply_answers or 'any number of'} answers to HELP, LIST, HISTORY, "
                f"MAP, SUMMARY, ORDERS and PREVIEW, {_kb(limits.reply_bytes)} and "
                f"{limits.reply_files or 'any number of'} files. Send "
                + ("it" if count == 1 else "them") + " again in another message (a few at a "
                "time):")
            notes += [f"    {c.line}" for c in self.left_out[:LISTED]]
            if len(self.left_out) > LISTED:
                rest = self.left_out[LISTED:]
                notes.append(f"    and {len(rest)} more (lines {rest[0].line.number} to "
                             f"{rest[-1].line.number}).")
        if notes:
            results.blank()
            results.add(*notes)

    def _cut(self) -> None:
        """Past the bytes or files allowed (lines of commands that did something, which are
        never left out): drop the pictures, then the text's end, saying so."""
        results, limits = self.ctx.results, self.ctx.limits
        if not self._over():
            return
        dropped = len(results.pictures)
        results.pictures.clear()
        note = (f"(The pictures of this reply were left out: {dropped} would make it larger "
                f"than the {_kb(limits.reply_bytes)} and {limits.reply_files} files one reply "
                "carries; ORDERS, or MAP, sends one.)") if dropped else ""
        budget = limits.reply_bytes - 400 if limits.reply_bytes else None
        if budget is not None and reply_size(results)[0] > budget:
            kept, size = [], 0
            for line in results.lines:
                size += len(line.encode("utf-8")) + 1
                if size > budget:
                    break
                kept.append(line)
            cut = len(results.lines) - len(kept)
            results.lines[:] = kept
            results.blank()
            results.add(f"(The last {cut} lines of this reply were left out: one reply carries "
                        f"at most {_kb(limits.reply_bytes)}. What the message's commands did "
                        "is done; SUMMARY and ORDERS show where things stand.)")
        if note:
            results.add(note)


def _repeat_note(repeat: _Repeat) -> str:
    """A line that came more than once: quoted if it only answers (it holds no password), by
    its number if it could not be read (its text, quoted above, may be masked)."""
    first = repeat.first
    if isinstance(first, CommandError):
        return (f"line {first.line.number}: the same line came {repeat.times} times in this "
                "message; answered once, above.")
    return f"{first.line}: repeated {repeat.times} times in this message, answered once."


def _kb(size: int) -> str:
    return f"{size // 1024} kB" if size else "any size"
