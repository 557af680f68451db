"""Doctest collection skips the adapters whose optional extra is not installed."""

from __future__ import annotations

import importlib.util

collect_ignore = [path for module, path in (
    ("pyspiel", "leyline_widget/interop/openspiel.py"),
    ("pettingzoo", "leyline_widget/interop/pettingzoo.py"),
    ("gymnasium", "leyline_widget/interop/gym.py"),
    ("gymnasium", "leyline_widget/interop/spaces.py"),
    ("numpy", "leyline_widget/interop/gym.py"),
) if importlib.util.find_spec(module) is None]
