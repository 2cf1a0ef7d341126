"""Two records of one person made one: what the preview shows, and the merge itself.

The arbiter chooses the record kept and, for each field where the two differ, whose value it keeps (by
default the kept record's, the other's where the kept one is empty). Everything the other record holds
moves to the kept one: its entries (each keeps the rating and title its tournament gave it), its rating
list rows, its national ids, the merges it had absorbed. The removed record is stored whole in a
PlayerMerge, with what moved, and the kept record's history says why it changed.

Refused, with words: a record merged with itself; two records entered in one tournament (a person does not
play himself there: the arbiter settles that tournament first); two FMJD ids (two ids are two persons until
the arbiter clears one); two ids of one body that differ; a record that is not wholly this arbiter's; and a
preview drawn before either record changed (its fingerprint no longer matches).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from simple_history.utils import bulk_update_with_history

from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, NationalId, Player, PlayerMerge, RatingListRow, Tournament
from tournaments.permissions import ALL_FIELDS, player_fixed_fields

# The fields the arbiter chooses between, in the page's order. The ratings' source follows the rating.
FIELDS = ("surname", "given_name", "native_name", "sex", "fmjd_id", "federation", "title", "rating",
          "national_rating", "unrated", "club", "birth_year")
# What the removed record held besides its fields: each relation the merge moves, by its related name.
MOVED = {"entries", "list_rows", "national_ids", "merges"}

KEPT, OTHER = "kept", "other"


def is_empty(value: Any) -> bool:
    return value is None or value == "" or value is False


def default_choices(kept: Player, other: Player) -> dict[str, str]:
    """For each field where the records differ: the kept record's value, the other's where it is empty."""
    return {name: OTHER if is_empty(getattr(kept, name)) else KEPT
            for name in FIELDS if getattr(kept, name) != getattr(other, name)}


def fingerprint(a: Player, b: Player) -> str:
    """What both records hold now, fields and relations: a preview drawn from another state is stale."""
    def state(p: Player) -> dict[str, Any]:
        row = Player.objects.filter(pk=p.pk).values().first()
        return {"row": row,
                "entries": sorted(Entry.objects.filter(player_id=p.pk).values_list("pk", flat=True)),
                "ids": sorted(NationalId.objects.filter(player_id=p.pk).values_list("pk", "body", "number")),
                "rows": sorted(RatingListRow.objects.filter(player_id=p.pk).values_list("pk", flat=True)),
                "merges": sorted(PlayerMerge.objects.filter(kept_id=p.pk).values_list("pk", flat=True))}
    text = json.dumps([state(a), state(b)], default=str, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass
class MergePlan:
    """What the preview shows and the merge does."""

    kept: Player
    other: Player
    choices: dict[str, str]  # field -> KEPT or OTHER, for the fields that differ
    refusals: list[str] = field(default_factory=list)
    entries: list[Entry] = field(default_factory=list)
    list_rows: list[RatingListRow] = field(default_factory=list)
    national_ids: list[NationalId] = field(default_factory=list)
    merges: list[PlayerMerge] = field(default_factory=list)
    version: str = ""

    @property
    def values(self) -> dict[str, Any]:
        """The kept record's fields after the merge."""
        return {name: getattr(self.other if self.choices.get(name) == OTHER else self.kept, name)
                for name in FIELDS}

    @property
    def differing(self) -> list[str]:
        return [name for name in FIELDS if getattr(self.kept, name) != getattr(self.other, name)]


