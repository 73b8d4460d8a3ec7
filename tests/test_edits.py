"""Design edits as data: the editor's only way to change a design."""

from __future__ import annotations

import pytest

from shipyard.core.edits import get_at, insert_at, parse_path, remove_at, set_at
from shipyard.core.errors import InputError
from shipyard.core.evaluate import evaluate

from .conftest import sample


def test_paths_match_finding_paths() -> None:
    assert parse_path("weapons[1].count") == ["weapons", 1, "count"]
    assert parse_path("budgets.power-points") == ["budgets", "power-points"]


def test_set_insert_remove_change_the_budget() -> None:
    ld = sample("rebel-fighter")
    d = set_at(ld.design, "structure", 10, ld.catalog)
    assert d.structure == 10 and ld.design.structure == 15
    assert evaluate(d, ld.catalog).pool("freebies").remaining == 8  # -2 + the 10 no longer spent
    d = insert_at(d, "weapons", {"weapon": "Heavy Laser"}, ld.catalog)
    assert d.weapons[-1].weapon == "heavy-laser"  # names resolve through the catalog
    d = set_at(d, "weapons[2].count", 2, ld.catalog)
    assert get_at(d, "weapons[2].count") == 2
    d = remove_at(d, "weapons", 0, ld.catalog)
    assert [w.weapon for w in d.weapons] == ["missile", "heavy-laser"]
    d = set_at(d, "budgets.power-points", 7, ld.catalog)
    assert evaluate(d, ld.catalog).pool("power-points").budget == 7
    d = set_at(d, "budgets.power-points", None, ld.catalog)
    assert d.budgets == {}


@pytest.mark.parametrize(
    ("path", "value", "says"),
    [
        ("crew", -1, "greater than or equal to 0"),
        ("weapons[0].weapon", "Light Lazer", "did you mean"),
        ("weapons[9].count", 1, "no such place"),
        ("scale", "battlestar", "not a scale"),
    ],
)
def test_bad_edits_are_refused_with_the_path(path: str, value: object, says: str) -> None:
    ld = sample("rebel-fighter")
    with pytest.raises(InputError) as exc:
        set_at(ld.design, path, value, ld.catalog)
    assert says in str(exc.value)
