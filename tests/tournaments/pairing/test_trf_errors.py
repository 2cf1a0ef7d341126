"""A TRF file that cannot be read gets a message naming the line and the field, never a traceback."""

from __future__ import annotations

import pytest

from tournaments.pairing.trf import TrfError, parse_trf
from tournaments.verification.__main__ import main


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("012 x\n001 abcd      Foo\n", "line 2 (001): starting rank (columns 5-8) 'abcd' is not a whole number"),
        ("012 x\nXXR five\n", "line 2 (XXR): number of rounds 'five' is not a whole number"),
        ("BBW two\n", "line 1 (BBW): points 'two' is not a number"),
        ("XXP 1 x\n", "line 1 (XXP): pairing number 'x' is not a whole number"),
    ],
)
def test_bad_lines_are_named(text: str, message: str) -> None:
    with pytest.raises(TrfError) as info:
        parse_trf(text)
    assert str(info.value) == message


def test_command_line_prints_the_message_and_exits_2(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.trf"
    bad.write_text("012 x\nXXR five\n", encoding="utf-8")
    assert main(["--dutch", str(bad), "-p"]) == 2
    assert capsys.readouterr().err == f"{bad}: line 2 (XXR): number of rounds 'five' is not a whole number\n"
    assert main(["--dutch", str(tmp_path / "missing.trf"), "-p"]) == 2
