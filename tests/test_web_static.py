"""The static front end (src/ricochet/web, and each game's web folder, served at
/static/games/<name>/): files load, modules parse, imports resolve as the browser
resolves them (by URL), translations match, and user data never goes through innerHTML."""

from __future__ import annotations

import json
import posixpath
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "ricochet"
WEB = SRC / "web"
NODE = shutil.which("node")


def _game_folders() -> dict[str, Path]:
    """Each built-in game's web folder by the URL it is served at (``/static/games/<name>``)."""
    from ricochet.games import GAMES

    return {f"/static/games/{name}": g.web_dir for name, g in GAMES.items() if g.web_dir is not None}


FOLDERS = {**_game_folders(), "/static": WEB}
"""URL prefix → folder on disk (the games' before the shell's, as the server mounts them)."""
JS = sorted([*WEB.rglob("*.js"), *(p for folder in _game_folders().values() for p in folder.glob("*.js"))])
CSS = sorted([*WEB.rglob("*.css"), *(p for folder in _game_folders().values() for p in folder.glob("*.css"))])


def url_of(path: Path) -> str:
    for prefix, folder in FOLDERS.items():
        if folder in path.parents:
            return f"{prefix}/{path.relative_to(folder).as_posix()}"
    raise AssertionError(f"{path} is served nowhere")


def file_of(url: str) -> Path | None:
    for prefix, folder in FOLDERS.items():
        if url.startswith(prefix + "/"):
            return folder / url.removeprefix(prefix + "/")
    return None


