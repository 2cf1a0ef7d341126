"""Game sheets as text: PDN 3.0 read leniently (reader, gametype), written canonically (writer), and an
illegal move named in the terms of Annexe I art. 5.4 (irregularities). See README.md beside this file.

The reader's API is re-exported here: `from rules.pdn import read_games`.
"""

from rules.pdn.reader import (
    SEVEN_TAG_ROSTER,
    DecodeError,
    MoveToken,
    ParsedGame,
    PdnError,
    ReadError,
    Setup,
    decode_pdn,
    iter_games,
    normalize_result,
    read_file,
    read_game,
    read_games,
)

__all__ = [
    "SEVEN_TAG_ROSTER",
    "DecodeError",
    "MoveToken",
    "ParsedGame",
    "PdnError",
    "ReadError",
    "Setup",
    "decode_pdn",
    "iter_games",
    "normalize_result",
    "read_file",
    "read_game",
    "read_games",
]
