"""Public pages: thin views, reads through selectors."""
