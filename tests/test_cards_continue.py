"""A stat card never hides what it cannot hold: a design whose card says more than a card
holds continues on the next card, "NAME (1/2)", "NAME (2/2)" (templates/common/_cards.html,
shipyard/render/cardfit.py), in every ruleset.

The cards' text is read back from the PDF with pdftotext, word by word with its place: each
card's words above its footer are what a player reads; no word may run into the footer or
stand under it, and the footer reads whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shipyard.core import registry
from shipyard.core.designfile import load_design
from shipyard.core.evaluate import evaluate
from shipyard.core.report import Report
from shipyard.core.shown import design_table
from shipyard.render.cardfit import cuts_needed
from shipyard.render.printing import print_designs

from .outputs_agree import check_card, norm
from .sheets import cards_read

CATALOGS = Path(__file__).resolve().parent.parent / "catalogs"


def _design(tmp_path: Path, sample: str, name: str, change: Callable[[dict[str, Any]], None]) -> Path:
    doc = json.loads((CATALOGS / sample).read_text(encoding="utf-8"))
    change(doc["design"])
    out = tmp_path / f"{name}.ship"
    out.write_text(json.dumps(doc), encoding="utf-8")
    return out


def _rows(report: Report, table: str) -> list[list[Any]]:
    return [list(row) for row in report.derived.table(table).rows]


def future_perfect(tmp_path: Path) -> tuple[Path, Callable[[Report], list[str]]]:
    """A frigate of 24 systems, each with some damage: the card stopped at about "Battery 16"."""

    def change(d: dict[str, Any]) -> None:
        d["systems"] = [{"name": "Bridge", "kind": "command"}] + [
            {"name": f"Battery {i}", "kind": "weapon", "ephemeral_damage": i % 4, "core_damage": (i // 4) % 3}
            for i in range(1, 24)
        ]
        d["weapons"] = []

    ship = _design(tmp_path, "future-perfect/examples/frigate.ship", "batteries", change)
    return ship, lambda r: [row[0] for row in _rows(r, "systems")] + ["Repair TN 5/7/9", "Weapons None"]


def future_perfect_long_name(tmp_path: Path) -> tuple[Path, Callable[[Report], list[str]]]:
    """The cruiser under a 48-letter name: the name took two lines and pushed the last line into the footer."""

    def change(d: dict[str, Any]) -> None:
        d["name"] = "The Indomitable Vigilance of the Outer Reaches X"

    ship = _design(tmp_path, "future-perfect/examples/cruiser.ship", "long-name", change)
    return (
        ship,
        lambda r: (
            [row[0] for row in _rows(r, "systems")]
            + [f"{row[0]} {row[2]} · {row[3]} AP" for row in _rows(r, "weapons")]
            + ["Mod. Forward shields 5 · Mod. Aft shields 4"]
        ),
    )


def cluster_falk(tmp_path: Path) -> tuple[Path, Callable[[Report], list[str]]]:
    """The carrier with 14 stunts of its own, 4 damaged: the card ended at "May also:"."""

    def change(d: dict[str, Any]) -> None:
        d["stunts"] = [
            {"name": f"Custom stunt number {i}", "text": f"Once a scene, trick {i}", "damaged": i % 4 == 1}
            for i in range(1, 15)
        ]

    ship = _design(tmp_path, "cluster-falk/examples/dominion-carrier.ship", "stunts", change)
    return (
        ship,
        lambda r: (
            [f"{row[0]} (damaged)" if row[2] else row[0] for row in _rows(r, "stunts")]
            + [f"{s.name} {s.value}" for s in r.derived.slots if s.available]
            + ["May also: Return fire"]
        ),
    )


def space_fighter_alpha(tmp_path: Path) -> tuple[Path, Callable[[Report], list[str]]]:
    """The space station with 18 weapons: the card showed 7 of them and lost its Technology."""
    kinds = ["Light Laser", "Medium Laser", "Heavy Laser", "Railgun", "Missile", "Rocket Salvo"]

    def change(d: dict[str, Any]) -> None:
        d["weapons"] = [{"weapon": kinds[i % 6], "count": 1 + i % 3, "turret": i % 2 == 1} for i in range(18)]

    ship = _design(tmp_path, "space-fighter-alpha/examples/federation-space-station.ship", "station", change)
    return (
        ship,
        lambda r: (
            [f"{row[1]}× {row[0]}" for row in _rows(r, "weapons")]
            + ["Technology Force Field"]
            + [row[0] for row in _rows(r, "technology")]
        ),
    )


def wing_commander(tmp_path: Path) -> tuple[Path, Callable[[Report], list[str]]]:
    """The Rapier with 6 guns, 6 kinds of missile and 7 compartments: the card lost its durability."""

    def change(d: dict[str, Any]) -> None:
        guns, missiles, rooms = d["guns"], d["missiles"], d["compartments"]
        d["guns"] = [{k: v for k, v in guns[i % 3].items() if k != "link_group"} for i in range(6)]
        for i, gun in enumerate(d["guns"]):
            gun["name"] = f"{gun['name']} {i + 1}"
        d["missiles"] = [
            {**missiles[i % 3], "name": f"{missiles[i % 3]['name']} {i + 1}", "count": 1} for i in range(6)
        ]
        d["compartments"] = [{**rooms[i % 3], "name": f"{rooms[i % 3]['name']} {i + 1}"} for i in range(7)]

    ship = _design(tmp_path, "wing-commander/examples/rapier.ship", "rapier", change)
    return (
        ship,
        lambda r: (
            [f"{row[1]}× {row[0]}" for row in _rows(r, "guns") if not row[7]]
            + [f"{row[0]}. {row[1]}" for row in _rows(r, "missiles")]
            + [t.name for t in r.derived.tracks if t.id.startswith("durability.")]
        ),
    )


def space_fury(tmp_path: Path) -> tuple[Path, Callable[[Report], list[str]]]:
    """A fighter with every weapon and system: its systems and boosts ran under the footer."""
    ids = ["targeter", "engines", "thrusters", "missile-rack", "extra-laser", "armor", "deflector-shield"]
    ids += ["turbo-laser", "particle-accelerator", "rail-gun", "chain-gun", "ion-gun", "rocket-pod"]
    ids += ["plasma-generator", "nuclear-missile", "jump-drive", "escape-pod", "cloaking-device", "jammer"]
    ids += ["scanners", "streamlining", "copilot", "afterburner", "storage-space"]

    def change(d: dict[str, Any]) -> None:
        d["name"] = "Everything Fighter"
        d["enhancements"] = [{"id": i} for i in ids] + [{"id": "turret", "weapons": ["Rail Gun"]}]

    ship = _design(tmp_path, "space-fury/examples/gunship.ship", "everything", change)
    return (
        ship,
        lambda r: (
            [f"{row[1]}× {row[0]}" for row in _rows(r, "weapons")]
            + [t.name for t in r.derived.tracks if t.id.startswith("boosts.")]
            + ["Critical damage table"]
        ),
    )


CASES = {
    "future-perfect": future_perfect,
    "future-perfect-long-name": future_perfect_long_name,
    "cluster-falk": cluster_falk,
    "space-fighter-alpha": space_fighter_alpha,
    "wing-commander": wing_commander,
    "space-fury": space_fury,
}


def _count(text: str, phrase: str) -> int:
    """How often ``phrase`` stands whole in ``text`` (not the 1 of 11)."""
    return len(re.findall(r"(?<![\w.])" + re.escape(norm(phrase)) + r"(?![\w])", text))


def test_every_ruleset_has_a_case() -> None:
    assert {case.split("-long-name")[0] for case in CASES} == {r.id for r in registry.rulesets()}


@pytest.mark.parametrize("case", CASES)
def test_a_card_that_says_more_than_a_card_holds_continues_on_the_next(
    case: str, tmp_path: Path, workers: list[Any]
) -> None:
    """Each card of the design reads its name with "(n/N)", then what it shows, then its footer
    whole: no word runs into the footer or stands under it. Together they show every row the card
    prints from the report and every figure the card shows."""
    ship, rows = CASES[case](tmp_path)
    loaded = load_design(ship, use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    out = tmp_path / "cards.pdf"
    print_designs([ship], out, sheet="cards", paper="a4", workers=workers, use_user_folder=False)
    footer = registry.get(loaded.ruleset).name
    cards = cards_read(out, "a4", footer)
    assert len(cards) >= 2, cards
    for n, card in enumerate(cards, 1):
        assert card["over"] == [], f"card {n}: runs into the footer: {card['over']}"
        assert card["footer"].startswith(footer), f"card {n}: {card['footer']!r}"
        assert norm(card["text"]).startswith(norm(f"{report.name} ({n}/{len(cards)})")), card["text"]
    text = norm(" ".join(card["text"] for card in cards))
    wanted = rows(report)
    assert wanted
    missing = [row for row in dict.fromkeys(wanted) if _count(text, row) < wanted.count(row)]
    assert missing == [], text
    # every figure the card shows (its name is checked above, whole, with the card's number)
    assert [m for m in check_card(text, design_table(report)).misses if not m.startswith("name ")] == []


def test_a_design_that_fits_keeps_one_card_with_its_name_alone(tmp_path: Path, workers: list[Any]) -> None:
    """A card that fits is drawn once, its name without "(1/1)", nothing in its footer."""
    ship = CATALOGS / "future-perfect" / "examples" / "cruiser.ship"
    out = tmp_path / "cards.pdf"
    print_designs([ship], out, sheet="cards", paper="a4", workers=workers, use_user_folder=False)
    (card,) = cards_read(out, "a4", "Future Perfect")
    assert card["over"] == [] and card["footer"] == "Future Perfect · As written · Commodore Ilse Brandt"
    assert card["text"].startswith("Indomitable Bastion-class heavy cruiser")


def _anchors(card: int, parts: list[float], ends: list[float], feet: list[float]) -> dict[str, Any]:
    """A page's anchors as card_pages draws them: each part's top, each card's end and footer."""
    out: dict[str, Any] = {f"shipyard-card-{card}-p{i}": (0, y) for i, y in enumerate(parts)}
    out |= {f"shipyard-card-{card}-e{j}": (0, y) for j, y in enumerate(ends)}
    out |= {f"shipyard-card-{card}-f{j}": (0, y, 10, y + 5) for j, y in enumerate(feet)}
    return out


def test_the_cuts_go_where_parts_run_into_the_footer() -> None:
    # parts 10 high from 20 on, a footer at 65: parts 0-3 fit (end at 60), 4-7 go on a card, 8-9 on a third
    page = _anchors(0, [20 + 10 * i for i in range(10)], [120], [65])
    assert cuts_needed([page], {}) == {0: [4, 8]}
    # laid out so, every card fits: nothing more to cut
    fits = _anchors(0, [20, 30, 40, 50, 20, 30, 40, 50, 20, 30], [60, 60, 40], [65, 65, 65])
    assert cuts_needed([fits], {0: [4, 8]}) is None
    # a part taller than a card alone gets a card of its own, and the next starts another
    tall = _anchors(0, [20, 30, 130, 140], [150], [65])
    assert cuts_needed([tall], {}) == {0: [1, 2]}
    # anchors of no card made by card_pages, or a card drawn without parts: nothing to do
    assert cuts_needed([{"sheet-0": (0, 0)}], {}) is None
