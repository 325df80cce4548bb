"""Player names that cannot pass for another: normalised, visible, and not
confusable with another seat's name.

A name is stored in Unicode NFKC form (fullwidth ``Ａｄａ`` is ``Ada``, a
ligature is its letters, an ideographic space a space), trimmed, with no
control or format character (``service.api.text``) and no blank-looking one: the
Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and the blank Braille pattern
(U+2800) are letters and symbols to Unicode but print as nothing, like the
combining grapheme joiner, the variation selectors and the other invisible
marks listed in :data:`BLANK_LOOKING`.

Two names of one game are refused as confusable when their *skeletons* are
equal (Unicode TR39, section 4): each character is replaced by the prototype
of its confusable class, taken from Unicode's ``confusables.txt`` as the
``confusable-homoglyphs`` package ships it (Cyrillic ``А``, Greek ``Α`` and
Latin ``A`` share one), case is folded and runs of spaces are one space.  So
``Аda`` (Cyrillic A) cannot sit beside ``Ada``, nor ``AI`` beside ``Al``.
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

#: characters that print as nothing or as blank although Unicode does not call
#: them spaces or format characters (those are refused anyway)
BLANK_LOOKING = frozenset(
    [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0, 0x1D159, *range(0x180B, 0x1810),
     *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0), *range(0x1D173, 0x1D17B)]
)


def normalised(name: str) -> str:
    """``name`` as stored: NFKC, trimmed of surrounding white space."""
    return unicodedata.normalize("NFKC", name).strip()


def blank_problem(name: str) -> str | None:
    """Why the normalised ``name`` looks blank or holds an invisible
    character, or None."""
    for c in name:
        if ord(c) in BLANK_LOOKING or (unicodedata.category(c) == "Zs" and c != " "):
            return f"must not contain blank-looking characters (U+{ord(c):04X})"
    if name and not any(unicodedata.category(c)[0] in "LNPS" for c in name):  # an empty one: the length rule's
        return "must contain a visible character"
    return None


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each character with confusables, mapped to one member of its class:
    the classes are the pairs the data lists, joined (union-find: the data
    lists ``I`` beside ``l`` and ``l`` beside ``1`` without closing the
    circle), each represented by its lowest code point."""
    text = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text(encoding="utf-8")
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.setdefault(c, c) != c:
            parent[c] = parent[parent[c]]
            c = parent[c]
        return c

    for char, glyphs in json.loads(text).items():
        for glyph in (g["c"] for g in glyphs):
            if len(char) == 1 and len(glyph) == 1:
                a, b = root(char), root(glyph)
                parent[max(a, b)] = min(a, b)
    return {c: root(c) for c in list(parent)}


def skeleton(name: str) -> str:
    """The TR39 skeleton of ``name``, case folded: equal skeletons look alike."""
    table = _prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFD", normalised(name)))
    folded = unicodedata.normalize("NFD", mapped.casefold())
    return " ".join("".join(table.get(c, c) for c in folded).split())
