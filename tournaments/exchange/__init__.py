"""Files in and out of Damier: a whole tournament as JSON, TRF, the player CSV (see README.md)."""
