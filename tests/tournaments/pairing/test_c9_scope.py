"""C9 (2025 text: minimise the unplayed games of the PAB assignee) only in a bracket that downfloats
exactly one player, who gets the PAB, as its note says and as bbpPairings v6 applies it.

The tournament is the cross-test's generated tournament 7118 (`bench/cross_test.py --start 7118`) after
eight rounds, where Damier and bbpPairings v6 disagreed before the fix: the PAB is for player 8 or
player 11 (8 points each, every lower player has had one); 8 has an unplayed game (absent in round 1),
11 none. Their bracket can pair only one of them (with player 1, floated down from the top), and two
more of its players (2 and 3) must float down to be paired lower, so it downfloats three players and
C9 does not decide: the colours do (player 1 must have black; 8 would lose a strong preference for
black, 11 only a mild one). bbpPairings v6 pairs 11-1 and gives 8 the PAB; so does Damier now.
"""

from __future__ import annotations

from tournaments.pairing import pair_dutch
from tournaments.pairing.trf import parse_trf, request_from_trf

# TRF-16 records are 90 columns before the rounds: each line is written in two pieces.
AFTER_EIGHT_ROUNDS = "\n".join((
    '012 generated seed 7118',
    '062 17',
    'XXR 10',
    'XXC white1',
    'BBW  2.0',
    'BBD  1.0',
    'BBL  0.0',
    'BBZ  0.0',
    'BBU  2.0',
    'BBF  0.0',
    '162  W 2.0    D 1.0    L 0.0    Z 0.0    P 2.0',
    '202 DE ARO',
    '001    1      Player 1                          2234                            14.0    1  '
    '  10 w 1     6 b 1     2 w 1     3 b =     4 w 1     7 b 1     5 w 1     9 w =',
    '001    2      Player 2                          2062                            11.0    2  '
    '  11 b 1     5 w 1     1 b 0     7 w 1     8 w =     3 b =     4 w =     6 b 1',
    '001    3      Player 3                          1926                            10.0    3  '
    '  12 w 1     9 b 1     4 w =     1 w =     6 b 1     2 w =     8 b =     5 b 0',
    '001    4      Player 4                          1759                            11.0    4  '
    '  13 b =     7 w 1     3 b =     5 w 1     1 b 0     6 w 1     2 b =     8 w 1',
    '001    5      Player 5                          1732                            10.0    5  '
    '  14 w 1     2 b 0     8 w 1     4 b 0    12 w 1     9 b 1     1 b 0     3 w 1',
    '001    6      Player 6                          1644                             6.0   11  '
    '  15 b 1     1 w 0    16 b 1    10 w 1     3 w 0     4 b 0    13 w -     2 w 0  0000 - Z',
    '001    7      Player 7                          1601                            10.0    6  '
    '  16 w 1     4 b 0     9 w 1     2 b 0    15 w 1     1 w 0    14 b 1    12 b 1',
    '001    8      Player 8                          1565                             8.0    9  '
    '0000 - Z    13 w 1     5 b 0    14 w 1     2 b =    11 w 1     3 w =     4 b 0',
    '001    9      Player 9                          1518                             9.0    7  '
    '  17 b 1     3 w 0     7 b 0    13 w 1    11 b 1     5 w 0    10 w 1     1 b =',
    '001   10      Player 10                         1277                             7.0   13  '
    '   1 b 0    15 w =    11 b 1     6 b 0    14 w =    16 w 1     9 b 0    17 b =  0000 - Z',
    '001   11      Player 11                         1274                             8.0    8  '
    '   2 w 0    14 b 1    10 w 0    17 b 1     9 w 0     8 b 0    16 b 1    13 w 1',
    '001   12      Player 12                         1153                             6.0   14  '
    '   3 b 0    17 w =    15 b =    16 w 1     5 b 0    14 b 0  0000 - U     7 w 0',
    '001   13      Player 13                         1131                             6.0   10  '
    '   4 w =     8 b 0    17 w =     9 b 0  0000 - U    15 w 1     6 b -    11 b 0',
    '001   14      Player 14                         1116                             7.0   12  '
    '   5 b 0    11 w 0  0000 - U     8 b 0    10 b =    12 w 1     7 w 0    16 b 1',
    '001   15      Player 15                         1048                             5.0   15  '
    '   6 w 0    10 b =    12 w =  0000 - U     7 b 0    13 b 0    17 w =  0000 - Z',
    '001   16      Player 16                         1008                             4.0   17  '
    '   7 b 0  0000 - U     6 w 0    12 b 0    17 w 1    10 b 0    11 w 0    14 w 0',
    '001   17      Player 17                          975                             6.0   16  '
    '   9 w 0    12 b =    13 b =    11 w 0    16 b 0  0000 - U    15 b =    10 w =',
))


def test_c9_does_not_choose_the_bye_in_a_bracket_that_floats_three_players_down() -> None:
    result = pair_dutch(request_from_trf(parse_trf(AFTER_EIGHT_ROUNDS), 9))
    pairs = {(b.white, b.black) for b in result.boards}
    # bbpPairings v6 (`--dutch FILE -p`) on the same file: 11-1 9-4 14-2 7-5 3-17 12-13 15-16, 8 bye
    assert pairs == {(11, 1), (9, 4), (14, 2), (7, 5), (3, 17), (12, 13), (15, 16)}
    assert result.bye == 8
    assert set(result.excused) == {6, 10}
