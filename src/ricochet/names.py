"""When two player names are one name: Unicode's confusables (UTS #39) and case.

:func:`name_key` is the form under which two names are the same name, for the
trainer's claimed names, and meant to replace the rooms' hand-made list in
:func:`ricochet.games.table.name_key` (a drop-in: same signature, same idea).
It folds what Unicode says looks alike; the rooms' list also folds a few
lower-case letters that look like Latin small capitals rather than Latin
letters (Cyrillic ``в`` ``к`` ``м`` ``н`` ``т``, Greek ``β`` ``ε`` ``κ`` ``τ`` ``χ`` ``ω``,
``ȷ`` ``ʟ`` ``ӏ``) and ``vv``/``w``, which Unicode keeps apart; their capitals
(``В`` ``К`` ``М`` ``Н`` ``Т``…) are folded, as the key reads a name before
folding its case.

The data is Unicode's ``confusables.txt`` (UTS #39, "Unicode Security
Mechanisms"), as shipped by the PyPI package **confusable-homoglyphs**
(``confusable_homoglyphs/confusables.json``, read offline from the installed
package).  Chosen over the alternatives because it is maintained (adopted by a
new maintainer, release 3.3.1 in January 2024 for Python up to 3.12, generated
from the "latest" confusables of that date), ships the data inside the wheel
(no download at run time), has no dependencies and is the most used of them;
``confusables`` (last release 2021, Unicode 13.0, whose ``normalize`` returns
every ASCII reading rather than one key) and ``homoglyphs`` (2020) are not
maintained, and the 2026 newcomers (``disarm``, ``ipfy-homoglyph``…) have no
track record.

The package stores each line of ``confusables.txt`` (source → prototype) as a
pair both ways.  The prototypes are recovered exactly: UTS #39's mapping is
idempotent, so a source (one code point, mapped to one prototype) is never a
prototype; the pairs form stars whose centre, any node with two neighbours or
more, is the prototype.  Of a lone pair the prototype is the longer string
when one is longer (sources are single code points); otherwise either works
for telling names apart, and the smaller code point is taken.

The key: compatibility forms (NFKC: full-width letters, ligatures), then the
UTS #39 skeleton, case folded, accents and other marks dropped, and the
skeleton again (so a lower-case look-alike meets its capital's prototype),
spaces made single.

>>> name_key("Carol950") == name_key("\\u0421arol950") == name_key("CAROL95O") == name_key("Ｃａｒｏｌ９５０")
True
>>> name_key("Bill") == name_key("BiII") == name_key("Bi11"), name_key("Ann") == name_key("Ánn")
(True, True)
>>> name_key("Ada") == name_key("Eda")
False
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

__all__ = ["confusables_version", "name_key", "skeleton"]

_MARKS = ("\u200e", "\u200f")
"""Direction marks the package puts around right-to-left characters: not part of them."""


@functools.cache
def _prototypes() -> dict[str, str]:
    """Each confusable character → its prototype (itself mapped: the table is idempotent)."""
    try:
        text = (resources.files("confusable_homoglyphs") / "confusables.json").read_text(encoding="utf-8")
    except ModuleNotFoundError:  # pragma: no cover - the server extra installs it
        raise ImportError("look-alike names need the confusable-homoglyphs package: "
                          "pip install 'ricochet[server]'") from None

    def clean(s: str) -> str:
        return "".join(ch for ch in s if ch not in _MARKS)

    pairs: dict[str, set[str]] = {}
    for key, entries in json.loads(text).items():
        for e in entries:
            a, b = clean(key), clean(e["c"])
            if a and b and a != b:
                pairs.setdefault(a, set()).add(b)
                pairs.setdefault(b, set()).add(a)
    table: dict[str, str] = {}
    for node, near in pairs.items():
        if len(node) != 1 or len(near) != 1:
            continue  # a prototype (a centre, or a string of several code points): kept as it is
        (other,) = near
        if len(pairs[other]) > 1 or len(other) > 1 or other < node:
            table[node] = other
    # A prototype may decompose (NFD) into characters that are themselves mapped (rarely: ``ǅ`` →
    # ``Dž``, whose caron maps to another mark): map those too, so that one pass is the whole skeleton.
    def settle(v: str) -> str:
        for _ in range(4):
            nxt = unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", v)))
            if nxt == v:
                break
            v = nxt
        return v

    return {k: settle(v) for k, v in table.items()}


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character replaced by its prototype, NFD again.

    >>> skeleton("\\u0440\\u0430ypal") == skeleton("paypal")
    True
    """
    table = _prototypes()
    return unicodedata.normalize("NFD", "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text)))


def _unmarked(text: str) -> str:
    return "".join(ch for ch in unicodedata.normalize("NFD", text) if not unicodedata.combining(ch))


def name_key(name: str) -> str:
    """The form under which two names are the same name: compatibility forms, look-alike
    characters of any script (Unicode's confusables), case, accents and marks, spacing."""
    text = skeleton(_unmarked(unicodedata.normalize("NFKC", name)))
    text = skeleton(_unmarked(text.casefold()))
    return " ".join(text.split())


def confusables_version() -> str:
    """The installed confusable-homoglyphs release (its data's provenance)."""
    from importlib.metadata import version

    return version("confusable-homoglyphs")
