"""Leyline in marimo: `marimo edit examples/marimo_play.py` (or `marimo run` for the app view).

marimo shows any anywidget through `mo.ui.anywidget`; the board follows marimo's own light or
dark theme (Settings > Display > Theme), not the operating system's.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")


@app.cell
def _():
    import marimo as mo

    from leyline_widget import LeylineWidget

    return LeylineWidget, mo


@app.cell
def _(mo):
    mo.md("""
    # Leyline in marimo

    Two players at one screen (hot-seat): press **Ready** when both are looking, then take
    turns. The board hides itself between seats so that neither sees the other's turn.
    """)
    return


@app.cell
def _(LeylineWidget, mo):
    table = mo.ui.anywidget(LeylineWidget(players=["Ada", "Grace"], seed=3))
    table
    return (table,)


if __name__ == "__main__":
    app.run()
