"""Results from the boards: players' codes, their reports, and the arbiter's confirmation (README.md)."""