class _Refs(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.ids: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for key in ("src", "href"):
            value = a.get(key)
            if value and value.startswith("/static/"):
                self.refs.append(value)
        if a.get("id"):
            self.ids.append(a["id"] or "")


def test_web_files_exist() -> None:
    for name in ("index.html", "app.js", "svg.js", "gridboard.js", "bidding.js", "net.js", "i18n.js", "ui.js",
                 "style.css", "games/index.js"):
        assert (WEB / name).is_file(), name
    for prefix, folder in _game_folders().items():
        assert (folder / "game.js").is_file() and (folder / "strings.js").is_file(), prefix


def test_index_references_existing_files() -> None:
    parser = _Refs()
    parser.feed((WEB / "index.html").read_text(encoding="utf-8"))
    assert "/static/app.js" in parser.refs and "/static/style.css" in parser.refs
    for ref in parser.refs:
        assert (WEB / ref.removeprefix("/static/")).is_file(), f"index.html references missing {ref}"
    # app.js mounts into these.
    for needed in ("app", "lang", "toasts", "conn"):
        assert needed in parser.ids


def _name(path: Path) -> str:
    return url_of(path)


@pytest.mark.parametrize("path", JS, ids=_name)
def test_module_imports_resolve(path: Path) -> None:
    # As the browser does: relative to the module's URL (a game's folder is served at
    # /static/games/<name>/ wherever its package is), to a file that is served.
    source = path.read_text(encoding="utf-8")
    for spec in re.findall(r"""^\s*import\s[^;]*?from\s+["']([^"']+)["']""", source, re.MULTILINE | re.DOTALL):
        assert spec.startswith(("./", "../")), f"{_name(path)}: bare import {spec!r} (no build step, no packages)"
        url = posixpath.normpath(posixpath.join(posixpath.dirname(url_of(path)), spec))
        target = file_of(url)
        assert target is not None and target.is_file(), f"{_name(path)} imports missing {spec} ({url})"


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("path", JS, ids=_name)
def test_module_syntax(path: Path) -> None:
    # --check parses without running; fed on stdin as an ES module (no package.json "type" needed).
    run = subprocess.run([NODE, "--input-type=module", "--check"], input=path.read_text(encoding="utf-8"),
                         capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode == 0, f"{path.name}: {run.stderr}"


def _tables() -> dict[str, dict[str, dict[str, str]]]:
    """Every table of strings, read by node (the real parser): the shell's (i18n.js), the
    shared modules' (``*-strings.js``) and each game's (a module's default export {en, fr})."""
    if NODE is None:
        pytest.skip("node is not installed")
    sources = {"i18n.js": (WEB / "i18n.js", "STRINGS")}
    for path in sorted(WEB.glob("*-strings.js")):  # the shared modules' tables: the bidding panel's, the trainer's modes'
        sources[path.name] = (path, "default")
    for prefix, folder in _game_folders().items():
        sources[f"{prefix}/strings.js"] = (folder / "strings.js", "default")
    out = {}
    for name, (path, export) in sources.items():
        script = f"import(process.argv[1]).then(m => process.stdout.write(JSON.stringify(m[{export!r}])))"
        run = subprocess.run([NODE, "-e", script, path.as_uri()], capture_output=True, text=True, timeout=30,
                             check=False)
        assert run.returncode == 0, run.stderr
        out[name] = json.loads(run.stdout)
    return out


def _strings(lang: str) -> dict[str, str]:
    """Every string of ``lang`` the site can show (all tables together)."""
    merged: dict[str, str] = {}
    for table in _tables().values():
        merged.update(table[lang])
    return merged


def _placeholders(text: str) -> set[str]:
    """The names a string fills in: "{name}" and plural blocks "{n, plural, one {…} other {…}}"."""
    branch = re.compile(r"(?:zero|one|two|few|many|other|=\d+)\s*$")  # "one {# move}": a plural form, not a name
    names = set(re.findall(r"\{(\w+), plural,", text))
    for m in re.finditer(r"\{(\w+)\}", text):
        if not branch.search(text[:m.start()]):
            names.add(m.group(1))
    return names


def test_i18n_same_keys_and_placeholders() -> None:
    seen: dict[str, str] = {}
    for name, table in _tables().items():
        en, fr = table["en"], table["fr"]
        assert set(en) == set(fr), f"{name}: only en: {sorted(set(en) - set(fr))}; only fr: {sorted(set(fr) - set(en))}"
        for key in en:
            assert _placeholders(en[key]) == _placeholders(fr[key]), f"{name}: {key}"
            assert fr[key].strip(), f"{name}: {key}"
            assert key not in seen, f"{key} is in {seen.get(key)} and {name}"
            seen[key] = name


def test_every_game_says_its_name_and_rules() -> None:
    en = _strings("en")
    for prefix in _game_folders():
        name = prefix.rsplit("/", 1)[1]
        for key in (f"game.{name}", f"lobby.game.{name}", f"{name}:lobby.how.text"):
            assert key in en, key


def test_french_uses_the_words_of_the_rules() -> None:
    # Seed 004 (the French rule sheet) names these things; the French UI must too.
    fr = " ".join(_strings("fr").values()).lower()
    for word in ("cible", "annonce", "sablier", "jeton", "robot actif", "vortex cosmique", "démontre", "démonstration"):
        assert word in fr, word


def test_keys_used_in_code_exist() -> None:
    en = _strings("en")
    for path in JS:
        for key in re.findall(r"""\bt\(\s*["']([a-z_]+(?:\.[A-Za-z_-]+)+)["']""", path.read_text(encoding="utf-8")):
            assert key in en, f"{_name(path)}: t({key!r}) has no translation"


def test_no_inner_html_with_data() -> None:
    # User data (names, chat, room names) must go in through textContent only.
    pattern = re.compile(r"\.(innerHTML|outerHTML)\s*[+]?=|insertAdjacentHTML|document\.write\s*\(")
    for path in [*JS, WEB / "index.html"]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not pattern.search(line), f"{path.name}:{n}: {line.strip()}"


@pytest.mark.parametrize("path", CSS, ids=_name)
def test_css_braces_balance(path: Path) -> None:
    css = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    assert css.count("{") == css.count("}")


COUNTED = r"(?:moves?|mouvements?|chips?|jetons?|points?|players?|joueurs?|attempts?|essais?|pieces?|pièces?|goals?|objectifs?|bots?|automatiques?)"


def test_no_hand_made_plurals() -> None:
    """Issue 44: "1 moves", "exactement 1 mouvements", "after 1 rated attempts" — a count says its noun
    through a plural block ({n, plural, one {# move} other {# moves}}: the browser's Intl.PluralRules),
    never as "{n} moves", nor with "(s)"."""
    for lang in ("en", "fr"):
        for key, text in _strings(lang).items():
            assert not re.search(r"\{(?:n|count|cost|bid|min|optimal|best)\}\s+" + COUNTED + r"\b", text), f"{lang} {key}: {text}"
            assert "(s)" not in text and "(x)" not in text, f"{lang} {key}: {text}"


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_plural_forms_follow_each_language() -> None:
    """t() chooses the plural form by Intl.PluralRules: French says "1 mouvement" and "0 mouvement",
    English "1 move" and "0 moves"; "=N" picks an exact number; a missing category falls back to other."""
    script = """
      globalThis.document = { documentElement: {} };
      const i18n = await import(process.argv[1]);
      i18n.addStrings({ en: { "x.test": "{n, plural, =0 {none} one {# {thing}} other {# {thing}s}}" },
                        fr: { "x.test": "{n, plural, =0 {aucun} one {# {thing}} other {# {thing}s}}" } });
      const out = {};
      for (const lang of ["en", "fr"]) {
        i18n.setLang(lang);
        out[lang] = [0, 1, 2, 1.5].map((n) => i18n.t("bid.moves", { n })).concat([0, 1, 5].map((n) => i18n.t("x.test", { n, thing: "pion" })));
      }
      process.stdout.write(JSON.stringify(out));
    """
    run = subprocess.run([NODE, "--input-type=module", "-e", script, (WEB / "i18n.js").as_uri()],
                         capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["en"] == ["0 moves", "1 move", "2 moves", "1.5 moves", "none", "1 pion", "5 pions"]
    assert out["fr"] == ["0 mouvement", "1 mouvement", "2 mouvements", "1.5 mouvement", "aucun", "1 pion", "5 pions"]
