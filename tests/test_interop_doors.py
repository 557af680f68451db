"""The PettingZoo and Gymnasium adapters take only whole numbers in range as actions (numpy
integers included) and refuse anything else with a short, named error that changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")

from leyline_widget.interop.gym import LeylineSoloEnv  # noqa: E402
from leyline_widget.interop.pettingzoo import env  # noqa: E402
from leyline_widget.interop.spaces import ActionError, action_number  # noqa: E402

JUNK: list[tuple[Any, str]] = [
    ("3", "got '3'"), (1.5, "got 1.5"), (None, "got None"), (True, "got True"),
    (np.bool_(True), "got"), (3.0, "got 3.0"), ([3], "got [3]"), (np.float64(2.0), "got"),
    (np.array([1, 2]), "got"), ("x" * 10**6, "got 'xxx"),
]


def _legal(obs: dict[str, Any]) -> int:
    return int(np.flatnonzero(obs["action_mask"])[0])


@pytest.mark.parametrize(("action", "shown"), JUNK)
def test_the_solo_env_refuses_what_is_not_an_action_number(action: Any, shown: str) -> None:
    e = LeylineSoloEnv()
    e.reset(seed=1)
    assert e.game is not None
    before = e.game.state_hash()
    with pytest.raises(ActionError, match=r"^an action is a whole number from 0 to 583, ") as err:
        e.step(action)
    assert shown in str(err.value) and len(str(err.value)) < 160
    assert e.game.state_hash() == before and e._steps == 0


@pytest.mark.parametrize(("action", "shown"), JUNK)
def test_the_aec_env_refuses_what_is_not_an_action_number(action: Any, shown: str) -> None:
    e = env(players=2)
    e.reset(seed=1)
    assert e.game is not None
    before = e.game.state_hash()
    agent = e.agent_selection
    with pytest.raises(ActionError, match=r"^an action is a whole number from 0 to 583, "):
        e.step(action)
    assert e.game.state_hash() == before and e.agent_selection == agent


@pytest.mark.parametrize("action", [-1, 584, 10**30, np.int64(-1), np.uint64(2**63)])
def test_out_of_range_is_named(action: Any) -> None:
    for make in (LeylineSoloEnv, lambda: env(players=2)):
        e = make()
        e.reset(seed=1)
        with pytest.raises(ActionError, match=r"is out of range: actions are numbered 0 to 583$"):
            e.step(action)


def test_numpy_integers_play() -> None:
    solo = LeylineSoloEnv()
    obs, _ = solo.reset(seed=1)
    for kind in (np.int64, np.int32, np.uint16, int):
        obs, _, terminated, _, info = solo.step(kind(_legal(obs)))
        assert "illegal" not in info and not terminated
    # A numpy array of one integer, as an RL library's predict() gives.
    obs, _, _, _, info = solo.step(np.array(_legal(obs)))
    assert "illegal" not in info
    aec = env(players=2)
    aec.reset(seed=1)
    for _ in range(3):
        obs, *_ = aec.last()
        aec.step(np.int64(_legal(obs)))
    assert aec._actions == 3


def test_action_number_is_one_rule_for_both() -> None:
    assert action_number(np.int8(5), 6) == 5 and type(action_number(np.int8(5), 6)) is int
    with pytest.raises(ActionError):
        action_number(6, 6)
    assert issubclass(ActionError, ValueError)