def merge_refusals(kept: Player, other: Player, user: Any = None) -> list[str]:
    """Why these two records cannot be merged, in words (none: they can)."""
    if kept.pk == other.pk:
        return [_("A record cannot be merged with itself: choose two different records.")]
    out = []
    shared = (Tournament.objects.filter(entries__player_id=kept.pk).filter(entries__player_id=other.pk)
              .order_by("pk"))
    for t in shared:
        out.append(_("%(a)s and %(b)s are both entered in %(tournament)s: a person cannot play himself. Deal with "
                     "that tournament first (remove or replace one of the two entries).")
                   % {"a": kept, "b": other, "tournament": t})
    if kept.fmjd_id is not None and other.fmjd_id is not None and kept.fmjd_id != other.fmjd_id:
        out.append(_("%(a)s has FMJD id %(id_a)s and %(b)s has FMJD id %(id_b)s: two FMJD ids are two persons. If "
                     "one of them is wrong, clear it on that player's page first.")
                   % {"a": kept, "id_a": kept.fmjd_id, "b": other, "id_b": other.fmjd_id})
    kept_ids = dict(NationalId.objects.filter(player_id=kept.pk).values_list("body", "number"))
    for body, number in NationalId.objects.filter(player_id=other.pk).values_list("body", "number"):
        if body in kept_ids and kept_ids[body] != number:
            out.append(_("%(a)s has %(body)s id %(number_a)s and %(b)s has %(body)s id %(number_b)s: one person has "
                         "one id with a body. Delete the wrong one on that player's page first.")
                       % {"a": kept, "b": other, "body": body, "number_a": kept_ids[body], "number_b": number})
    if user is not None:
        for p in (kept, other):
            fixed = player_fixed_fields(user, p)
            if fixed is ALL_FIELDS or fixed:
                out.append(_("%(player)s also plays in another arbiter's tournament: only an administrator can "
                             "merge him.") % {"player": p})
    return out


def merge_plan(kept: Player, other: Player, choices: dict[str, str] | None = None, user: Any = None) -> MergePlan:
    """The preview: the fields the kept record will have, what moves, and any refusal."""
    differing = default_choices(kept, other)
    given = {k: v for k, v in (choices or {}).items() if k in differing and v in (KEPT, OTHER)}
    plan = MergePlan(kept=kept, other=other, choices={**differing, **given})
    plan.refusals = merge_refusals(kept, other, user)
    plan.entries = list(Entry.objects.filter(player_id=other.pk).select_related("tournament")
                        .order_by("tournament_id"))
    plan.list_rows = list(RatingListRow.objects.filter(player_id=other.pk).select_related("rating_list")
                          .order_by("pk"))
    plan.national_ids = list(NationalId.objects.filter(player_id=other.pk).order_by("body"))
    plan.merges = list(PlayerMerge.objects.filter(kept_id=other.pk).order_by("pk"))
    plan.version = fingerprint(kept, other)
    return plan


def _removed_record(other: Player) -> dict[str, Any]:
    """The removed record as it stood: every stored field, its name and its national ids."""
    row = Player.objects.filter(pk=other.pk).values().get()
    row["full_name"] = other.full_name
    row["national_ids"] = [{"id": pk, "body": body, "number": number} for pk, body, number in
                           NationalId.objects.filter(player_id=other.pk).order_by("body")
                           .values_list("pk", "body", "number")]
    return json.loads(json.dumps(row, default=str))


def _refuse_unknown_relations(other: Player) -> None:
    """A relation to players this merge does not know would be deleted or emptied with the removed record:
    refused, so that nothing is lost silently."""
    for rel in Player._meta.related_objects:
        if rel.get_accessor_name() in MOVED:
            continue
        if rel.related_model._default_manager.filter(**{rel.field.name: other.pk}).exists():
            raise DomainError(_("%(player)s is still named by %(what)s, which a merge cannot move: nothing merged.")
                              % {"player": other, "what": rel.related_model._meta.verbose_name_plural})


