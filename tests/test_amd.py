"""The one coupling to anywidget's internals (widgets/amd.py), against the installed anywidget.

``./dev test-oldest`` runs this file with the lowest supported anywidget too.
"""

from __future__ import annotations

import anywidget
import pytest

from leyline_widget.widgets.amd import anywidget_amd, name_amd


def test_the_installed_anywidget_bundle_is_named() -> None:
    source = anywidget_amd()
    assert source.count('define("anywidget", ["@jupyter-widgets/base"]') == 1, \
        anywidget.__version__


@pytest.mark.parametrize("anonymous", [
    'define(["@jupyter-widgets/base"], function (b) { return {}; });',
    "define( [ '@jupyter-widgets/base' ], (b) => ({}));",
])
def test_either_quote_style_is_named(anonymous: str) -> None:
    named = name_amd(anonymous)
    assert named.startswith('define("anywidget", [')
    assert name_amd(named) == named, "naming twice changes nothing"


def test_an_unknown_form_is_a_clear_error() -> None:
    with pytest.raises(RuntimeError, match="unexpected form"):
        name_amd("export default { render() {} }")
