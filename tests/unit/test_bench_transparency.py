"""bench/bench_transparency.py's smoke mode: a 1,000-leaf tree filled in bulk on SQLite, a checkpoint
published over it and both proofs served (and checked by the bench itself), and the results file with
its header and one row per backend, size and batch."""

from __future__ import annotations

from pathlib import Path

import pytest

from bench import bench_transparency


def test_the_smoke_mode_writes_its_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CABLECAR_TEST_DATABASE_URL", raising=False)
    out = tmp_path / "TRANSPARENCY.md"
    assert bench_transparency.main(["--smoke", "--out", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert bench_transparency.HEADER in text and "--smoke" in text
    rows = [line.split(" | ") for line in text.splitlines() if line.startswith("| sqlite")]
    assert len(rows) == 1 and rows[0][1:3] == ["1,000", "10"]
    assert all(float(cell.strip(" |")) >= 0 for cell in rows[0][3:])
    assert "sqlite" in capsys.readouterr().out


def test_a_tree_filled_in_bulk_is_the_tree_of_its_leaves() -> None:
    from events.integrity import merkle

    leaves = [bytes([i]) * 32 for i in range(13)]
    nodes = {(level, index): h for level, index, h in bench_transparency._perfect_nodes(leaves)}
    assert merkle.range_hash([nodes[n] for n in merkle.tree_nodes(13)]) == merkle.root(leaves)
    assert merkle.range_hash([nodes[n] for n in merkle.tree_nodes(8)]) == merkle.root(leaves[:8])
