"""The PDFs arbiters print and spectators download (see README.md beside this file)."""
