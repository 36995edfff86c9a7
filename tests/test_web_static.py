"""The static front end (src/ricochet/web): files load, modules parse, translations
match, and user data never goes through innerHTML."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[1] / "src" / "ricochet" / "web"
JS = sorted(WEB.rglob("*.js"))  # the shell and web/games/<name>/
NODE = shutil.which("node")


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
    for name in ("index.html", "app.js", "board.js", "net.js", "i18n.js", "ui.js", "style.css"):
        assert (WEB / name).is_file(), name


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
    return str(path.relative_to(WEB))


@pytest.mark.parametrize("path", JS, ids=_name)
def test_module_imports_resolve(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    for spec in re.findall(r"""^\s*import\s[^;]*?from\s+["']([^"']+)["']""", source, re.MULTILINE | re.DOTALL):
        assert spec.startswith(("./", "../")), f"{_name(path)}: bare import {spec!r} (no build step, no packages)"
        target = (path.parent / spec).resolve()
        assert target.is_file() and WEB in target.parents, f"{_name(path)} imports missing {spec}"


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@pytest.mark.parametrize("path", JS, ids=_name)
def test_module_syntax(path: Path) -> None:
    # --check parses without running; fed on stdin as an ES module (no package.json "type" needed).
    run = subprocess.run([NODE, "--input-type=module", "--check"], input=path.read_text(encoding="utf-8"),
                         capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode == 0, f"{path.name}: {run.stderr}"


def _strings(lang: str) -> dict[str, str]:
    """The STRINGS[lang] table of i18n.js, read by node (the real parser) when available."""
    if NODE is None:
        pytest.skip("node is not installed")
    script = ("import(process.argv[1]).then(m => process.stdout.write(JSON.stringify(m.STRINGS)))")
    run = subprocess.run([NODE, "-e", script, (WEB / "i18n.js").as_uri()], capture_output=True, text=True, timeout=30,
                         check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)[lang]


def test_i18n_same_keys_and_placeholders() -> None:
    en, fr = _strings("en"), _strings("fr")
    assert set(en) == set(fr), f"only en: {sorted(set(en) - set(fr))}; only fr: {sorted(set(fr) - set(en))}"
    for key in en:
        assert set(re.findall(r"\{\w+\}", en[key])) == set(re.findall(r"\{\w+\}", fr[key])), key
        assert fr[key].strip(), key


def test_french_uses_the_words_of_the_rules() -> None:
    # Seed 004 (the French rule sheet) names these things; the French UI must too.
    fr = " ".join(_strings("fr").values()).lower()
    for word in ("cible", "annonce", "sablier", "jeton", "robot actif", "vortex cosmique", "démontre", "démonstration"):
        assert word in fr, word


def test_keys_used_in_code_exist() -> None:
    en = _strings("en")
    for path in JS:
        for key in re.findall(r"""\bt\(\s*["']([a-z_]+(?:\.[A-Za-z_-]+)+)["']""", path.read_text(encoding="utf-8")):
            assert key in en, f"{path.name}: t({key!r}) has no translation"


def test_no_inner_html_with_data() -> None:
    # User data (names, chat, room names) must go in through textContent only.
    pattern = re.compile(r"\.(innerHTML|outerHTML)\s*[+]?=|insertAdjacentHTML|document\.write\s*\(")
    for path in [*JS, WEB / "index.html"]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not pattern.search(line), f"{path.name}:{n}: {line.strip()}"


def test_css_braces_balance() -> None:
    css = re.sub(r"/\*.*?\*/", "", (WEB / "style.css").read_text(encoding="utf-8"), flags=re.DOTALL)
    assert css.count("{") == css.count("}")
