"""The readers of user text take time linear in it (no regular expression blows up).

A pattern with two quantifiers that can match the same characters (``\\s*:?\\s*``, or a
lazy ``.+?`` before ``\\s+scale``) backtracks over every way to share a run of spaces:
400 spaces in a custom weapon took 19 s. Each property below feeds one reader a hostile
piece made of the characters its patterns repeat, at growing lengths, and checks that
the time the piece adds grows like the piece (see :func:`assert_linear`). All sizes are
timed in the same run (best of three), from a length where the piece costs more than the
timer's noise.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from shipyard.core.errors import InputError
from shipyard.rulesets.space_fighter_alpha.statblock import import_statblocks
from shipyard.rulesets.space_fighter_alpha.trinity import load_vessel

from .conftest import sfa

CAT = sfa()
FLOOR = 0.01  # seconds the hostile piece must add before growth is measured (above timer noise)


def _best(run: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        with contextlib.suppress(InputError):  # a clear refusal is fine; only the time matters here
            run()
        best = min(best, time.perf_counter() - start)
    return best


def assert_linear(make: Callable[[int], Callable[[], object]], most: int) -> None:
    """Time ``make(n)()`` as ``n`` grows; the time the piece adds must grow like ``n``.

    ``n`` doubles from 64 until the piece costs ``FLOOR`` (or ``most / 8`` is reached);
    then 2n, 4n and 8n must take less than 3x their factor longer (linear gives 2, 4, 8;
    quadratic 4, 16, 64), measured against at least ``FLOOR``: a piece that is still that
    cheap at the largest text a reader accepts is fast, and its ratios would be noise. A
    superlinear reader fails on the first step that shows it, so the check stays bounded
    in time instead of waiting for a blow-up to finish.
    """
    bare = _best(make(0))
    n = 64
    base = _best(make(n)) - bare
    while base < FLOOR and n * 16 <= most:
        n *= 2
        base = _best(make(n)) - bare
    for factor in (2, 4, 8):
        grown = _best(make(factor * n)) - bare
        # a piece still cheaper than FLOOR at the largest size is measured against FLOOR (noise)
        if grown / max(base, FLOOR) >= 3 * factor:  # once more before calling it superlinear: a busy machine
            base, grown = _best(make(n)) - bare, _best(make(factor * n)) - bare
        ratio = grown / max(base, FLOOR)
        assert ratio < 3 * factor, f"{factor}x the text took {ratio:.1f}x the time (n = {n:,}: {base * 1000:.1f} ms)"


# pieces of the stat-block grammar: spaces, signs, digits, colons, parentheses, the scale
# suffix, mount and part words
STATBLOCK_TOKENS = [" ", "\t", " ", "1", "-", "+", ":", "(", ")", ",", "x", "scale", "-scale", "Armor", "Turreted"]
# where a hostile piece goes in a stat block: every value a pattern reads
STATBLOCK_PLACES = [
    "Weapons: Foo (custom, Cost 1{}x)",  # a custom item's key and number
    "Weapons: Foo (custom, 1{}x)",  # a lone number, then its key ("4 PP")
    "Weapons: 2 {}Medium Lasers",  # count, mount words, the scale prefix
    "Weapons: Light Laser{}",
    "Weapons: Fire-Linked (group{}A) Light Laser",
    "Soak: 3 (Armor{}2)",  # the Soak split into its parts
    "Soak: 3 ({})",
    "Scale: Star{}fighter",  # the scale and its suffix
    "Handling: {}1",
    "Special Equipment: {}",
]
STATBLOCK = (
    "Name: Hostile\nScale: Starfighter\nHandling: 1\nSoak: 2\nMove: 1\nPower: 1\nStructure: 10\nWeapons: Light Laser\n"
)


def _statblock(place: str, unit: str) -> Callable[[int], Callable[[], object]]:
    label = place.split(":", 1)[0] + ":"
    base = "\n".join(line for line in STATBLOCK.splitlines() if not line.startswith(label))

    def make(n: int) -> Callable[[], object]:
        text = base + "\n" + place.format((unit * (n // len(unit) + 1))[:n]) + "\n"
        return lambda: import_statblocks(text, CAT, source="hostile.txt")

    return make


unit = st.lists(st.sampled_from(STATBLOCK_TOKENS), min_size=1, max_size=4).map("".join)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(place=st.sampled_from(STATBLOCK_PLACES), unit=unit)
@example(place=STATBLOCK_PLACES[0], unit=" ")  # 400 spaces took 19 s, 1,000 over 300 s
@example(place=STATBLOCK_PLACES[1], unit=" ")
@example(place=STATBLOCK_PLACES[2], unit=" ")  # the scale prefix
@example(place=STATBLOCK_PLACES[5], unit=" ")  # the Soak split
@example(place=STATBLOCK_PLACES[5], unit=": ")
@example(place=STATBLOCK_PLACES[7], unit=" ")  # the scale suffix
@example(place=STATBLOCK_PLACES[4], unit=" ")
def test_statblock_reader_is_linear(place: str, unit: str) -> None:
    assert_linear(_statblock(place, unit), 250_000)


TRINITY_TOKENS = [" ", "\t", "1", "-", "[", "]", "x"]


def _trinity(tmp: Path, suffix: str, where: str, unit: str, end: str) -> Callable[[int], Callable[[], object]]:
    def make(n: int) -> Callable[[], object]:
        piece = "1" + (unit * (n // len(unit) + 1))[:n] + end
        vessel: dict[str, object] = {"name": "Hostile", "vt": "Hybrid Fighter", "vs": 1, "handling": 1, "soak": "3"}
        if where == "soak":
            vessel["soak"] = piece
        else:
            vessel["weapons"] = [{"name": "Gun", "accuracy": 1, "damage": piece}]
        file = tmp / f"vessel-{n}{suffix}"
        file.write_text(json.dumps(vessel), encoding="utf-8")  # JSON is YAML too
        return lambda: load_vessel(file)

    return make


@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(
    suffix=st.sampled_from([".yaml", ".json"]),
    where=st.sampled_from(["soak", "damage"]),
    unit=st.lists(st.sampled_from(TRINITY_TOKENS), min_size=1, max_size=3).map("".join),
    end=st.sampled_from(["[10]", "x", " [10", ""]),
)
@example(suffix=".yaml", where="soak", unit=" ", end="x")  # Soak with its scale mark
@example(suffix=".json", where="damage", unit=" ", end="x")
def test_trinity_reader_is_linear(suffix: str, where: str, unit: str, end: str, tmp_path: Path) -> None:
    assert_linear(_trinity(tmp_path, suffix, where, unit, end), 1_000_000)
