"""The server's three pages: a table (the bundled front-end over a WebSocket), a player's
lobby, and the teacher's room. Each is a thin host: the board is the same ``widget.js`` that
anywidget loads in a notebook (its ``joinTable`` feeds it from the server), and the lobby and
the room are a few lines of script over the JSON routes of docs/tables.md. Secrets never sit in
the HTML: the page reads them from its own address (``?seat=``, ``?watch=``, ``#teacher=``).
"""

from __future__ import annotations

import json

__all__ = ["class_page", "lobby_page", "table_page"]

_STYLE = """
body { font: 15px/1.4 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 8px 16px;
       color: #1d2330; background: #fbfaf7; }
.ll-net { display: inline-block; margin: 4px 0 8px; padding: 3px 10px; border-radius: 12px;
          background: #e4f3e6; color: #1f5b2a; }
.ll-net[data-online="false"] { background: #fbe3df; color: #8a2315; font-weight: 600; }
table.ll-list { border-collapse: collapse; margin-top: 8px; }
table.ll-list td, table.ll-list th { border-bottom: 1px solid #ddd; padding: 4px 10px;
                                   text-align: left; }
button { font: inherit; padding: 4px 12px; }
"""


def _page(title: str, body: str, script: str, module: bool = False) -> str:
    kind = ' type="module"' if module else ""
    return (f'<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title>"
            f'<link rel="stylesheet" href="/static/widget.css"><style>{_STYLE}</style></head>'
            f"<body>{body}<script{kind}>{script}</script></body></html>\n")


def table_page(table: str) -> str:
    """The page of one table; ``table`` is the id from its address."""
    return _page(
        "Leyline table",
        '<div id="net" class="ll-net" role="status" aria-live="polite">Connecting...</div>'
        '<div id="board"></div>',
        'import widget, { joinTable } from "/static/widget.js";\n'
        f"joinTable(widget, {{ table: {json.dumps(table)}, "
        'el: document.getElementById("board"), status: document.getElementById("net") });',
        module=True)


def lobby_page() -> str:
    """The tables whose seat links this browser opened, and whose turn it is at each (yours
    first); it looks again every 15 seconds."""
    return _page(
        "Leyline lobby",
        "<h1>Your tables</h1><p id=\"msg\" role=\"status\">Loading...</p>"
        "<table class=\"ll-list\" id=\"list\"><thead><tr><th>Table</th><th>You</th>"
        "<th>Turn</th><th>Whose turn</th><th>Score</th></tr></thead><tbody></tbody></table>",
        """
const links = JSON.parse(localStorage.getItem("leyline-links") || "[]");
const msg = document.getElementById("msg"), list = document.getElementById("list");
const body = list.tBodies[0];
function cell(row, text) { const td = document.createElement("td"); td.textContent = text;
  row.appendChild(td); return td; }
function show(tables) {
  body.replaceChildren();
  // Your turn first, then the games going on, then the finished ones.
  const rank = (t) => t.error ? 3 : t.your_turn ? 0 : t.status === "over" ? 2 : 1;
  const mine = tables.filter((t) => !t.error).length;
  msg.textContent = mine + (mine === 1 ? " table; " : " tables; ")
    + tables.filter((t) => t.your_turn).length + " waiting for you";
  for (const t of [...tables].sort((a, b) => rank(a) - rank(b))) {
    const row = body.insertRow();
    if (t.error) { cell(row, t.table); cell(row, t.error).colSpan = 4; continue; }
    row.dataset.yourTurn = String(t.your_turn);
    const a = document.createElement("a");
    const link = links.find((l) => l.table === t.table);
    a.href = "/t/" + encodeURIComponent(t.table) + "?seat=" + encodeURIComponent(link.secret);
    a.textContent = t.players.join(" vs ");
    cell(row, "").appendChild(a);
    cell(row, t.players[t.seat]);
    cell(row, t.status === "over" ? "-" : String(t.turn));
    const whose = cell(row, t.status === "over" ? "Game over" : t.your_turn ? "Your turn"
                   : t.players[t.active_player] + "'s turn");
    if (t.your_turn) whose.style.fontWeight = "600";
    cell(row, (t.scores || []).join(" - "));
  }
}
function look() {
  fetch("/api/lobby", { method: "POST", headers: { "content-type": "application/json" },
                        body: JSON.stringify({ links }) })
    .then((r) => r.json()).then((data) => show(data.tables || []))
    .catch(() => { msg.textContent = "The server cannot be reached; looking again soon."; });
}
if (!links.length) msg.textContent = "No tables yet: open a seat link to sit at one.";
else { look(); setInterval(look, 15000); }
""")


def class_page() -> str:
    """The teacher's room: every table of the class (key in the address's fragment)."""
    return _page(
        "Leyline class",
        '<h1>Class tables</h1><p id="msg">Loading...</p>'
        '<p><button id="all" type="button">Download all replays</button></p>'
        '<table class="ll-list" id="list"></table>',
        """
const key = new URLSearchParams(location.hash.slice(1)).get("key") || "";
const auth = { authorization: "Bearer " + key };
const msg = document.getElementById("msg"), list = document.getElementById("list");
function cell(row, text) { const td = document.createElement("td"); td.textContent = text;
  row.appendChild(td); return td; }
fetch("/api/class", { headers: auth }).then((r) => r.json()).then((data) => {
  if (data.type === "error") { msg.textContent = data.error; return; }
  msg.textContent = (data.tables || []).length + " tables";
  for (const t of data.tables) {
    const row = list.insertRow();
    const a = document.createElement("a");
    a.href = "/t/" + encodeURIComponent(t.table) + "#teacher=" + encodeURIComponent(key);
    a.textContent = t.players.join(" vs ");
    cell(row, "").appendChild(a);
    cell(row, t.status === "over" ? "Game over (" + t.end_reason + ")"
         : t.players[t.active_player] + "'s turn");
    cell(row, "turn " + t.turn);
    cell(row, (t.scores || []).join(" - "));
  }
}).catch(() => { msg.textContent = "The server cannot be reached."; });
document.getElementById("all").addEventListener("click", async () => {
  const data = await (await fetch("/api/class/replays", { headers: auth })).json();
  const blob = new Blob([JSON.stringify(data, null, 1)], { type: "application/json" });
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob); a.download = "leyline-class-replays.json"; a.click();
});
""")
