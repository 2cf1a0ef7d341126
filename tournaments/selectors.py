"""Reads: every query the pages and the admin need, shaped for them (HackSoft styleguide)."""
