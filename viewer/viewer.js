// texas42-log HTML viewer. Steps through the views of one observer, hand by hand
// and play by play. It is given those views and nothing else (never the deal):
// every tile it can draw is in the view data it was given. Text from the log
// (names, annotations) is only ever set with textContent, never parsed as HTML,
// and each log string stands in its own <bdi> (bidi isolated). The texts refer to
// log strings by token (U+E000 n U+E001), each string once in DATA.strings.
(function () {
  "use strict";
  var DATA = JSON.parse(document.getElementById("t42-data").textContent);
  var SVG = "http://www.w3.org/2000/svg";
  var SEATS = ["A", "B", "C", "D"];
  var ui = DATA.ui;
  var pos = { hand: 0, view: 0 };
  var STRINGS = DATA.strings || [];
  var TOKEN = /\uE000(\d+)\uE001/g;

  // Set a text that may hold log strings: plain text nodes, and each log string
  // as the textContent of its own <bdi>.
  function fill(e, text) {
    e.replaceChildren();
    var last = 0;
    String(text).replace(TOKEN, function (tok, n, at) {
      if (at > last) { e.appendChild(document.createTextNode(text.slice(last, at))); }
      var b = document.createElement("bdi");
      b.textContent = STRINGS[Number(n)];
      e.appendChild(b);
      last = at + tok.length;
      return tok;
    });
    if (last < String(text).length) { e.appendChild(document.createTextNode(String(text).slice(last))); }
    return e;
  }
  // The same text for an attribute: each log string between FSI and PDI (isolated).
  function plain(text) {
    return String(text).replace(TOKEN, function (tok, n) { return "\u2068" + STRINGS[Number(n)] + "\u2069"; });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { fill(e, text); }
    return e;
  }
  function svgEl(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    return e;
  }

  // Pip positions on a 3×3 grid (column, row) for 0–6.
  var PIPS = {
    0: [], 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]],
    4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]],
    6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]]
  };

  // A domino face: "[a|b]" drawn as two halves with pips.
  function domino(name, size) {
    var u = size || 22;
    var m = /^\[([0-6])\|([0-6])\]$/.exec(name);
    var s = svgEl("svg", { "class": "domino", width: 2 * u + 2, height: u + 2, viewBox: "0 0 " + (2 * u + 2) + " " + (u + 2), role: "img" });
    s.setAttribute("data-tile", name);
    var t = svgEl("title", {});
    t.textContent = name;
    s.appendChild(t);
    s.appendChild(svgEl("rect", { "class": "body", x: 1, y: 1, width: 2 * u, height: u, rx: u / 6 }));
    s.appendChild(svgEl("line", { x1: u + 1, y1: 3, x2: u + 1, y2: u - 1 }));
    [m[1], m[2]].forEach(function (n, half) {
      PIPS[n].forEach(function (p) {
        s.appendChild(svgEl("circle", { cx: 1 + half * u + u * (0.22 + 0.28 * p[0]), cy: 1 + u * (0.22 + 0.28 * p[1]), r: u * 0.08 }));
      });
    });
    return s;
  }
  // The back of a tile: nothing of its face.
  function back(size) {
    var u = size || 22;
    var s = svgEl("svg", { "class": "domino back", width: 2 * u + 2, height: u + 2, viewBox: "0 0 " + (2 * u + 2) + " " + (u + 2), "aria-hidden": "true" });
    s.appendChild(svgEl("rect", { "class": "body", x: 1, y: 1, width: 2 * u, height: u, rx: u / 6 }));
    return s;
  }

  function current() { return DATA.hands[pos.hand].views[pos.view]; }

  function seatName(s, v) {
    return v.players && v.players[s] ? s + " · " + v.players[s] : s;
  }

  function drawTable(v) {
    var table = document.getElementById("table");
    table.replaceChildren();
    SEATS.forEach(function (s) {
      var out = v.sits_out === s;
      var box = el("div", "seat seat-" + s + (v.to_play === s ? " to-play" : "") + (out ? " sits-out" : ""));
      box.setAttribute("data-seat", s);
      box.appendChild(el("span", "name", seatName(s, v) + " (" + v.counts[s] + ")" + (out ? " — " + ui.sits_out : "")));
      var hand = el("div", "hand");
      var now = v.analysis && v.to_play === s ? v.analysis.now : null;
      (v.hands[s] || []).forEach(function (t) {
        if (now && Object.prototype.hasOwnProperty.call(now, t)) {
          // The open-hand value of playing this tile now (review and omniscient views only).
          var cell = el("span", "valued" + (v.analysis.now_best.indexOf(t) >= 0 ? " best" : ""));
          cell.setAttribute("data-value", String(now[t]));
          cell.appendChild(domino(t, 18));
          cell.appendChild(el("span", "value", String(now[t])));
          hand.appendChild(cell);
        } else {
          hand.appendChild(domino(t, 18));
        }
      });
      for (var i = 0; i < v.hidden[s]; i++) { hand.appendChild(back(18)); }
      box.appendChild(hand);
      table.appendChild(box);
    });
    if (v.trick) {
      v.trick.plays.forEach(function (p) {
        var spot = el("div", "played played-" + p.seat + (v.trick.winner === p.seat ? " winner" : ""));
        spot.setAttribute("data-order", p.order);
        spot.appendChild(el("span", "order", String(p.order)));
        spot.appendChild(domino(p.tile, 26));
        table.appendChild(spot);
      });
      if (v.trick.winner) {
        table.appendChild(el("div", "trick-caption", current().caption || ""));
      }
    }
  }

  function drawWon(v) {
    var won = document.getElementById("won");
    won.replaceChildren();
    v.won.forEach(function (w) {
      var row = el("div", "stack" + (w.faces ? "" : " covered"));
      row.setAttribute("data-trick", w.number);
      row.appendChild(el("span", "label", w.number + " (" + w.team + ")"));
      if (w.faces) {
        if (w.plays) {
          w.plays.forEach(function (p) {
            row.appendChild(el("span", "by", p.seat));
            row.appendChild(domino(p.tile, 16));
          });
        } else {
          w.faces.forEach(function (t) { row.appendChild(domino(t, 16)); });
        }
      } else {
        for (var i = 0; i < 4; i++) { row.appendChild(back(16)); }
        row.appendChild(el("span", "covered-label", ui.covered));
      }
      won.appendChild(row);
    });
  }

  // The log's open-hand analysis: its lines, then each play so far that cost points.
  function drawAnalysis(entry) {
    var a = entry.view.analysis;
    var area = document.getElementById("analysis-area");
    var box = document.getElementById("analysis");
    box.replaceChildren();
    area.hidden = !a;
    if (!a) { return; }
    entry.analysis_lines.forEach(function (line) { box.appendChild(el("p", "", line)); });
    var list = el("ol", "costs");
    a.plays.forEach(function (p) {
      if (!p.cost && !p.fate) { return; }
      var item = el("li", "cost" + (p.fate ? " fate-" + p.fate : ""));
      item.setAttribute("data-order", p.order);
      item.appendChild(el("span", "by", p.order + " " + p.seat));
      item.appendChild(domino(p.tile.split(" ")[0], 16));
      item.appendChild(el("span", "minus", "\u2212" + p.cost));
      p.best.forEach(function (t) {
        item.appendChild(el("span", "arrow", "\u2192"));
        item.appendChild(domino(t.split(" ")[0], 16));
      });
      if (p.hidden_best && !p.best.length) {
        // The best play was a tile this observer may not see (R29): said, never drawn.
        item.appendChild(el("span", "arrow", "\u2192"));
        item.appendChild(el("span", "never-played", ui.never_played));
      }
      item.appendChild(el("span", "best-value", String(p.best_value)));
      list.appendChild(item);
    });
    if (list.childNodes.length) { box.appendChild(list); }
  }

  function draw() {
    var entry = current();
    var v = entry.view;
    var hand = DATA.hands[pos.hand];
    fill(document.getElementById("contract"), entry.contract_line);
    fill(document.getElementById("marks"), entry.marks_line);
    var broken = document.getElementById("broken");
    broken.hidden = !hand.broken;
    broken.textContent = hand.broken ? "\u26a0 " + hand.broken : "";
    fill(document.getElementById("position"), entry.lines[0] + " — " +
      ui.position.replace("{at}", String(pos.view + 1)).replace("{of}", String(hand.views.length)));
    document.getElementById("board").setAttribute("aria-label", plain(entry.description));
    drawTable(v);
    drawWon(v);
    drawAnalysis(entry);
    var text = document.getElementById("text");
    text.replaceChildren();
    entry.lines.forEach(function (line, i) {
      var p = el("p", entry.description_lines.indexOf(i) >= 0 ? "description" : "", line);
      text.appendChild(p);
    });
    document.getElementById("prev").disabled = pos.hand === 0 && pos.view === 0;
    document.getElementById("prev-hand").disabled = pos.hand === 0;
    document.getElementById("next-hand").disabled = pos.hand === DATA.hands.length - 1;
    document.getElementById("next").disabled = pos.hand === DATA.hands.length - 1 && pos.view === hand.views.length - 1;
    var hash = "#hand-" + (pos.hand + 1) + "-" + (pos.view + 1);
    if (window.location.hash !== hash) {
      try { history.replaceState(null, "", hash); } catch (err) { /* some file:// pages refuse; stepping still works */ }
    }
  }

  function step(d) {
    var n = DATA.hands[pos.hand].views.length;
    var v = pos.view + d;
    if (v >= 0 && v < n) { pos.view = v; }
    else if (d > 0 && pos.hand < DATA.hands.length - 1) { pos.hand += 1; pos.view = 0; }
    else if (d < 0 && pos.hand > 0) { pos.hand -= 1; pos.view = DATA.hands[pos.hand].views.length - 1; }
    draw();
  }
  function jumpHand(d) {
    var h = pos.hand + d;
    if (h >= 0 && h < DATA.hands.length) { pos.hand = h; pos.view = 0; }
    draw();
  }

  function init() {
    document.getElementById("observer").textContent = DATA.observer_label;
    if (DATA.omniscient) { document.getElementById("observer").className = "omniscient"; }
    document.getElementById("won-title").textContent = ui.won;
    document.getElementById("analysis-title").textContent = ui.analysis;
    document.getElementById("keys").textContent = ui.keys;
    [["prev-hand", ui.prev_hand, "◀◀ ", function () { jumpHand(-1); }],
     ["prev", ui.prev, "◀ ", function () { step(-1); }],
     ["next", ui.next, "▶ ", function () { step(1); }],
     ["next-hand", ui.next_hand, "▶▶ ", function () { jumpHand(1); }]].forEach(function (b) {
      var btn = document.getElementById(b[0]);
      btn.textContent = b[2] + b[1];
      btn.setAttribute("aria-label", b[1]);
      btn.addEventListener("click", b[3]);
    });
    document.addEventListener("keydown", function (e) {
      var k = e.key;
      if (k === "ArrowRight") { step(1); }
      else if (k === "ArrowLeft") { step(-1); }
      else if (k === "PageDown" || k === "ArrowDown") { jumpHand(1); }
      else if (k === "PageUp" || k === "ArrowUp") { jumpHand(-1); }
      else if (k === "Home") { pos.hand = 0; pos.view = 0; draw(); }
      else if (k === "End") { pos.hand = DATA.hands.length - 1; pos.view = DATA.hands[pos.hand].views.length - 1; draw(); }
      else { return; }
      e.preventDefault();
    });
    var m = /^#hand-(\d+)-(\d+)$/.exec(window.location.hash);
    if (m) {
      var h = Number(m[1]) - 1, i = Number(m[2]) - 1;
      if (h >= 0 && h < DATA.hands.length && i >= 0 && i < DATA.hands[h].views.length) { pos.hand = h; pos.view = i; }
    }
    draw();
  }
  init();
}());
