"""The public site: pages a spectator reads without logging in (see README.md beside this file)."""
