"""The conformance mode: the FIDE endorsement checklist (VCL4THP) read for draughts.

A tournament is in the mode from its creation. An action that breaks the competition rules gets the
checklist's warning level (`policy.Level`): a notice, a confirmation, a confirmation that takes the
tournament out of the mode, or a refusal. A confirmed breach is stored as a `ConformanceEvent`
(`events.record`), shown on the tournament's pages and written to the TRF as `###` lines.

policy.py  codes and their levels (pure: no ORM)
events.py  the service that checks confirmations and records events, and the TRF lines
words.py   what each code says to a person, in the reader's language
"""
