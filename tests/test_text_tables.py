"""The text report's tables: a last column that fits is printed as it is, one that does not
wraps under itself, exactly as ``textwrap`` wraps it (the short cut for cells that fit must
never change a line a person or a script reads)."""

import textwrap

import pytest

from shipyard.core.report import Table
from shipyard.core.textreport import _wrapped, table_lines

TRICKY = [
    "",
    "Laser Cannon",
    "  leading spaces",
    "trailing space ",
    "two  spaces inside",
    "a\ttab",
    "a\nnewline",
    "no-break\u00a0space",
    "em\u2003space",
    "vertical\x0btab",
    "Missile Rack, Heavy Laser, Ion Cannon and a Tractor Beam",
]


@pytest.mark.parametrize("text", TRICKY)
@pytest.mark.parametrize("width", [1, 4, 12, 24, 80])
def test_a_cell_wraps_as_textwrap_wraps_it(text: str, width: int) -> None:
    assert _wrapped(text, width) == (textwrap.wrap(text, width) or [""])


def test_a_long_last_column_wraps_under_itself_and_a_short_one_stays_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")  # the narrowest the report allows
    table = Table(
        id="weapons",
        title="Weapons",
        columns=["Weapon", "Notes"],
        rows=[
            ["Heavy Laser", "Speed 2, Damage 3"],
            ["Missile", "Fires once a battle, then the rack is empty until it is reloaded"],
        ],
    )
    lines = table_lines(table)
    assert lines[2] == "  Heavy Laser  Speed 2, Damage 3"
    # 60 columns less the indent and the first column leave 45 for the notes
    assert lines[3] == "  Missile      Fires once a battle, then the rack is empty"
    assert lines[4] == "               until it is reloaded"
    assert len(lines) == 5
