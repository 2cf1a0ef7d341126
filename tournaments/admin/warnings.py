"""One screen for the checklist's warnings, on every page that shows one.

A warning (`tournaments.conformance.policy`) looks the same wherever an action raises it: the control room,
the tournament and round pages, manual pairing, the pairing numbers, a round robin's round by hand, result
entry, requested byes, the final ties, long events and the TRF import. Each shows its level in number and
words, what it says, what confirming it does (one wording per level: `consequence`) and, for a level 3 or
4, a box to tick. The box sits inside the page's own form, so the page's button posts it with every value
typed; a box ticked before stays ticked. `field` names the box as the page's service reads it, and `keys`
say what a box sends where it is not the warning's code (a manual pairing's breach names its players, so
that confirming one rematch does not confirm the next; an imported round sends its number).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournaments.conformance.policy import Code, Level, Warning
from tournaments.conformance.words import describe, level_name

TEMPLATE = "admin/tournaments/warnings.html"
FIELD = "confirmed"  # the boxes' name where the page's service reads "confirmed"


def consequence(level: int) -> str:
    """What confirming a warning of this level does: the one wording every page uses."""
    if level == Level.LEAVE:
        return _("Confirming takes the tournament out of the conformance mode for good: every page of the "
                 "tournament will say so, the event is kept in its history and written in its TRF. It cannot "
                 "be undone.")
    if level == Level.CONFIRM:
        return _("Confirming keeps this as an event in the tournament's history and in its TRF; it does not "
                 "change the tournament's conformance mode.")
    if level == Level.REFUSE:
        return _("This is refused: it cannot be confirmed, and nothing was saved.")
    return _("For your information; nothing to confirm.")


@dataclass(frozen=True)
class Row:
    """One warning as shown: what its box sends, its level, the words of each warning behind it."""

    key: str
    code: str
    level: int
    level_words: str
    texts: tuple[str, ...]
    consequence: str

    @property
    def leaves(self) -> bool:
        return self.level == Level.LEAVE

    @property
    def needs_tick(self) -> bool:
        return self.level in (Level.CONFIRM, Level.LEAVE)

    @property
    def heading(self) -> str:
        return _("Level %(level)s: %(words)s") % {"level": self.level, "words": self.level_words}

    @property
    def line(self) -> str:
        """The row in one line, where a page can only say it in a message (after a save)."""
        return " ".join((self.heading + " –", *self.texts, self.consequence))


def rows(warnings: Iterable[Warning], *, keys: Iterable[str] | None = None) -> list[Row]:
    """One row per key (by default the code: one confirmation covers every warning of a code), the gravest
    first; the same words said twice are said once."""
    items = list(warnings)
    named = [str(k) for k in keys] if keys is not None else [str(w.code) for w in items]
    grouped: dict[str, list[Warning]] = {}
    for w, key in zip(items, named, strict=True):
        grouped.setdefault(key, []).append(w)
    out = [Row(key, str(ws[0].code), int(ws[0].level), level_name(ws[0].level),
               tuple(dict.fromkeys(describe(w) for w in ws)), consequence(ws[0].level))
           for key, ws in grouped.items()]
    return sorted(out, key=lambda r: -r.level)


def block(request: HttpRequest | None, warnings: Iterable[Warning], *, field: str = FIELD,
          ticked: Iterable[str] = (), keys: Iterable[str] | None = None, required: bool = False,
          block_id: str = "dm-confirm") -> SafeString:
    """The warnings, to put inside the form the page posts again (empty when there is none). `required`
    makes the browser ask for each box before it posts (the pages whose only button is "confirm")."""
    return _render(request, rows(warnings, keys=keys), field=field, ticked=ticked, required=required,
                   block_id=block_id)


def correction_block(request: HttpRequest | None, warnings: Iterable[Warning], *, ticked: Iterable[str] = (),
                     block_id: str = "dm-correction") -> SafeString:
    """A completed round's corrections, offered before anything is typed: the confirmations a correction will
    ask (`rounds.result_entry.correction_confirmations`), in the words of a legitimate, recorded act rather than
    of a breach, so that the result, the reason and the box go in one save. Each level keeps its one wording
    of what confirming does; the boxes are the ones the service reads."""
    items = list(warnings)
    shown = []
    for row in rows(items):
        values = next(w.values for w in items if str(w.code) == row.code)
        shown.append(Row(row.key, row.code, row.level, row.level_words, (_correction_text(row.code, values),),
                         row.consequence))
    return _render(request, shown, field=FIELD, ticked=ticked, block_id=block_id,
                   title=_("Correcting this completed round"),
                   intro=_("A correction is allowed and recorded. Choose the new result, give the reason, tick "
                           "the box that applies and save once: what you typed is kept if anything is missing."))


def _correction_text(code: str, values: dict[str, object]) -> str:
    if code == Code.PREVIOUS_ROUND_CORRECTED:
        return _("Round %(next)s is already paired on this round's results: a correction is kept as an event "
                 "in the tournament's history and its TRF, and round %(next)s is checked again.") % values
    if code == Code.OLD_ROUND_CORRECTED:
        return _("Two or more later rounds are already paired on this round's results: correcting the result "
                 "itself takes the tournament out of the conformance mode; a correction for the rating report "
                 "only does not.") % values
    if code == Code.RATING_CORRECTION:
        return _("For a correction for the rating report only (the box above): the corrected result goes to "
                 "the rating report and the TRF; pairings and standings keep the result as played.") % values
    return describe(Warning(Code(code), dict(values)))


def _render(request: HttpRequest | None, shown: list[Row], *, field: str, ticked: Iterable[str], block_id: str,
            required: bool = False, title: str = "", intro: str = "") -> SafeString:
    if not shown:
        return SafeString("")
    return SafeString(render_to_string(TEMPLATE, {
        "rows": shown, "field": field, "ticked": {str(t) for t in ticked}, "required": required,
        "block_id": block_id, "asks": any(r.needs_tick for r in shown),
        "refused": any(r.level == Level.REFUSE for r in shown), "title": title, "intro": intro}, request))
