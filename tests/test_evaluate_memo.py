"""evaluate remembers each variant (a force's member) by its content: an edit through
core/edits gives the edited member's new report, never the one remembered, and the
members left alone keep theirs. Also the shared tick boxes of Space Fury's tracks."""

from __future__ import annotations

import dataclasses
from typing import Any

from shipyard.core.designfile import design_from_document
from shipyard.core.edits import remove_at, set_at
from shipyard.core.evaluate import evaluate, verdict
from shipyard.core.report import Report

from .largest import fury_force


def _figure(report: Report, figure_id: str) -> Any:
    found = report.derived.figure(figure_id)
    assert found is not None, figure_id
    return found.value


def _unremembered(catalog: Any) -> Any:
    """The same catalog with nothing remembered: what evaluate says without its memo."""
    return dataclasses.replace(catalog, _memo={})


def test_an_edited_force_member_is_evaluated_anew() -> None:
    loaded = design_from_document(fury_force(3), use_user_folder=False)
    design, catalog = loaded.design, loaded.catalog
    before = evaluate(design, catalog)
    assert [_figure(f, "total-cost") for f in before.forms[:3]] == [44, 29, 44]

    # Pilot 2 flies with 10 XP instead of 3: a higher level, 7 more points.
    edited = set_at(design, "fighters[1].pilot.xp", 10, catalog)
    after = evaluate(edited, catalog)
    assert _figure(after.forms[1], "xp") == 10
    assert _figure(after.forms[1], "total-cost") == 36
    assert after.derived.tables[0].rows[1][-1] == 36  # the force's roster says it too
    assert after.forms[0] == before.forms[0] and after.forms[2] == before.forms[2]
    assert after == evaluate(edited, _unremembered(catalog))

    # The design as it was is the report as it was.
    assert evaluate(design, catalog) == before
    # And the edit undone by another edit: the same report again.
    assert evaluate(set_at(edited, "fighters[1].pilot.xp", 3, catalog), catalog) == before


def test_a_removed_member_leaves_the_others_reports_as_they_are() -> None:
    loaded = design_from_document(fury_force(3), use_user_folder=False)
    design, catalog = loaded.design, loaded.catalog
    evaluate(design, catalog)
    smaller = remove_at(design, "fighters", 0, catalog)
    report = evaluate(smaller, catalog)
    assert [f.name for f in report.forms] == [
        "Defense Fighter 2",
        "Escort Fighter 3",
        "Reserve 1",
        "Reserve 2",
        "Reserve 3",
    ]
    assert _figure(report, "fighters") == 2
    assert report == evaluate(smaller, _unremembered(catalog))
    assert verdict(smaller, catalog) == verdict(smaller, _unremembered(catalog))


def test_members_alike_but_for_their_names_keep_their_own_names() -> None:
    doc = fury_force(2)
    body = dict(doc["design"]["fighters"][0])
    doc["design"]["fighters"] = [{**body, "name": "Red 1"}, {**body, "name": "Red 2"}]
    loaded = design_from_document(doc, use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    assert [f.name for f in report.forms[:2]] == ["Red 1", "Red 2"]
    assert [row[0] for row in report.derived.tables[0].rows] == ["Red 1", "Red 2"]


def test_each_reserve_pilots_experience_track_ticks_its_own_xp() -> None:
    doc = fury_force(3)
    for pilot, xp in zip(doc["design"]["pilots"], [1, 3, 10], strict=True):
        pilot["xp"] = xp
    loaded = design_from_document(doc, use_user_folder=False)
    report = evaluate(loaded.design, loaded.catalog)
    tracks = [next(t for t in form.derived.tracks if t.id == "xp") for form in report.forms[3:]]
    assert [sum(b.marked for b in t.boxes) for t in tracks] == [1, 3, 10]
    assert [len(t.boxes) for t in tracks] == [55, 55, 55]
    assert [b.label for b in tracks[0].boxes[:3]] == ["level 1", "", "level 2"]


def test_the_memo_holds_at_most_its_limit_and_still_reports_rightly(monkeypatch: Any) -> None:
    import shipyard.core.evaluate as ev

    monkeypatch.setattr(ev, "FORM_MEMO_LIMIT", 4)
    loaded = design_from_document(fury_force(3), use_user_folder=False)
    catalog = _unremembered(loaded.catalog)
    report = evaluate(loaded.design, catalog)  # six members, four remembered
    assert len(catalog._memo["evaluate.forms"]) == 4
    assert evaluate(loaded.design, catalog) == report == evaluate(loaded.design, _unremembered(catalog))
