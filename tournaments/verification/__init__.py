"""Checking a whole tournament file and writing random ones: the checker and the generator behind
`python -m tournaments.verification -c / -g`. Pure Python, no Django."""
