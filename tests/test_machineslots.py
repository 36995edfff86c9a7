"""The machine-wide budget of tests at once (tests/machineslots.py): slots are exclusive across
processes, a killed holder leaves none taken, and the setting is read strictly."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from machineslots import ENV, Slots, cores, slot_count

HOLDER = """
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from machineslots import Slots
slots = Slots(int(sys.argv[3]), Path(sys.argv[2]))
slots.acquire()
print("held", flush=True)
sys.stdin.readline()
slots.release()
print("released", flush=True)
sys.stdin.readline()
"""


def _script(code: str, folder: Path, *args: object, stdin: int | None = None) -> subprocess.Popen[str]:
    """A process running ``code`` with ``tests/`` importable: ``sys.argv[2:]`` are ``folder`` and ``args``."""
    return subprocess.Popen([sys.executable, "-c", code, str(Path(__file__).parent), str(folder), *map(str, args)],
                            stdin=stdin, stdout=subprocess.PIPE, text=True)


def _holder(folder: Path, count: int) -> subprocess.Popen[str]:
    """Another process (another suite's test) that takes one of ``count`` slots and holds it."""
    proc = _script(HOLDER, folder, count, stdin=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "held"
    return proc


def test_a_slot_held_by_another_process_is_waited_for(tmp_path: Path) -> None:
    other = _holder(tmp_path, 1)
    try:
        mine = Slots(1, tmp_path)
        got = threading.Event()
        waited: list[float] = []
        taker = threading.Thread(target=lambda: (waited.append(mine.acquire()), got.set()))
        taker.start()
        assert not got.wait(0.5)  # the only slot is the other process's
        assert other.stdin is not None and other.stdout is not None
        other.stdin.write("\n")
        other.stdin.flush()
        assert other.stdout.readline().strip() == "released"
        assert got.wait(30) and waited[0] > 0
        taker.join()
        mine.release()
    finally:
        other.kill()
        other.wait()


def test_two_slots_take_two_tests_and_a_killed_holder_frees_its_slot(tmp_path: Path) -> None:
    first, second = _holder(tmp_path, 2), _holder(tmp_path, 2)  # both slots taken, neither waited
    mine = Slots(2, tmp_path)
    got = threading.Event()
    taker = threading.Thread(target=lambda: (mine.acquire(), got.set()))
    taker.start()
    assert not got.wait(0.5)
    second.kill()  # kill -9 runs no clean-up: the kernel lets go of its lock
    second.wait()
    assert got.wait(30)
    taker.join()
    mine.release()
    first.kill()
    first.wait()


CYCLER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from machineslots import Slots
slots = Slots(1, Path(sys.argv[2]))
print("started", flush=True)
for _ in range(int(sys.argv[3])):  # a suite's worker: test after test, each holding the slot a moment
    slots.acquire()
    time.sleep(0.02)
    slots.release()
"""


def test_a_process_waiting_for_a_slot_gets_it_between_anothers_tests(tmp_path: Path) -> None:
    """Turns: a worker that gives its slot back and at once wants one again lets a waiting
    process of another suite go first, instead of keeping the slot until its suite ends."""
    cycler = _script(CYCLER, tmp_path, 300)
    try:
        assert cycler.stdout is not None and cycler.stdout.readline().strip() == "started"
        mine = Slots(1, tmp_path)
        mine.acquire()
        assert cycler.poll() is None  # taken between two of its 300 tests, not after the last
        mine.release()
    finally:
        cycler.kill()
        cycler.wait()


def test_the_number_of_slots_is_read_strictly(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)
    assert slot_count() == cores() + 1
    monkeypatch.setenv(ENV, "0")
    assert slot_count() == 0
    monkeypatch.setenv(ENV, " 5 ")
    assert slot_count() == 5
    for bad, says in (("three", "whole number"), ("-1", "0 or more"), ("2.5", "whole number")):
        monkeypatch.setenv(ENV, bad)
        with pytest.raises(ValueError, match=says) as err:
            slot_count()
        assert ENV in str(err.value)


def test_a_bad_setting_stops_the_run_with_a_message_not_a_traceback() -> None:
    root = Path(__file__).parent.parent
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:xdist",
                           "-p", "no:cacheprovider", str(root / "tests" / "test_names.py")],
                          capture_output=True, text=True, cwd=root, env={**os.environ, ENV: "three"}, timeout=300,
                          check=False)
    assert done.returncode == 4, done.stdout + done.stderr  # pytest's usage error
    assert f"{ENV} must be a whole number of tests" in done.stderr and "Traceback" not in done.stderr, done.stderr


ALONE_TWICE = """
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from machineslots import Slots
slots = Slots(2, Path(sys.argv[2]))
for _ in range(20):  # a test holding its slot asks for the machine to itself, again and again
    slots.acquire()
    with slots.alone():
        pass
    slots.release()
print("done", flush=True)
"""


def test_the_machine_alone_waits_for_every_slot_and_starts_no_test_meanwhile(tmp_path: Path) -> None:
    other = _holder(tmp_path, 2)  # a test of another suite, running
    mine = Slots(2, tmp_path)
    mine.acquire()  # this test's own slot
    inside, leave = threading.Event(), threading.Event()

    def alone() -> None:
        with mine.alone():
            inside.set()
            leave.wait(60)

    runner = threading.Thread(target=alone)
    runner.start()
    assert not inside.wait(0.5)  # the other test still runs
    assert other.stdin is not None and other.stdout is not None
    other.stdin.write("\n")
    other.stdin.flush()
    assert other.stdout.readline().strip() == "released"
    assert inside.wait(30)
    third = _script(HOLDER, tmp_path, 2, stdin=subprocess.PIPE)
    try:
        started = threading.Event()
        threading.Thread(target=lambda: (third.stdout.readline(), started.set()), daemon=True).start()  # type: ignore[union-attr]
        assert not started.wait(0.5)  # no test starts while the machine is alone
        leave.set()
        runner.join()
        assert started.wait(30)  # then one does, and this test has its slot back
        assert mine._held is not None
    finally:
        mine.release()
        for p in (other, third):
            p.kill()
            p.wait()


def test_two_processes_asking_for_the_machine_at_once_take_turns(tmp_path: Path) -> None:
    procs = [_script(ALONE_TWICE, tmp_path) for _ in range(2)]
    try:
        for p in procs:  # neither waits for the other's slot while the other waits for its own
            out, _ = p.communicate(timeout=120)
            assert out.strip() == "done" and p.returncode == 0
    finally:
        for p in procs:
            p.kill()
            p.wait()
