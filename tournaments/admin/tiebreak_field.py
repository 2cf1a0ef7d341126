"""The tie-break control of the tournament form: a preset menu and an ordered list of menus, plain
<select>s that work by keyboard, on a phone and without JavaScript.

The preset menu offers the system's standard preset (what a new tournament starts with), each named
preset, or "Custom: the order below". The field cleans to {"preset": key, "order": [names]}; the
form resolves it into the list stored on the tournament, because "standard" depends on the system
chosen in the same form.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from tournaments.standings import PRESETS, SWISS, TIEBREAKS, preset_of
from tournaments.words import order_text, preset_label, tiebreak_label

STANDARD = "standard"
CUSTOM = "custom"
SLOTS = 5  # more than any preset holds; a tournament with a longer list gets more slots


def preset_choices() -> list[tuple[str, Any]]:
    def named(swiss: bool) -> list[tuple[str, str]]:
        return [(p.key, f"{preset_label(p)} — {order_text(p.tiebreaks)}") for p in PRESETS.values()
                if (SWISS in p.systems) == swiss]

    return [
        (STANDARD, _("The standard preset of the system chosen above")),
        (str(_("Swiss")), named(True)),
        (str(_("Round robin")), named(False)),
        (CUSTOM, _("Custom: the order below")),
    ]


def order_choices() -> list[tuple[str, Any]]:
    return [("", _("(no tie-break)"))] + [(key, tiebreak_label(key)) for key in TIEBREAKS]


class TiebreakWidget(forms.MultiWidget):
    template_name = "admin/tournaments/tournament/tiebreak_widget.html"

    def __init__(self, slots: int = SLOTS) -> None:
        super().__init__([forms.Select(), *[forms.Select() for _ in range(slots)]])

    def decompress(self, value: Any) -> list[Any]:
        names = list(value) if isinstance(value, list | tuple) else []
        preset = preset_of(names)
        key = preset.key if preset else (STANDARD if not names else CUSTOM)
        slots = len(self.widgets) - 1
        return [key, *names[:slots], *[""] * (slots - len(names))]

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> str:
        # The layout (a label for every menu, the custom order as a numbered list) is a project
        # template; each <select> is rendered by Django's own widget.
        context = self.get_context(name, value, attrs)
        rendered = [(w["attrs"]["id"], widget.render(w["name"], w["value"], w["attrs"], renderer))
                    for w, widget in zip(context["widget"]["subwidgets"], self.widgets, strict=True)]
        return render_to_string(self.template_name, {
            "preset": rendered[0], "order": [(i, *r) for i, r in enumerate(rendered[1:], start=1)]})


class TiebreakField(forms.MultiValueField):
    def __init__(self, slots: int = SLOTS, **kwargs: Any) -> None:
        fields = [forms.ChoiceField(choices=preset_choices, required=False),
                  *[forms.ChoiceField(choices=order_choices, required=False) for _ in range(slots)]]
        kwargs.setdefault("required", False)
        super().__init__(fields, require_all_fields=False, widget=TiebreakWidget(slots), **kwargs)
        for sub, field in zip(self.widget.widgets, fields, strict=True):
            sub.choices = field.choices

    def prepare_value(self, value: Any) -> Any:
        # The initial value is the tournament's list of names; posted data is already one value per
        # menu. MultiWidget would take any list for the latter, so the list of names is split here.
        menus = len(self.widget.widgets)
        if (isinstance(value, list | tuple) and len(value) == menus
                and value[0] in (None, "", STANDARD, CUSTOM, *PRESETS)):
            return value
        return self.widget.decompress(value)

    def compress(self, data_list: list[Any]) -> dict[str, Any]:
        if not data_list:
            return {"preset": STANDARD, "order": []}
        return {"preset": data_list[0] or STANDARD, "order": [v or "" for v in data_list[1:]]}
