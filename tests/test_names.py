"""Look-alike names (:mod:`ricochet.names`, Unicode's confusables) and the trainer's login limits."""

from __future__ import annotations

import pytest

from ricochet.names import name_key, skeleton
from ricochet.server.trainer_auth import LoginLimiter, address_key, check_name


@pytest.mark.parametrize(("a", "b"), [
    ("Carol950", "\u0421arol950"),      # Cyrillic capital Es
    ("paypal", "\u0440\u0430ypal"),      # Cyrillic er, a
    ("Bill", "BiII"), ("Bill", "Bi11"),  # l, I, 1
    ("Zoe", "Z0e"), ("Ann", "ａｎｎ"), ("Ann", "Ánn"), ("Ann", "ANN"),
    ("Tom", "\u0422om"), ("Kate", "\u039aate"),  # Cyrillic Te, Greek Kappa
    ("modern", "rnodern"),
    ("Ada  Lovelace", "Ada Lovelace"),
])
def test_look_alikes_share_a_key(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)
    assert check_name(a)[1] == check_name(b)[1]


@pytest.mark.parametrize(("a", "b"), [("Ada", "Eda"), ("Ann", "Anna"), ("Bob", "Rob"), ("Léa", "Lea2")])
def test_different_names_stay_apart(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


def test_the_skeleton_is_idempotent_and_keys_fit_the_column() -> None:
    for text in ("Carol950", "\u0421arol950", "ǅungla", "ﬁx", "rn", "m"):
        assert skeleton(skeleton(text)) == skeleton(text)
    assert len(check_name("m" * 24)[1]) == 32  # a digest: 24 m's are 48 characters of skeleton


def test_login_limits_slow_a_pair_and_an_address_never_a_name() -> None:
    lim = LoginLimiter(free=3, base=2.0, cap=60.0, address_burst=10, address_per_hour=36.0)
    now = 1000.0
    for _ in range(3):
        assert lim.wait("ada", "1.1.1.1", now) == 0
        lim.failed("ada", "1.1.1.1", now)
    assert lim.wait("ada", "1.1.1.1", now) == pytest.approx(2.0)  # slowed: 2 s, then 4, 8 …
    lim.failed("ada", "1.1.1.1", now + 2)
    assert lim.wait("ada", "1.1.1.1", now + 2) == pytest.approx(4.0)
    assert lim.wait("ada", "2.2.2.2", now + 2) == 0  # the owner elsewhere: at once
    assert lim.wait("bob", "1.1.1.1", now + 2) == 0  # another name from there: still within the budget
    for k in range(6):
        lim.failed(f"name{k}", "1.1.1.1", now + 2)
    assert lim.wait("zoe", "1.1.1.1", now + 2) == pytest.approx(98.0)  # the address's budget is spent
    assert lim.wait("zoe", "1.1.1.1", now + 102) == 0  # 36 an hour: one more every 100 s
    lim.succeeded("ada", "1.1.1.1")
    assert lim.wait("ada", "3.3.3.3", now + 102) == 0


def test_addresses_are_counted_by_ipv6_prefix() -> None:
    assert address_key("2001:db8:1:2::5") == address_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_key("::ffff:10.0.0.1") == "10.0.0.1" and address_key("testclient") == "testclient"
