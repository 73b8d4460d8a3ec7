"""Designs with recorded state, made from samples: the outputs must carry the state too.

- a cruiser with damage on its systems' core and ephemeral boxes and an empty power bank
  (Power 0 stored);
- a gunboat with a mild and a moderate consequence taken, each with its aspect, and stress
  ticked on both tracks (a box ticked beyond a clear one);
- a frigate with one core box ticked and power stored in its bank.
"""

from __future__ import annotations

import json
from pathlib import Path

from shipyard.core import registry


def state_designs(folder: Path) -> list[Path]:
    """The three designs, written into ``folder/<ruleset id>/``."""
    out = []

    def write(ruleset: str, sample: str, name: str, change: dict) -> None:
        doc = json.loads((registry.get(ruleset).samples / sample).read_text())
        for key, value in change.items():
            doc["design"][key] = value
        (folder / ruleset).mkdir(parents=True, exist_ok=True)
        out.append(folder / ruleset / name)
        out[-1].write_text(json.dumps(doc))

    cruiser = json.loads((registry.get("future-perfect").samples / "cruiser.ship").read_text())["design"]
    systems = cruiser["systems"]
    systems[0] = {**systems[0], "core_damage": 2, "ephemeral_damage": 1}
    systems[2] = {**systems[2], "ephemeral_damage": 3}
    write("future-perfect", "cruiser.ship", "hit-cruiser.ship", {"systems": systems, "power_bank": 0})
    write(
        "cluster-falk",
        "brigand-gunboat.ship",
        "scarred-gunboat.ship",
        {
            "name": "Scarred Gunboat",
            "consequences": {
                "mild": {"aspect": "Scorched hull plating", "track": "hull"},
                "moderate": {"aspect": "Cracked reactor shielding", "track": "systems"},
            },
            # a 2-shift hit on the Hull; 1 and 3 shifts on the Systems: later boxes ticked, earlier clear
            "stress": {"hull": 3, "systems": 3, "hull_ticked": [2], "systems_ticked": [1, 3]},
        },
    )
    frigate = json.loads((registry.get("future-perfect").samples / "frigate.ship").read_text())["design"]
    systems = frigate["systems"]
    systems[1] = {**systems[1], "core_damage": 1}
    write("future-perfect", "frigate.ship", "charged-frigate.ship", {"systems": systems, "power_bank": 6})
    return out
