"""Accounts: Django's own page, with the deletion guard's refusal on its delete page and bulk action.

An account the tournaments' record names (who entered, corrected or confirmed what) is never deleted: its
delete page lists why and offers no button (tournaments.rounds.deletion), as for a played game."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.http import HttpRequest

User = get_user_model()


class AccountAdmin(UserAdmin):
    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        from tournaments.rounds import deletion

        deleted, counts, perms, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, perms, [*deletion.refusals(objs), *protected]


if admin.site.is_registered(User):
    admin.site.unregister(User)
admin.site.register(User, AccountAdmin)
