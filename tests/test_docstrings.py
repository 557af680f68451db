"""Every public name has a docstring: each name in ``leyline_widget.__all__`` and each public
method and property of its classes (the contract's classes among them), so ``help()`` and the
API reference say what each does."""

from __future__ import annotations

import inspect

import leyline_widget

# Still without a docstring, all in files being rewritten in parallel (core/game.py,
# core/rules.py, agents/expert.py); empty this list as they gain one.
NOT_YET: set[str] = set()


def undocumented() -> list[str]:
    missing = []
    for name in leyline_widget.__all__:
        obj = getattr(leyline_widget, name)
        if (inspect.isclass(obj) or inspect.isfunction(obj)) and not inspect.getdoc(obj):
            missing.append(name)
        if not inspect.isclass(obj):
            continue
        for attr, value in vars(obj).items():
            if attr.startswith("_"):
                continue
            fn = value.fget if isinstance(value, property) else getattr(value, "__func__", value)
            if (callable(fn) or isinstance(value, property)) and not (fn.__doc__ or "").strip():
                missing.append(f"{name}.{attr}")
    return missing


def test_every_public_name_has_a_docstring() -> None:
    missing = undocumented()
    assert sorted(set(missing) - NOT_YET) == []
    # The allow-list shrinks: a name documented since must leave it.
    assert sorted(NOT_YET - set(missing)) == []
