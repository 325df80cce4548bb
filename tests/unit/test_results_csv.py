"""The batch results CSV: the formula guard quotes text a spreadsheet would
run, and leaves numbers alone (a negative score is ``-14``, as the
``CsvResultRow`` pattern says, not ``'-14``)."""

from __future__ import annotations

import csv
import io
import re

from service.usecases.batch_results import PlayerResult, TableResult, results_csv


def test_negative_scores_stay_numbers_and_formula_names_are_guarded() -> None:
    players = (
        PlayerResult(0, '=HYPERLINK("x")', 12, 1, True, 2),
        PlayerResult(1, "-Bo", -14, 2, False, 0, "resigned"),
    )
    text = results_csv("b1", [TableResult(0, "g1", "ttr-sf", "finished", (0,), "score", players)])
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["score"] for r in rows] == ["12", "-14"]
    assert all(re.fullmatch(r"(-?[0-9]+)?", r["score"]) for r in rows)  # the CsvResultRow pattern
    assert [r["name"] for r in rows] == ["'=HYPERLINK(\"x\")", "'-Bo"]
