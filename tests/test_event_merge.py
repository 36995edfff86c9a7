"""Merging an ``event`` message's state (docs/protocol.md, section 2.3): a shallow merge, then the
lists under ``extend`` grown from the lists before.  The Python client's merge
(:func:`ricochet.server.protocol.merge_event_state`) and the web page's (``net.js``'s
``mergeEventState``) must agree on every input, and neither may change what it was given."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ricochet.server.protocol import merge_event_state

NODE = shutil.which("node")
NET_JS = Path(__file__).resolve().parents[1] / "src" / "ricochet" / "web" / "net.js"

_items = st.lists(st.integers(0, 9), max_size=4)
_round = st.one_of(st.none(), st.fixed_dictionaries({"number": st.integers(1, 3)}, optional={
    "moves": _items, "paths": _items}))
_before = st.fixed_dictionaries({"phase": st.sampled_from(["bidding", "demonstration"])}, optional={
    "round": _round, "version": st.integers(1, 9)})
_grown = st.fixed_dictionaries({"at": st.integers(0, 5), "items": _items})
_delta = st.fixed_dictionaries({}, optional={
    "phase": st.sampled_from(["demonstration", "intermission"]), "round": _round,
    "extend": st.dictionaries(st.sampled_from(["round.moves", "round.paths", "phase.x"]), _grown, max_size=2)})
_case = st.tuples(_before, _delta)


def test_a_move_is_appended_and_nothing_given_changes() -> None:
    before = {"phase": "demonstration", "round": {"number": 2, "moves": ["m1"], "paths": ["p1"]}, "you": "p1"}
    delta = {"round": {"number": 2, "cost": 2},
             "extend": {"round.moves": {"at": 1, "items": ["m2"]}, "round.paths": {"at": 1, "items": ["p2"]}}}
    kept = copy.deepcopy((before, delta))
    after = merge_event_state(before, delta)
    assert after == {"phase": "demonstration", "round": {"number": 2, "cost": 2, "moves": ["m1", "m2"],
                                                         "paths": ["p1", "p2"]}, "you": "p1"}
    assert (before, delta) == kept


def test_at_cuts_the_list_before_and_a_shorter_list_cannot_be_extended() -> None:
    before = {"round": {"paths": ["p1", "p2", "p3"]}}
    assert merge_event_state(before, {"round": {}, "extend": {"round.paths": {"at": 1, "items": ["q"]}}}) == {
        "round": {"paths": ["p1", "q"]}}
    assert merge_event_state(before, {"round": {}, "extend": {"round.paths": {"at": 4, "items": ["q"]}}}) is None
    assert merge_event_state({"round": None}, {"round": {}, "extend": {"round.paths": {"at": 0, "items": []}}}) is None
    # Without ``extend`` it is the shallow merge the protocol always had.
    assert merge_event_state({"a": 1, "b": {"c": 2}}, {"b": {"d": 3}}) == {"a": 1, "b": {"d": 3}}


@pytest.mark.skipif(NODE is None, reason="node is not installed")
@settings(max_examples=15, deadline=None)
@given(st.lists(_case, min_size=1, max_size=40))
def test_the_web_page_merges_as_the_python_client(cases: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    script = """
      const { mergeEventState } = await import(process.argv[1]);
      let text = "";
      for await (const chunk of process.stdin) text += chunk;
      const out = JSON.parse(text).map(([before, delta]) => {
        const kept = JSON.stringify([before, delta]);
        const after = mergeEventState(before, delta);
        return [after, JSON.stringify([before, delta]) === kept];
      });
      process.stdout.write(JSON.stringify(out));
    """
    assert NODE is not None
    run = subprocess.run([NODE, "--input-type=module", "-e", script, NET_JS.as_uri()], input=json.dumps(cases),
                         capture_output=True, text=True, timeout=30, check=False)
    assert run.returncode == 0, run.stderr
    for (before, delta), (js_after, js_kept) in zip(cases, json.loads(run.stdout), strict=True):
        kept = copy.deepcopy((before, delta))
        assert js_after == merge_event_state(before, delta), (before, delta)
        assert js_kept and (before, delta) == kept
