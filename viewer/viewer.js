// texas42-log HTML viewer. Steps through the views of one observer, hand by hand
// and moment by moment, and shows the match as a chart and a list of hands. It is
// given those views and nothing else (never the deal): every tile it can draw is
// in the view data it was given. Text from the log (names, annotations) is only
// ever set with textContent, never parsed as HTML, and each log string stands in
// its own <bdi> (bidi isolated). The texts refer to log strings by token
// (U+E000 n U+E001), each string once in DATA.strings. No style attribute is ever
// written (the CSP allows only the page's own stylesheet): sizes come from classes.
//
// The same script steps the live board (texas42 board): it calls
// T42Viewer.mount(data, hooks) with the views the server sent, again after each
// change of observer or data; hooks.drawn(position, entry) hears of every moment drawn.
(function () {
  "use strict";
  var SVG = "http://www.w3.org/2000/svg";
  // A key typed into a field (the board's comments) is text, never a step.
  // Keys typed into a text field are text; everywhere else — a menu (<select>)
  // included — the step keys step the moment (a focused menu would otherwise change
  // its choice on an arrow key: the observer must change only by a deliberate choice).
  function typing(e) {
    var t = e.target;
    return !!t && (/^(INPUT|TEXTAREA)$/.test(t.tagName || "") || !!t.isContentEditable);
  }

  function mount(DATA, hooks) {
    hooks = hooks || {};
    var SEATS = ["A", "B", "C", "D"];
    var TEAMS = ["A+C", "B+D"];
    var ui = DATA.ui;
    var pos = { hand: 0, view: 0 };
    var showMatch = false;
    var STRINGS = DATA.strings || [];
    var TOKEN = /\uE000(\d+)\uE001/g;

    // Set a text that may hold log strings: plain text nodes, and each log string
    // as the textContent of its own <bdi>.
    function fill(e, text) {
      e.replaceChildren();
      var s = String(text);
      var last = 0;
      s.replace(TOKEN, function (tok, n, at) {
        if (at > last) { e.appendChild(document.createTextNode(s.slice(last, at))); }
        var b = document.createElement("bdi");
        b.textContent = STRINGS[Number(n)];
        e.appendChild(b);
        last = at + tok.length;
        return tok;
      });
      if (last < s.length) { e.appendChild(document.createTextNode(s.slice(last))); }
      return e;
    }
    // The same text for an attribute: each log string between FSI and PDI (isolated).
    function plain(text) {
      return String(text).replace(TOKEN, function (tok, n) { return "\u2068" + STRINGS[Number(n)] + "\u2069"; });
    }
    function fmt(template, values) {
      return String(template).replace(/\{(\w+)\}/g, function (all, k) {
        return Object.prototype.hasOwnProperty.call(values, k) ? String(values[k]) : all;
      });
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
    function teamClass(t) { return "team-" + t.replace("+", ""); }
    function teamOf(seat) { return seat === "A" || seat === "C" ? "A+C" : "B+D"; }
    function spaced(team) { return team.replace("+", " + "); }  // as the seeds write it: "B + D"
    function bidding(v) { return v.moment === "call" || v.moment === "auction"; }
    function nextSeat(s) { return SEATS[(SEATS.indexOf(s) + 1) % 4]; }

    // Pip places in a half (0–100 square) for 0–6.
    // A domino face and a tile's back, drawn as every page of the project draws them
    // (viewer/domino.js).
    var domino = window.texas42Domino.domino, back = window.texas42Domino.back;

    function current() { return DATA.hands[pos.hand].views[pos.view]; }

    // The observer sits at the bottom (A for a spectator, a review or omniscient
    // view), the others clockwise: left, top (the partner), right.
    var BOTTOM = SEATS.indexOf(DATA.observer) >= 0 ? DATA.observer : "A";
    var PLACE = {};
    ["bottom", "left", "top", "right"].reduce(function (s, place) { PLACE[s] = place; return nextSeat(s); }, BOTTOM);

    function seatName(s, v) {
      return v.players && v.players[s] ? s + " · " + v.players[s] : s;
    }

    function drawSeat(v, s) {
      var out = v.sits_out === s;
      var turn = v.to_play === s && !v.over;
      var box = el("div", "seat seat-" + s + " at-" + PLACE[s] + (turn ? " to-play" : "") + (out ? " sits-out" : "") +
        (DATA.observer === s ? " own" : ""));
      box.setAttribute("data-seat", s);
      var label = el("div", "label");
      var name = el("span", "name", seatName(s, v) + " (" + v.counts[s] + ")" + (out ? " — " + ui.sits_out : ""));
      name.title = plain(name.textContent);  // whole, where a very long name is cut to two lines
      label.appendChild(name);
      label.appendChild(el("span", "turn", "\u25b6 " + (bidding(v) ? ui.to_call : ui.to_play)));
      box.appendChild(label);
      var hand = el("div", "hand");
      var now = v.analysis && turn ? v.analysis.now : null;
      // At a judged decision this observer may see: each tile's fair chance, the best fair
      // play highlighted (its numbers in the fair panel's table).
      var fairNow = !now && turn && v.fair && v.fair.now ? v.fair.now : null;
      var fairBest = fairNow && v.fair.now_best ? v.fair.now_best.split(" led ")[0] : null;
      (v.hands[s] || []).forEach(function (t) {
        if (fairNow && Object.prototype.hasOwnProperty.call(fairNow, t)) {
          // the best fair play, and any play as good (the same chance: the text's "as good")
          var tie = fairBest && t !== fairBest && fairNow[fairBest] && fairNow[t].share === fairNow[fairBest].share;
          var fc = el("span", "valued fair" + (t === fairBest ? " best" : tie ? " as-good" : ""));
          fc.setAttribute("data-chance", String(fairNow[t].share));
          fc.appendChild(domino(t, false));
          fc.appendChild(el("span", "value", Math.round(fairNow[t].share * 100) + "%"));
          hand.appendChild(fc);
        } else if (now && Object.prototype.hasOwnProperty.call(now, t)) {
          // The open-hand value of playing this tile now (review and omniscient views only).
          var cell = el("span", "valued" + (v.analysis.now_best.indexOf(t) >= 0 ? " best" : ""));
          cell.setAttribute("data-value", String(now[t]));
          cell.appendChild(domino(t, false));
          cell.appendChild(el("span", "value", String(now[t])));
          hand.appendChild(cell);
        } else {
          hand.appendChild(domino(t, false));
        }
      });
      for (var i = 0; i < v.hidden[s]; i++) { hand.appendChild(back(false)); }
      box.appendChild(hand);
      if (now && v.contract) {
        // whose line the numbers under the tiles are: the bidders' hand points, not this seat's
        box.appendChild(el("p", "values-whose", fmt(ui.values_whose, { team: teamOf(v.contract.bidder) })));
      }
      return box;
    }

    // A box on the table (the score, the auction) with its heading.
    function panel(id, title) {
      var box = el("section", "box");
      box.id = id;
      box.appendChild(el("h2", "", title));
      return box;
    }

    function drawScore(v, entry) {
      var box = panel("score", ui.score);
      box.appendChild(el("p", "contract", entry.contract_line));
      var table = el("table", "");
      var head = el("tr", "");
      head.appendChild(el("th", "", ""));
      var bidders = v.contract ? teamOf(v.contract.bidder) : null;
      TEAMS.forEach(function (t) {
        head.appendChild(el("th", teamClass(t) + (t === bidders ? " bidders" : ""), t));
      });
      table.appendChild(head);
      function row(label, cells) {
        var tr = el("tr", "");
        tr.appendChild(el("td", "", label));
        cells.forEach(function (c) { tr.appendChild(c); });
        table.appendChild(tr);
      }
      function nums(values, key) {
        return TEAMS.map(function (t) {
          var td = el("td", "num " + teamClass(t), String(values[t]));
          td.setAttribute("data-" + key, t);
          return td;
        });
      }
      row(v.score_unit === "points" ? ui.score_points : ui.score_marks, nums(v.marks, "marks"));
      if (v.contract && !bidding(v)) {
        if (v.points) {
          row(ui.hand_points, nums(v.points, "points"));
        } else {
          // Covered tricks (R27): the hand points are not the observer's to know.
          var td = el("td", "num covered-points", ui.points_covered);
          td.colSpan = 2;
          row(ui.hand_points, [td]);
        }
        row(ui.tricks, nums(v.tricks_won, "tricks"));
      }
      box.appendChild(table);
      return box;
    }

    function callText(c) {
      if (c.call === "pass") { return ui.pass; }
      if (c.special) { return c.special.charAt(0).toUpperCase() + c.special.slice(1) + " " + c.bid; }
      if (c.call === "marks") { return fmt(c.bid === 1 ? ui.bid_mark : ui.bid_marks, { bid: c.bid }); }
      return String(c.bid);
    }

    // The auction as a bidding box: a column per seat in calling order (the dealer's
    // left first), a row per round; the winning bid marked, the next caller's cell dashed.
    function drawAuction(v) {
      var box = panel("auction-box", ui.auction);
      var order = [nextSeat(v.dealer)];
      while (order.length < 4) { order.push(nextSeat(order[order.length - 1])); }
      var table = el("table", "");
      table.id = "auction";
      var head = el("tr", "");
      order.forEach(function (s) {
        var th = el("th", teamClass(teamOf(s)), s);
        if (s === v.dealer) { th.appendChild(el("span", "dealer", ui.dealer)); }
        head.appendChild(th);
      });
      table.appendChild(head);
      var winning = -1;
      if (v.contract) {
        v.auction.forEach(function (c, i) { if (c.seat === v.contract.bidder && c.call !== "pass") { winning = i; } });
      }
      var rows = [];
      var col = 4;
      v.auction.forEach(function (c, i) {
        var k = order.indexOf(c.seat);
        if (!rows.length || k <= col) { rows.push([null, null, null, null]); }
        rows[rows.length - 1][k] = { text: callText(c), pass: c.call === "pass", winning: i === winning };
        col = k;
      });
      var nextCall = bidding(v) && v.to_play && !v.over ? order.indexOf(v.to_play) : -1;
      if (nextCall >= 0 && (!rows.length || nextCall <= col)) { rows.push([null, null, null, null]); }
      rows.forEach(function (r, ri) {
        var tr = el("tr", "");
        r.forEach(function (cell, k) {
          var td = el("td", cell ? "call" + (cell.pass ? " pass" : "") + (cell.winning ? " winning" : "") : "",
            cell ? cell.text : "");
          if (!cell && ri === rows.length - 1 && k === nextCall) { td.className = "next"; td.textContent = "?"; }
          tr.appendChild(td);
        });
        table.appendChild(tr);
      });
      if (!rows.length) { box.appendChild(el("p", "empty", ui.no_calls)); }
      box.appendChild(table);
      return box;
    }

    function drawTrick(v, entry) {
      var area = el("div", "");
      area.id = "trick-area";
      area.appendChild(el("p", "trick-title", ui.current_trick));
      var grid = el("div", "trick-grid");
      grid.appendChild(el("span", "centre"));
      if (v.trick) {
        v.trick.plays.forEach(function (p) {
          var spot = el("div", "played played-" + p.seat + " at-" + PLACE[p.seat] + (v.trick.winner === p.seat ? " winner" : ""));
          spot.setAttribute("data-order", p.order);
          spot.appendChild(el("span", "order", String(p.order)));
          spot.appendChild(domino(p.tile, PLACE[p.seat] === "top" || PLACE[p.seat] === "bottom"));
          grid.appendChild(spot);
        });
      }
      area.appendChild(grid);
      if (v.trick && v.trick.winner && entry.caption) {
        area.appendChild(el("p", "trick-caption", entry.caption));
      }
      return area;
    }

    function drawTable(v, entry) {
      var table = document.getElementById("table");
      table.replaceChildren();
      table.appendChild(drawScore(v, entry));
      table.appendChild(drawAuction(v));
      SEATS.forEach(function (s) { table.appendChild(drawSeat(v, s)); });
      table.appendChild(drawTrick(v, entry));
    }

    function drawWon(v) {
      var won = document.getElementById("won");
      won.replaceChildren();
      if (!v.won.length) { won.appendChild(el("p", "no-won", ui.no_won)); }
      v.won.forEach(function (w) {
        var row = el("div", "stack " + teamClass(w.team) + (w.faces ? "" : " covered"));
        row.setAttribute("data-trick", w.number);
        row.appendChild(el("span", "label", fmt(ui.won_label, { number: w.number, team: spaced(w.team) })));
        var faces = el("span", "faces");
        if (w.faces) {
          if (w.plays) {
            w.plays.forEach(function (p) {
              faces.appendChild(el("span", "by", p.seat));
              faces.appendChild(domino(p.tile, true));
            });
          } else {
            w.faces.forEach(function (t) { faces.appendChild(domino(t, true)); });
          }
        } else {
          // A covered trick (R27) is a stack: four tiles face down on one another.
          var pile = el("span", "pile");
          for (var i = 0; i < 4; i++) { pile.appendChild(back(true)); }
          faces.appendChild(pile);
          faces.appendChild(el("span", "covered-label", ui.covered));
        }
        row.appendChild(faces);
        won.appendChild(row);
      });
    }

    // The log's open-hand analysis: its lines, the makeable table, then each play so
    // far that cost points with the best alternative and its fate.
    function drawAnalysis(entry) {
      var a = entry.view.analysis;
      var fair = entry.fair_lines || [];
      var area = document.getElementById("analysis-area");
      var box = document.getElementById("analysis");
      box.replaceChildren();
      var fv = entry.view.fair;
      area.hidden = !a && !fair.length && !(fv && fv.now && entry.view.to_play);
      // A seat is shown its fair analysis alone: the panel says so, not "open-hand".
      document.getElementById("analysis-title").textContent = a ? ui.analysis : ui.analysis_fair;
      // The fair analysis this observer may see (a seat: its own plays; review, omniscient).
      fair.forEach(function (line) { box.appendChild(el("p", "fair", line)); });
      if (fv && fv.now && entry.view.to_play) {
        // the decision at hand as a table, the best fair play highlighted, the legend a click away
        var who = entry.view.to_play;
        var ft = el("table", "makeable fair-now");
        ft.appendChild(el("caption", "", fmt(ui.fair_now, { seat: who })));
        var head = el("tr", "");
        [ui.fair_play, ui.fair_chance, ui.fair_mean].forEach(function (h) { head.appendChild(el("th", "", h)); });
        ft.appendChild(head);
        Object.keys(fv.now).forEach(function (k) {
          var best = fv.now[fv.now_best];
          var asGood = k !== fv.now_best && best && fv.now[k].share === best.share;
          var tr = el("tr", k === fv.now_best ? "chosen best" : asGood ? "as-good" : "");
          tr.appendChild(el("th", "", k));
          tr.appendChild(el("td", "value", Math.round(fv.now[k].share * 100) + "%"));
          tr.appendChild(el("td", "", fv.now[k].mean.toFixed(1)));
          ft.appendChild(tr);
        });
        box.appendChild(ft);
        var legend = el("details", "fair-legend");
        legend.appendChild(el("summary", "", ui.fair_legend_title));
        legend.appendChild(el("p", "", fmt(ui.fair_legend, { seat: who })));
        box.appendChild(legend);
      }
      if (!a) { return; }
      entry.analysis_lines.forEach(function (line) { box.appendChild(el("p", "", line)); });
      if (entry.analysis_table.length) {
        var c = entry.view.contract;
        var table = el("table", "makeable");
        table.appendChild(el("caption", "", fmt(ui.makeable_table, { seat: c.bidder })));
        entry.analysis_table.forEach(function (r) {
          var tr = el("tr", r.makeable ? "yes" : "no");
          tr.appendChild(el("th", "", r.trump));
          tr.appendChild(el("td", "value", String(r.value)));
          tr.appendChild(el("td", "", r.makeable ? "\u2713" : "\u2717"));
          table.appendChild(tr);
        });
        box.appendChild(table);
      }
      var list = el("ol", "costs");
      a.plays.forEach(function (p) {
        if (!p.cost && !p.fate) { return; }
        var item = el("li", "cost" + (p.fate ? " fate-" + p.fate : ""));
        item.setAttribute("data-order", p.order);
        item.appendChild(el("span", "by", p.order + " " + p.seat));
        item.appendChild(domino(p.tile.split(" ")[0], true));
        item.appendChild(el("span", "minus", "\u2212" + p.cost));
        p.best.forEach(function (t) {
          item.appendChild(el("span", "arrow", "\u2192"));
          item.appendChild(domino(t.split(" ")[0], true));
        });
        if (p.hidden_best && !p.best.length) {
          // The best play was a tile this observer may not see (R29): said, never drawn.
          item.appendChild(el("span", "arrow", "\u2192"));
          item.appendChild(el("span", "never-played", ui.never_played));
        }
        item.appendChild(el("span", "best-value", String(p.best_value)));
        if (p.fate) { item.appendChild(el("span", "fate", p.fate === "lost" ? "LOST" : "LET MAKE")); }
        list.appendChild(item);
      });
      if (list.childNodes.length) { box.appendChild(list); }
    }

    // -- the match page: marks after each hand (a chart drawn from the views) and the hands

    function lastView(h) { return h.views[h.views.length - 1].view; }

    function drawChart() {
      var box = document.getElementById("chart");
      box.replaceChildren();
      var n = DATA.hands.length;
      var unit = n && lastView(DATA.hands[0]).score_unit === "points" ? "points" : "marks";
      var goal = unit === "points" ? 250 : 7;
      var series = { "A+C": [0], "B+D": [0] };
      DATA.hands.forEach(function (h) {
        var m = lastView(h).marks;
        TEAMS.forEach(function (t) { series[t].push(m[t]); });
      });
      var top = goal;
      TEAMS.forEach(function (t) { series[t].forEach(function (x) { top = Math.max(top, x); }); });
      var W = 640, H = 260, L = 44, R = 70, T = 16, B = 36;
      var sx = function (i) { return L + (n ? i * (W - L - R) / n : 0); };
      var sy = function (y) { return T + (H - T - B) * (1 - y / top); };
      var s = svgEl("svg", { viewBox: "0 0 " + W + " " + H, role: "img" });
      s.setAttribute("aria-label", unit === "points" ? ui.match_chart_points : ui.match_chart);
      s.appendChild(svgEl("line", { "class": "axis", x1: L, y1: sy(0), x2: W - R, y2: sy(0) }));
      s.appendChild(svgEl("line", { "class": "axis", x1: L, y1: sy(0), x2: L, y2: sy(top) }));
      s.appendChild(svgEl("line", { "class": "goal", x1: L, y1: sy(goal), x2: W - R, y2: sy(goal) }));
      var g = svgEl("text", { x: W - R + 4, y: sy(goal) + 4 });
      g.textContent = fmt(ui.goal, { goal: goal });
      s.appendChild(g);
      [0, top].forEach(function (y) {
        var t = svgEl("text", { x: L - 6, y: sy(y) + 4, "text-anchor": "end" });
        t.textContent = String(y);
        s.appendChild(t);
      });
      for (var i = 1; i <= n; i++) {
        if (n <= 20 || i % Math.ceil(n / 20) === 0) {
          var x = svgEl("text", { x: sx(i), y: H - B + 18, "text-anchor": "middle" });
          x.textContent = String(i);
          s.appendChild(x);
        }
      }
      TEAMS.forEach(function (t) {
        var k = t.replace("+", "");
        var pts = series[t].map(function (y, i) { return sx(i).toFixed(1) + "," + sy(y).toFixed(1); }).join(" ");
        s.appendChild(svgEl("polyline", { "class": "line-" + k, points: pts }));
        series[t].forEach(function (y, i) {
          if (!i) { return; }
          var dot = svgEl("circle", { "class": "dot-" + k, cx: sx(i), cy: sy(y), r: 4 });
          dot.setAttribute("data-team", t);
          dot.setAttribute("data-hand", i);
          dot.setAttribute("data-marks", y);
          var tt = svgEl("title", {});
          tt.textContent = fmt(ui.hand_n, { number: i }) + ": " + t + " " + y;
          dot.appendChild(tt);
          s.appendChild(dot);
        });
        var last = series[t][series[t].length - 1];
        var lab = svgEl("text", { x: sx(n) + 6, y: sy(last) + (t === "A+C" ? -4 : 14), "class": "label-" + k });
        lab.textContent = t + " " + last;
        s.appendChild(lab);
      });
      box.appendChild(s);
      document.getElementById("chart-caption").textContent = unit === "points" ? ui.match_chart_points : ui.match_chart;
    }

    function drawHandList() {
      var list = document.getElementById("hand-list");
      list.replaceChildren();
      DATA.hands.forEach(function (h, i) {
        var item = el("li", "");
        item.setAttribute("data-hand", h.number);
        var a = el("a", "", fmt(ui.hand_n, { number: h.number }));
        a.href = "#hand-" + h.number + "-1";
        a.setAttribute("aria-label", fmt(ui.open_hand, { number: h.number }));
        item.appendChild(a);
        if (h.summary) {
          item.appendChild(document.createTextNode(" "));
          item.appendChild(el("span", "contract", h.summary.contract));
          if (h.summary.result) {
            item.appendChild(document.createTextNode(" "));
            item.appendChild(el("span", "result", h.summary.result));
          }
        }
        list.appendChild(item);
      });
    }

    function drawMatch() {
      document.getElementById("match-title").textContent = ui.match;
      document.getElementById("hands-title").textContent = ui.match_hands;
      document.getElementById("match-cards-title").textContent = ui.match_cards;
      drawChart();
      drawHandList();
      drawMatchCards();
    }

    function setPage(match) {
      showMatch = match;
      document.getElementById("hand-page").hidden = match;
      document.getElementById("match-page").hidden = !match;
      var btn = document.getElementById("match-btn");
      btn.setAttribute("aria-pressed", match ? "true" : "false");
      btn.textContent = match ? ui.back : ui.match;
      ["prev-hand", "prev", "next", "next-hand"].forEach(function (id) {
        document.getElementById(id).hidden = match;
      });
      document.getElementById("position").hidden = match;
      if (match) {
        drawMatch();
        if (window.location.hash !== "#match") {
          try { history.replaceState(null, "", "#match"); } catch (err) { /* file:// may refuse */ }
        }
      } else {
        draw();
      }
    }

    // The hand's story as a list: every call, the declaration and every play by trick up
    // to the moment shown (never one still to come), each a button to its moment, with its
    // mark as the moment's own view holds it (so no more than this observer may see) and a
    // marker where it has comments.
    function drawMoves() {
      var hand = DATA.hands[pos.hand];
      var list = document.getElementById("moves");
      list.replaceChildren();
      var last = hand.views[pos.view].view;
      var marks = {};
      ((last.fair && last.fair.plays) || []).forEach(function (p) { if (p.mark) { marks["play " + p.order] = p.mark; } });
      ((last.auction_fair && last.auction_fair.calls) || []).forEach(function (c) { if (callMark(c)) { marks["call " + c.order] = callMark(c); } });
      if (last.auction_fair && last.auction_fair.declaration && last.auction_fair.declaration.mark) {
        marks.declaration = last.auction_fair.declaration.mark;
      }
      var noted = {};
      ((DATA.notes && DATA.notes.groups) || []).forEach(function (g) { if (g.hand === last.hand) { noted[g.on] = true; } });
      var row = null, hereMark = "";
      hand.views.forEach(function (entry, i) {
        var v = entry.view, key = null, text = null;
        // the last call's moment is the auction's end ("auction"): it is listed too
        if ((v.moment === "call" || v.moment === "auction") && v.auction.length) {
          var c = v.auction[v.auction.length - 1];
          key = "call " + v.auction.length;
          text = c.seat + " " + callText(c);
        } else if (v.moment === "declaration" && v.contract) {
          key = "declaration";
          var c2 = v.contract;
          text = c2.declarer + " " + (c2.special === "nello" ? "Nel-O" : c2.special === "sevens" ? "Sevens"
            : (DATA.trumps && DATA.trumps[c2.trump]) || String(c2.trump));
        } else if (v.moment === "play" && v.trick && v.trick.plays.length) {
          var p = v.trick.plays[v.trick.plays.length - 1];
          key = "play " + v.play;
          text = p.seat + " " + p.tile;
        }
        if (key === null || i > pos.view) { return; }
        if (i === pos.view) { hereMark = marks[key] || ""; }
        if (row === null || v.moment !== "play" || (v.trick.plays.length === 1)) {
          row = el("li", v.moment === "play" ? "trick" : v.moment);
          if (v.moment === "play") { row.appendChild(el("span", "trick-no", String(v.trick.number) + ".")); }
          list.appendChild(row);
        }
        var b = el("button", "move" + (i === pos.view ? " here" : ""), text + (marks[key] ? " " + marks[key] : "") + (noted[key] ? " \u270e" : ""));
        b.type = "button";
        if (i === pos.view) { b.setAttribute("aria-current", "step"); }
        b.addEventListener("click", function () { pos.view = i; draw(); });
        row.appendChild(b);
      });
      if (!list.children.length && last.moment === "end") { listEnded(last, marks, noted, list); }
      // the mark of the move just made, beside the position: on a phone's first screen too
      var badge = document.getElementById("here-mark");
      if (badge) {
        badge.hidden = !hereMark;
        badge.textContent = hereMark;
        badge.setAttribute("aria-label", hereMark ? fmt(ui.here_mark, { mark: hereMark }) : "");
      }
    }

    // A review is of the hand as it ended (R29): one view, no moment to step to. Its list
    // is that view's own: every call, the declaration and every play of its tricks.
    function listEnded(v, marks, noted, list) {
      function item(cls, text, key) {
        var li = el("li", cls);
        li.appendChild(el("span", "move", text + (marks[key] ? " " + marks[key] : "") + (noted[key] ? " \u270e" : "")));
        list.appendChild(li);
        return li;
      }
      (v.auction || []).forEach(function (c, k) { item("call", c.seat + " " + callText(c), "call " + (k + 1)); });
      var c2 = v.contract;
      if (c2 && (c2.trump || c2.special)) {
        item("declaration", c2.declarer + " " + (c2.special === "nello" ? "Nel-O" : c2.special === "sevens" ? "Sevens"
          : (DATA.trumps && DATA.trumps[c2.trump]) || String(c2.trump)), "declaration");
      }
      (v.won || []).slice().sort(function (a, b) { return a.number - b.number; }).forEach(function (t) {
        var li = el("li", "trick");
        li.appendChild(el("span", "trick-no", String(t.number) + "."));
        t.plays.forEach(function (p) {
          var key = "play " + p.order;
          li.appendChild(el("span", "move", p.seat + " " + p.tile + (marks[key] ? " " + marks[key] : "") + (noted[key] ? " \u270e" : "")));
        });
        list.appendChild(li);
      });
    }

    // The hand as a graph up to the moment shown: for an observer holding the open-hand
    // analysis, the bidders' value after each play; for a seat, its fair chance at its own
    // decisions. A marked play (LOST / LET MAKE, or ? / ??) is a dot that jumps there.
    function drawGraph() {
      var hand = DATA.hands[pos.hand];
      var v = hand.views[pos.view].view;
      var box = document.getElementById("graph-box");
      var holder = document.getElementById("graph");
      holder.replaceChildren();
      var pts = [], caption = "", top = 1;
      if (v.analysis && v.analysis.plays.length) {
        v.analysis.plays.forEach(function (p) { pts.push({ n: p.order, y: p.value, marked: !!p.fate }); });
        caption = ui.graph_open; top = 42;
      } else if (v.fair && v.fair.plays.length && SEATS.indexOf(DATA.observer) >= 0) {
        v.fair.plays.forEach(function (p) {
          if (p.forced) { return; }
          var made = Object.keys(p.values).filter(function (k) { return k.split(" led ")[0] === p.tile; })[0];
          if (made !== undefined) { pts.push({ n: p.order, y: p.values[made].share, marked: !!p.mark }); }
        });
        caption = fmt(ui.graph_fair, { seat: DATA.observer });
      }
      box.hidden = pts.length === 0;
      if (!pts.length) { return; }
      // room on the left and below for the axes' labels: 0 and the top (42 points, or
      // 100% of the chance), the first and last play, and what the x axis counts
      var W = 280, H = 104, L = 30, R = 8, T = 8, B = 18;
      var sx = function (n) { return L + (n - 1) * (W - L - R) / 27; };
      var sy = function (y) { return H - B - y / top * (H - T - B); };
      var svg = svgEl("svg", { viewBox: "0 0 " + W + " " + H, role: "img", "aria-label": caption });
      svg.appendChild(svgEl("line", { x1: L, y1: sy(0), x2: W - R, y2: sy(0), "class": "axis" }));
      svg.appendChild(svgEl("line", { x1: L, y1: sy(0), x2: L, y2: sy(top), "class": "axis" }));
      function tick(x, y, text, anchor) {
        var t = svgEl("text", { x: x, y: y, "class": "tick", "text-anchor": anchor });
        t.textContent = text;
        svg.appendChild(t);
      }
      tick(L - 4, sy(top) + 4, top === 42 ? "42" : "100%", "end");
      tick(L - 4, sy(0) + 3, top === 42 ? "0" : "0%", "end");
      tick(sx(1), H - 4, "1", "middle");
      tick(sx(28), H - 4, "28", "middle");
      tick((L + W - R) / 2, H - 4, ui.graph_x, "middle");
      svg.appendChild(svgEl("polyline", { points: pts.map(function (p) { return sx(p.n) + "," + sy(p.y); }).join(" "), "class": "line" }));
      pts.forEach(function (p) {
        var dot = svgEl("circle", { cx: sx(p.n), cy: sy(p.y), r: p.marked ? 5 : 2.5, "class": p.marked ? "marked" : "dot" });
        if (p.marked) {
          dot.setAttribute("data-play", String(p.n));
          dot.appendChild(svgEl("title", {})).textContent = fmt(ui.graph_jump, { n: p.n });
          dot.addEventListener("click", function () {
            var i = hand.views.findIndex(function (e) { return e.view.moment === "play" && e.view.play === p.n; });
            if (i >= 0) { pos.view = i; draw(); }
          });
        }
        svg.appendChild(dot);
      });
      holder.appendChild(svg);
      document.getElementById("graph-caption").textContent = caption;
    }

    // Each seat's score card, counted from what a view holds (a seat: its own decisions;
    // review: the seats whose figures it may see; omniscient: all): judged decisions
    // (forced ones excluded), ? and ??, accuracy (the mean of 1 − chance lost) and at best
    // (the share that lost nothing); a call's expected marks given up count as half as
    // much chance (docs/analysis.md, "Score cards"). A team's card is its two seats' sum,
    // shown only where both seats' are.
    // A call's mark: by the contract its auction ends in (format 1.11), or as 1.10 stated it.
    function callMark(c) { return c.contract ? c.contract.mark : c.mark; }
    function countCards(v, cards) {
      function add(seat, part, lost, mark) {
        var c = cards[seat] = cards[seat] || { plays: [0, 0, 0, 0, 0], calls: [0, 0, 0, 0, 0] };
        var r = c[part];
        r[0] += 1; r[1] += mark === "?" ? 1 : 0; r[2] += mark === "??" ? 1 : 0; r[3] += lost; r[4] += lost === 0 ? 1 : 0;
      }
      ((v.fair && v.fair.plays) || []).forEach(function (p) { if (!p.forced) { add(p.seat, "plays", p.chance_lost, p.mark); } });
      var af = v.auction_fair;
      ((af && af.calls) || []).forEach(function (c) {
        var lost = c.contract ? c.contract.lost : c.marks_lost;
        if (lost !== undefined) { add(c.seat, "calls", Math.min(1, lost / 2), callMark(c)); }
      });
      if (af && af.declaration) { add(af.declaration.seat, "calls", af.declaration.chance_lost, af.declaration.mark); }
      return cards;
    }
    function showCards(list, box, cards) {
      list.replaceChildren();
      var rows = SEATS.filter(function (s) { return cards[s]; }).map(function (s) { return [s, cards[s]]; });
      TEAMS.forEach(function (t) {
        var two = t.split("+");
        if (!cards[two[0]] || !cards[two[1]]) { return; }
        var sum = {};
        ["plays", "calls"].forEach(function (part) {
          sum[part] = cards[two[0]][part].map(function (x, i) { return x + cards[two[1]][part][i]; });
        });
        rows.push([t, sum]);
      });
      box.hidden = rows.length === 0;
      function pct(r, k) { return r[0] ? Math.round((k === 3 ? 1 - r[3] / r[0] : r[4] / r[0]) * 100) + "%" : "-"; }
      rows.forEach(function (row) {
        var p = row[1].plays, c = row[1].calls;
        var li = el("li", "card", fmt(ui.card_line, {
          who: row[0], pn: p[0], pq: p[1], pqq: p[2], pa: pct(p, 3), pb: pct(p, 4),
          cn: c[0], cq: c[1], cqq: c[2], ca: pct(c, 3), cb: pct(c, 4) }));
        li.setAttribute(row[0].length === 1 ? "data-seat" : "data-team", row[0]);
        list.appendChild(li);
      });
    }
    function drawCards() {
      showCards(document.getElementById("cards"), document.getElementById("cards-box"),
        countCards(DATA.hands[pos.hand].views[pos.view].view, {}));
    }
    // The match's cards: each hand's cards at its last moment, summed.
    function drawMatchCards() {
      var cards = {};
      DATA.hands.forEach(function (h) { countCards(lastView(h), cards); });
      showCards(document.getElementById("match-cards"), document.getElementById("match-cards-box"), cards);
    }

    function draw() {
      var entry = current();
      var v = entry.view;
      var hand = DATA.hands[pos.hand];
      var broken = document.getElementById("broken");
      broken.hidden = !hand.broken;
      broken.textContent = hand.broken ? "\u26a0 " + hand.broken : "";
      fill(document.getElementById("position"), entry.moment + " — " +
        ui.position.replace("{at}", String(pos.view + 1)).replace("{of}", String(hand.views.length)));
      document.getElementById("board").setAttribute("aria-label", plain(entry.description));
      drawTable(v, entry);
      drawWon(v);
      drawAnalysis(entry);
      drawMoves();
      drawGraph();
      drawCards();
      var text = document.getElementById("text");
      text.replaceChildren();
      // Line 0 is the header (hand, moment, observer): the navigation and the page's
      // header say it already.
      // The moment's comments are in the page once (DATA.notes); their lines go where
      // notes_at says.
      var noteLines = window.T42Viewer.notesOf(DATA, v).map(function (n) { return n.line; });
      var at = entry.notes_at === undefined ? entry.lines.length : entry.notes_at;
      entry.lines.slice(0, at).concat(noteLines, entry.lines.slice(at)).forEach(function (line, i) {
        if (i === 0) { return; }
        text.appendChild(el("p", i < at && entry.description_lines.indexOf(i) >= 0 ? "description" : "", line));
      });
      document.getElementById("prev").disabled = pos.hand === 0 && pos.view === 0;
      document.getElementById("prev-hand").disabled = pos.hand === 0;
      document.getElementById("next-hand").disabled = pos.hand === DATA.hands.length - 1;
      document.getElementById("next").disabled = pos.hand === DATA.hands.length - 1 && pos.view === hand.views.length - 1;
      var hash = "#hand-" + (pos.hand + 1) + "-" + (pos.view + 1);
      if (window.location.hash !== hash) {
        try { history.replaceState(null, "", hash); } catch (err) { /* some file:// pages refuse; stepping still works */ }
      }
      if (hooks.drawn) { hooks.drawn({ hand: pos.hand, view: pos.view }, entry); }
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

    // "#hand-H-I" (a moment), "#match" (the match page); anything else is ignored.
    function follow(hash) {
      if (hash === "#match") { setPage(true); return true; }
      var m = /^#hand-(\d+)-(\d+)$/.exec(hash);
      if (m) {
        var h = Number(m[1]) - 1, i = Number(m[2]) - 1;
        if (h >= 0 && h < DATA.hands.length && i >= 0 && i < DATA.hands[h].views.length) {
          pos.hand = h; pos.view = i;
          setPage(false);
          return true;
        }
      }
      return false;
    }

    function init() {
      var obs = document.getElementById("observer");
      obs.textContent = DATA.observer_label;
      if (DATA.omniscient) { obs.className = "omniscient"; }
      if (DATA.in_play) {
        var inPlay = document.getElementById("in-play");
        inPlay.textContent = DATA.in_play;
        inPlay.hidden = false;
      }
      document.getElementById("won-title").textContent = ui.won;
      document.getElementById("legend").textContent = ui.legend;
      document.getElementById("analysis-title").textContent = ui.analysis;
      document.getElementById("moves-title").textContent = ui.moves;
      document.getElementById("cards-title").textContent = ui.cards;
      document.getElementById("keys").textContent = ui.keys;
      [["prev-hand", ui.prev_hand, "\u25c0\u25c0 ", function () { jumpHand(-1); }],
       ["prev", ui.prev, "\u25c0 ", function () { step(-1); }],
       ["next", ui.next, "\u25b6 ", function () { step(1); }],
       ["next-hand", ui.next_hand, "\u25b6\u25b6 ", function () { jumpHand(1); }]].forEach(function (b) {
        var btn = document.getElementById(b[0]);
        btn.replaceChildren(el("span", "symbol", b[2]), el("span", "btn-label", b[1]));
        btn.setAttribute("aria-label", b[1]);
        btn.onclick = b[3];
      });
      document.getElementById("match-btn").onclick = function () { setPage(!showMatch); };
      window.onhashchange = function () { follow(window.location.hash); };
      document.onkeydown = function (e) {
        var k = e.key;
        if (typing(e) || e.ctrlKey || e.metaKey || e.altKey) { return; }
        if (showMatch) {
          if (k === "Escape" || k === "m") { setPage(false); e.preventDefault(); }
          return;
        }
        if (k === "ArrowRight") { step(1); }
        else if (k === "ArrowLeft") { step(-1); }
        else if (k === "PageDown" || k === "ArrowDown") { jumpHand(1); }
        else if (k === "PageUp" || k === "ArrowUp") { jumpHand(-1); }
        else if (k === "Home") { pos.hand = 0; pos.view = 0; draw(); }
        else if (k === "End") { pos.hand = DATA.hands.length - 1; pos.view = DATA.hands[pos.hand].views.length - 1; draw(); }
        else if (k === "m") { setPage(true); }
        else { return; }
        e.preventDefault();
      };
      var asked = window.location.hash;
      if (!follow(asked)) { setPage(false); }
    }
    init();
    return { position: function () { return { hand: pos.hand, view: pos.view, match: showMatch }; } };
  }

  // The page's comments, once (DATA.notes: groups of the comments on one target, each
  // comment's fields as a list), as objects numbered in order, each with its line.
  var FIELDS = ["id", "text", "author", "seat", "edited_by"];
  function allNotes(DATA) {
    if (DATA._notes) { return DATA._notes; }
    var table = DATA.notes || { groups: [] }, out = [];
    table.groups.forEach(function (g) {
      g.items.forEach(function (item) {
        var n = { on: g.on };
        FIELDS.forEach(function (f, i) { if (item[i] !== undefined && item[i] !== null) { n[f] = item[i]; } });
        var values = { on: g.label, author: n.author, text: n.text };
        n.line = (n.author ? table.line_by : table.line).replace(/\{(on|author|text)\}/g, function (all, k) { return values[k]; });
        out.push(n);
      });
    });
    Object.defineProperty(DATA, "_notes", { value: out, enumerable: false });
    return out;
  }
  // A moment's comments: its runs [first, count] of that numbering.
  function notesOf(DATA, v) {
    var all = allNotes(DATA), out = [];
    (v.notes || []).forEach(function (run) {
      for (var k = run[0]; k < run[0] + run[1]; k++) { out.push(all[k]); }
    });
    return out;
  }

  window.T42Viewer = { mount: mount, notesOf: notesOf };
  var given = document.getElementById("t42-data");
  if (given) { mount(JSON.parse(given.textContent)); }
}());
