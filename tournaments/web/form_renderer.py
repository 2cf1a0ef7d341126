"""Django's form renderer, with the commonest widgets (inputs, hidden fields, menus) written in Python.

The results page of a 100-board round renders some 500 widgets; through the template engine they took two
thirds of the page's time (about 0.4 s of CPU a request on the 200-player Swiss), and a worker busy with it
holds the interpreter lock its other threads need to answer the crowd. The HTML is byte for byte what
Django's own widget templates make (tests/tournaments/web/test_form_renderer.py compares them); any other
widget, or a project override of these templates, goes through the templates as before.
"""

from __future__ import annotations

from typing import Any

from django.forms.renderers import DjangoTemplates
from django.utils.html import conditional_escape

_W = "django/forms/widgets/"
_INPUT_TYPES = ("input", "hidden", "text", "number", "email", "url", "password", "search", "tel", "date", "time",
                "datetime")
_INPUTS = frozenset(f"{_W}{name}.html" for name in _INPUT_TYPES)
_SELECT = f"{_W}select.html"
_OPTION = f"{_W}select_option.html"


def _s(value: Any) -> str:
    # `{{ value|stringformat:'s' }}` under autoescape: a safe string stays as it is, anything else escaped.
    return str(conditional_escape(value if isinstance(value, str) else str(value)))


def _attrs(attrs: dict[str, Any]) -> str:
    out = []
    for name, value in attrs.items():
        if value is False:
            continue
        out.append(f" {conditional_escape(name)}" if value is True else f' {conditional_escape(name)}="{_s(value)}"')
    return "".join(out)


def _input(w: dict[str, Any]) -> str:
    value = "" if w["value"] is None else f' value="{_s(w["value"])}"'
    kind, name = conditional_escape(w["type"]), conditional_escape(w["name"])
    return f'<input type="{kind}" name="{name}"{value}{_attrs(w["attrs"])}>'


def _option(o: dict[str, Any]) -> str:
    return f'<option value="{_s(o["value"])}"{_attrs(o["attrs"])}>{conditional_escape(o["label"])}</option>'


def _select(w: dict[str, Any]) -> str | None:
    parts = [f'<select name="{conditional_escape(w["name"])}"{_attrs(w["attrs"])}>']
    for group_name, group_choices, _index in w["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{conditional_escape(group_name)}">')
        for option in group_choices:
            if option.get("template_name") != _OPTION:
                return None
            parts.append("\n  " + _option(option) + "\n")
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return "".join(parts)


class FastWidgetRenderer(DjangoTemplates):
    def render(self, template_name: str, context: dict[str, Any], request: Any = None) -> str:
        widget = context.get("widget")
        if isinstance(widget, dict) and widget.get("template_name") == template_name:
            if template_name in _INPUTS and "type" in widget:
                return _input(widget)
            if template_name == _SELECT and "optgroups" in widget:
                html = _select(widget)
                if html is not None:
                    return html
        return super().render(template_name, context, request=request)
