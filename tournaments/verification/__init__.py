"""Checking a whole tournament file and writing random ones (issue #19 item 9): the checker and the
generator behind `python -m tournaments.pairing -c / -g`. Pure Python, no Django."""
