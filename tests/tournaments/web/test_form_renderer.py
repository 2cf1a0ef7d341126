"""The fast widget renderer writes exactly the HTML of Django's own widget templates."""

from __future__ import annotations

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe

from tournaments.web.form_renderer import FastWidgetRenderer


class Sample(forms.Form):
    text = forms.CharField(initial='a "quoted" <b>value</b> & more', widget=forms.TextInput(
        attrs={"aria-label": "Board 3: <Smith> & \"Jones\"", "data-x": 5, "autofocus": True, "hidden": False}))
    number = forms.IntegerField(initial=12, widget=forms.NumberInput(attrs={"min": 0}))
    hidden = forms.CharField(initial="=2-0", widget=forms.HiddenInput)
    empty_hidden = forms.CharField(required=False, widget=forms.HiddenInput)
    safe = forms.CharField(initial=mark_safe("<i>x</i>"), widget=forms.HiddenInput)
    menu = forms.ChoiceField(initial="1-1", choices=[("", "no result"), ("2-0", "2-0"), ("1-1", "1–1 <draw>"),
                                                   ("0F-2F", "0F-2F (White absent)")])
    grouped = forms.ChoiceField(initial="b", choices=[("", "---"), ("Group <A>", [("a", "A"), ("b", "B")]),
                                                      ("Group B", [("c", "C")])])
    number_menu = forms.TypedChoiceField(coerce=int, initial=2, choices=[(1, "one"), (2, "two")],
                                         widget=forms.Select(attrs={"class": "dm-result", "disabled": True}))
    multiple = forms.MultipleChoiceField(initial=["x", "z"], choices=[("x", "X"), ("y", "Y"), ("z", "Z")])
    area = forms.CharField(widget=forms.Textarea, initial="line 1\n<line 2>")


@pytest.mark.parametrize("bound", [False, True])
def test_same_html_as_the_templates(bound: bool) -> None:
    data = {"text": "typed <x>", "number": "x12", "hidden": "=", "menu": "0F-2F", "grouped": "c", "number_menu": "1",
            "multiple": ["y"], "area": "a&b", "safe": "s"} if bound else None
    fast, slow = Sample(data, renderer=FastWidgetRenderer()), Sample(data, renderer=DjangoTemplates())
    for name in Sample.base_fields:
        assert str(fast[name]) == str(slow[name]), name


def test_the_common_widgets_skip_the_template_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    used: list[str] = []
    real = DjangoTemplates.render

    def spy(self: DjangoTemplates, template_name: str, context: dict, request: object = None) -> str:  # type: ignore[type-arg]
        used.append(template_name)
        return real(self, template_name, context, request)

    monkeypatch.setattr(DjangoTemplates, "render", spy)
    form = Sample(renderer=FastWidgetRenderer())
    for name in Sample.base_fields:
        str(form[name])
    assert used == ["django/forms/widgets/textarea.html"]