@transaction.atomic
def players_merge(*, kept: Player, other: Player, choices: dict[str, str] | None = None, version: str = "",
                  user: Any = None) -> PlayerMerge:
    """Merge `other` into `kept`, as previewed at `version` (empty: no preview to compare, the command line)."""
    if kept.pk == other.pk:
        raise DomainError(merge_refusals(kept, other)[0])
    # The tournaments of both records first, by id (tournaments/locks.py: the pairing holds its tournament's row
    # while it pairs, and moving an entry moves its tournament's cache version), then the two records.
    entries = Entry.objects.filter(player_id__in=[kept.pk, other.pk])
    held = set(entries.values_list("tournament_id", flat=True))
    list(Tournament.objects.select_for_update().filter(pk__in=held).order_by("pk").values_list("pk", flat=True))
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[kept.pk, other.pk]).order_by("pk")}
    if len(locked) != 2:
        raise StaleEditError(_("One of the two records was deleted meanwhile: nothing merged. Reload the list."))
    if set(entries.values_list("tournament_id", flat=True)) != held:  # entered elsewhere meanwhile: not locked
        raise StaleEditError(_("%(a)s or %(b)s changed since this preview was drawn (another arbiter, or an "
                               "import): nothing merged. Look at the records as they are now and confirm again.")
                             % {"a": locked[kept.pk], "b": locked[other.pk]})
    kept, other = locked[kept.pk], locked[other.pk]
    if version and version != fingerprint(kept, other):
        raise StaleEditError(_("%(a)s or %(b)s changed since this preview was drawn (another arbiter, or an "
                               "import): nothing merged. Look at the records as they are now and confirm again.")
                             % {"a": kept, "b": other})
    if refusals := merge_refusals(kept, other, user):
        raise DomainError(" ".join(refusals))
    _refuse_unknown_relations(other)
    plan = merge_plan(kept, other, choices)
    values = plan.values
    before = {name: getattr(kept, name) for name in FIELDS}
    removed, other_id = _removed_record(other), other.pk
    reason_kept = f"merged with #{other.pk} {other.full_name}"
    reason_moved = f"player record #{other.pk} merged into #{kept.pk}"

    # Entry.save refuses another player for an entry with games (locks.check_entry_change): there it would
    # replace the person who played them. Here the person is the same and the entry keeps its number,
    # ratings and title, so the entries move by a queryset update (with their history), which Entry.save's
    # check does not see; the tournaments are locked above, and the update moves their cache versions.
    for entry in plan.entries:
        entry.player_id = kept.pk
    bulk_update_with_history(plan.entries, Entry, ["player"], default_user=user,
                             default_change_reason=reason_moved)
    RatingListRow.objects.filter(pk__in=[r.pk for r in plan.list_rows]).update(player_id=kept.pk)
    PlayerMerge.objects.filter(pk__in=[m.pk for m in plan.merges]).update(kept_id=kept.pk)
    for national_id in plan.national_ids:
        national_id.player_id = kept.pk
        national_id._history_user = user  # type: ignore[attr-defined]
        national_id._change_reason = reason_moved  # type: ignore[attr-defined]
        national_id.save(update_fields=["player"])

    # The removed record goes before the kept one takes its values: an FMJD id is held by one record only.
    other._history_user = user  # type: ignore[attr-defined]
    other._change_reason = f"merged into #{kept.pk} {kept.full_name}"  # type: ignore[attr-defined]
    other.delete()
    for name, value in values.items():
        setattr(kept, name, value)
    if plan.choices.get("rating") == OTHER or plan.choices.get("national_rating") == OTHER:
        kept.rating_source = removed.get("rating_source", "")
    try:
        kept.full_clean(validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        raise DomainError(_("The kept record would not be valid: %(errors)s. Nothing merged; choose other values.")
                          % {"errors": "; ".join(" ".join(v) for v in exc.message_dict.values())}) from None
    kept._history_user = user  # type: ignore[attr-defined]
    kept._change_reason = reason_kept  # type: ignore[attr-defined]
    kept.save()
    return PlayerMerge.objects.create(
        kept=kept, removed_id=other_id, removed=removed, merged_by=user if getattr(user, "pk", None) else None,
        moved={"entries": [e.pk for e in plan.entries], "list_rows": [r.pk for r in plan.list_rows],
               "national_ids": [n.pk for n in plan.national_ids], "merges": [m.pk for m in plan.merges],
               "fields": {name: json.loads(json.dumps([before[name], values[name]], default=str))
                          for name in FIELDS if before[name] != values[name]}})
