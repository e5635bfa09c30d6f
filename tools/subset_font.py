"""Regenerate the Japanese font of the pictures: `python tools/subset_font.py [SOURCE_DIR]`.

Needs fontTools (a dev tool: `pip install fonttools`) and Noto Sans CJK (OFL), e.g. Debian's
`fonts-noto-cjk` (/usr/share/fonts/opentype/noto/NotoSansCJK-{Regular,Bold}.ttc, face 0 is
"Noto Sans CJK JP"). Writes renderers/fonts/NotoSansCJKjp-{Regular,Bold}-subset.otf and the
list of characters they cover (NotoSansCJKjp-subset.chars.txt, read by renderers.theme).

The subset keeps Basic Latin, Latin-1, every hiragana and katakana, CJK punctuation, the
full-width forms and every other character used by the Japanese catalogue
(bot/i18n/locales/ja), which holds the words of the pictures too (renderers' `tr` msgids).
Run it again after adding Japanese text with new kanji: tests/renderers/test_language.py
fails when a picture would draw a character the subset lacks.
"""

from __future__ import annotations

import sys
from pathlib import Path

from babel.messages.pofile import read_po
from fontTools import subset
from fontTools.ttLib import TTCollection

ROOT = Path(__file__).resolve().parents[1]
FONTS = ROOT / "renderers" / "fonts"
CATALOGUE = ROOT / "bot" / "i18n" / "locales" / "ja" / "LC_MESSAGES" / "bot.po"
SOURCE = Path("/usr/share/fonts/opentype/noto")
WEIGHTS = {"Regular": "NotoSansCJK-Regular.ttc", "Bold": "NotoSansCJK-Bold.ttc"}
JP_FACE = 0  # "Noto Sans CJK JP" in the collection

RANGES = [
    (0x20, 0x7E), (0xA0, 0xFF),  # Latin
    (0x2010, 0x2027), (0x2190, 0x2193), (0x2212, 0x2212), (0x25A0, 0x25CF),  # dashes, arrows
    (0x3000, 0x303F),  # CJK punctuation: 、。「」『』〜
    (0x3041, 0x309F), (0x30A0, 0x30FF),  # hiragana, katakana
    (0xFF01, 0xFF5E),  # full-width forms: （）：！？
]


def catalogue_chars() -> set[str]:
    with CATALOGUE.open("rb") as fp:
        catalog = read_po(fp, locale="ja")
    chars: set[str] = set()
    for message in catalog:
        strings = message.string if isinstance(message.string, (tuple, list)) else [
            message.string]
        for text in strings:
            chars.update(text or "")
    return {c for c in chars if c.isprintable() and ord(c) < 0x10000}


def wanted() -> str:
    chars = catalogue_chars()
    for low, high in RANGES:
        chars.update(chr(c) for c in range(low, high + 1))
    return "".join(sorted(chars))


def main(argv: list[str]) -> int:
    source = Path(argv[0]) if argv else SOURCE
    text = wanted()
    for weight, filename in WEIGHTS.items():
        face = TTCollection(str(source / filename)).fonts[JP_FACE]
        options = subset.Options()
        options.layout_features = ["kern", "palt", "vert", "liga"]
        options.name_IDs = ["*"]
        options.notdef_outline = True
        options.hinting = False  # Pillow renders CFF unhinted at these sizes just as well
        subsetter = subset.Subsetter(options)
        subsetter.populate(text=text)
        subsetter.subset(face)
        out = FONTS / f"NotoSansCJKjp-{weight}-subset.otf"
        face.save(str(out))
        covered = "".join(sorted(chr(c) for c in face.getBestCmap()))
        print(f"{out.relative_to(ROOT)}: {out.stat().st_size // 1024} KB, {len(covered)} chars")
    (FONTS / "NotoSansCJKjp-subset.chars.txt").write_text(covered, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
