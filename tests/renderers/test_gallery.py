"""The gallery writes a decodable sample of every picture, a registered game's too."""

from __future__ import annotations

from PIL import Image

import renderers
from renderers import gallery


def test_gallery_writes_pictures(tmp_path) -> None:
    paths = gallery.write(tmp_path, ["six_nimmt", "senet"])
    names = {p.stem for p in paths}
    assert any(n.startswith("six_nimmt_") and n.endswith("_over") for n in names)
    assert any(n.startswith("six_nimmt_") and "_hand_" in n for n in names)
    assert any(n.startswith("six_nimmt_pro4") for n in names)
    assert any(n.startswith("six_nimmt_logical3_table_draft") for n in names)
    assert {"senet_over", "senet_move", "senet_swap", "senet_drown"} <= names
    for p in paths:
        assert p.stat().st_size > 1000
        with Image.open(p) as im:
            assert 800 <= im.width <= 1200


def test_main_usage(tmp_path, capsys) -> None:
    assert gallery.main([]) == 2
    assert gallery.main([str(tmp_path / "out"), "senet"]) == 0
    assert (tmp_path / "out" / "senet_over.png").exists()
    assert "senet_over.png" in capsys.readouterr().out


def test_a_registered_game_gets_the_standard_pictures_and_a_review(nim_id: str,
                                                                    tmp_path) -> None:
    """The fifth game names no samples of its own: a board, the end and its review."""
    assert nim_id in renderers.available()
    paths = gallery.write(tmp_path, [nim_id])
    names = {p.stem for p in paths}
    assert {f"{nim_id}_move9", f"{nim_id}_over", f"{nim_id}_review_evaluation"} <= names
    for p in paths:
        with Image.open(p) as im:
            assert im.format == "PNG" and im.width >= 600
