// texas42 table: one seat's page of a match the server referees. It shows what the
// server pushes for this address (a seat's view of the moment, or the public's) and
// sends this seat's action when it is its turn: a tile tapped, a call or a trump chosen
// from the legal ones. The server decides; a refusal is shown in its own sentence. The
// token comes from the page's address and goes in the Authorization header (and in
// the push channel's address); every text is set with textContent, never as HTML.
(function () {
  "use strict";
  var query = new URLSearchParams(window.location.search);
  var TOKEN = query.get("token") || "";
  var ORDER = ["A", "B", "C", "D"];
  var st = { state: null, busy: false, problem: null, source: null, reviewed: 0, asking: null,
    offline: false, seen: false };

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined && text !== null) { e.textContent = String(text); }
    return e;
  }
  function clear(e) { while (e.firstChild) { e.removeChild(e.firstChild); } return e; }
  function say(text, kind) {
    var s = $("status");
    s.textContent = text || "";
    s.className = kind || "";
  }
  var api = window.texas42Wire(TOKEN, "the table");

  function requestId() {
    var a = new Uint8Array(16);
    window.crypto.getRandomValues(a);
    return Array.prototype.map.call(a, function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
  }
  function name(s, seat) {
    var players = (s.view && s.view.players) || {};
    return players[seat] ? seat + " (" + players[seat] + ")" : seat;
  }
  // A tile drawn with its pips, as the viewer draws it (viewer/domino.js); its name is
  // what a screen reader says.
  function tile(text, tag) {
    var t = el(tag || "span", "tile");
    t.setAttribute("aria-label", text);
    if (!/^\[[0-6]\|[0-6]\]$/.test(text)) { t.textContent = text; return t; }
    var face = window.texas42Domino.domino(text, false);
    face.setAttribute("aria-hidden", "true");
    t.appendChild(face);
    return t;
  }
  function callText(c) {
    if (c.call === "pass") { return "pass"; }
    var what = c.call === "marks" ? c.bid + " mark" + (c.bid === 1 ? "" : "s") : String(c.bid);
    return c.special ? what + " " + c.special : what;
  }
  // Trumps as players say them: "sixes", "doubles", "follow-me (no trump)".
  var SUITS = ["blanks", "aces", "deuces", "treys", "fours", "fives", "sixes"];
  function trumpWords(trump) {
    if (/^[0-6]$/.test(String(trump))) { return SUITS[Number(trump)]; }
    if (trump === "no-trump") { return "follow-me (no trump)"; }
    return String(trump);
  }
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many); }
  function contractText(c) {
    if (!c) { return ""; }
    var bid = c.kind === "marks" ? plural(c.marks, "mark", "marks") : String(c.bid);
    var special = { nello: "Nel-O", sevens: "Sevens", plunge: "a Plunge", splash: "a Splash" };
    var trump = c.special === "nello" || c.special === "sevens" ? special[c.special]
      : (c.trump === null ? "trumps to declare" : trumpWords(c.trump));
    return c.bidder + " bid " + bid + ", " + trump;
  }
  function scoreText(s) {
    var teams = Object.keys(s.score);
    var parts = teams.map(function (t) { return t + " " + s.score[t]; });
    var unit = s.unit === "marks" ? "marks" : "points";
    return parts.join(" – ") + " " + unit + " (to " + s.goal + ")";
  }
  function team(seat) { return seat === "A" || seat === "C" ? "A+C" : "B+D"; }
  // In a point contract the points each side has taken and what the bidders still need
  // (R26: every won face may be seen); in an all-tricks contract the tricks only (R27).
  function tallyText(v) {
    var c = v.contract;
    if (!c || c.trump === null && !c.special) { return ""; }
    var bidders = team(c.bidder), others = bidders === "A+C" ? "B+D" : "A+C";
    if (c.kind === "points" && v.points) {
      return bidders + " need " + c.bid + ": " + v.points[bidders] + " so far · " + others +
        " " + plural(v.points[others], "point", "points");
    }
    var t = v.tricks_won || {};
    return "Tricks: " + bidders + " " + (t[bidders] || 0) + " · " + others + " " + (t[others] || 0);
  }
  // The trick just taken, by its faces and the team that won it, not by who played which (R28).
  function lastTrickText(v) {
    var won = v.won || [];
    if (!won.length) { return ""; }
    var w = won[won.length - 1];
    var faces = (w.faces || []).join(" ");
    var pts = w.points === null || w.points === undefined ? "" : ", " + plural(w.points, "point", "points");
    return "Trick " + w.number + (faces ? " (" + faces + ")" : "") + " taken by " + w.team + pts;
  }
  // The four places round the felt, this page's seat at the bottom (the public: A).
  function places(me) {
    var i = ORDER.indexOf(me);
    if (i < 0) { i = 0; }
    return { bottom: ORDER[i], left: ORDER[(i + 1) % 4], top: ORDER[(i + 2) % 4], right: ORDER[(i + 3) % 4] };
  }

  function act(text) {
    var s = st.state;
    if (st.busy || !s || st.offline) { return; }
    st.busy = true;
    say("Sending " + text + "…");
    api("POST", "/table/act", { moment: s.moment, action: text, request: requestId() }).then(function (r) {
      st.busy = false;
      // accepted: the push may already have shown a newer moment (the match over, say),
      // so the status is the newest state's, never cleared over it
      if (r.status === 200) { if (st.state.moment > s.moment) { status(st.state); } else { say(""); } return; }
      // The sentence names its rule already ("… (R16)").
      st.problem = { moment: s.moment, text: r.body.error || "refused" };
      say(st.problem.text, "problem");
      if (r.status === 409) { refresh(); }
    });
  }
  function refresh() {
    api("GET", "/table/state").then(function (r) { if (r.status === 200) { render(r.body); } });
  }

  function renderSeats(s) {
    var v = s.view;
    var at = places(ORDER.indexOf(s.observer) >= 0 ? s.observer : "A");
    var trick = v.trick || { plays: [] };
    var played = {};
    trick.plays.forEach(function (p) { played[p.seat] = p.tile; });
    var cells = { top: [0, 1], left: [1, 0], right: [1, 2], bottom: [2, 1] };
    var grid = clear($("trick"));
    var slots = [];
    for (var k = 0; k < 9; k++) { var c = el("div", "slot"); slots.push(c); grid.appendChild(c); }
    Object.keys(at).forEach(function (pos) {
      var seat = at[pos];
      var box = clear($("pos-" + pos));
      var label = name(s, seat) + (seat === v.dealer ? " · deals" : "");
      box.appendChild(el("div", "who", label));
      box.appendChild(el("div", "count", plural(v.counts[seat] || 0, "tile", "tiles")));
      box.className = "seat" + (s.turn && s.turn.seat === seat ? " to-act" : "");
      box.dataset.seat = seat;
      if (played[seat]) {
        var cell = cells[pos];
        var t = tile(played[seat]);
        t.dataset.seat = seat;
        slots[cell[0] * 3 + cell[1]].appendChild(t);
      }
    });
  }

  function renderHand(s) {
    var v = s.view;
    var box = clear($("hand"));
    var mine = (v.hands && v.hands[s.observer]) || [];
    var playing = s.turn && s.turn.seat === s.observer && s.turn.kind === "play";
    mine.forEach(function (t) {
      var b = tile(t, "button");
      b.type = "button";
      b.dataset.tile = t;
      b.disabled = !playing;
      if (playing && s.legal.indexOf(t) >= 0) { b.classList.add("legal"); }
      b.addEventListener("click", function () { act(t); });
      box.appendChild(b);
    });
    var calls = clear($("calls"));
    var choosing = s.turn && s.turn.seat === s.observer && (s.turn.kind === "call" || s.turn.kind === "declare");
    calls.hidden = !choosing;
    if (choosing) {
      s.legal.forEach(function (a) {
        var b = el("button", "", a);
        b.type = "button";
        b.dataset.action = a;
        b.addEventListener("click", function () { act(a); });
        calls.appendChild(b);
      });
    }
  }

  function renderAuction(s) {
    var list = clear($("auction"));
    s.view.auction.forEach(function (c) { list.appendChild(el("li", "", c.seat + ": " + callText(c))); });
  }

  function renderLast(s) {
    var box = $("last");
    var l = s.last;
    box.hidden = !l;
    if (!l) { return; }
    $("last-title").textContent = "Hand " + l.hand;
    var marks = l.result_marks ? Object.keys(l.result_marks).map(function (t) { return t + " +" + l.result_marks[t]; }).join(", ") : "";
    var what = l.result === "no-contract" ? "all passed" : (contractText(l.contract) + ": " + (l.result || ""));
    $("last-result").textContent = what + (marks ? " (" + marks + ")" : "");
    if (st.reviewed !== l.hand) { clear($("review")); $("review").hidden = true; }
    // a seat may ask the fair analysis of its own actions in the hand just over
    $("mine-open").hidden = ORDER.indexOf(s.observer) < 0;
    if (st.asking !== l.hand) { clear($("mine")); $("mine-status").textContent = ""; st.asking = null; }
  }

  function askMine() {
    var s = st.state;
    if (!s || !s.last) { return; }
    var n = s.last.hand;
    st.asking = n;
    $("mine-status").textContent = "Analysing…";
    api("POST", "/table/ask", { hand: n }).then(function (r) { followMine(n, r); });
  }
  function followMine(n, r) {
    if (st.asking !== n) { return; } // another hand is over meanwhile
    var b = r.body;
    if (r.status !== 200 || b.state === "failed") { $("mine-status").textContent = b.error || "refused"; return; }
    if (b.state === "running") {
      $("mine-status").textContent = "Analysing: " + b.done + " of " + b.of + "…";
      setTimeout(function () { api("GET", "/table/ask?hand=" + n).then(function (r2) { followMine(n, r2); }); }, 500);
      return;
    }
    $("mine-status").textContent = "Hand " + n + ", fair: over the deals you could not tell apart.";
    var list = clear($("mine"));
    b.lines.forEach(function (line) { list.appendChild(el("li", "", line)); });
  }

  function status(s) {
    if (st.problem && st.problem.moment === s.moment) { say(st.problem.text, "problem"); return; }
    st.problem = null;
    if (s.winner) { say("The match is over: " + s.winner + " won. " + scoreText(s) + "."); return; }
    var t = s.turn;
    if (!t) { say(""); return; }
    var verb = { call: "call", declare: "declare trumps", play: "play", deal: "deal" }[t.kind];
    if (t.seat === s.observer) { say("Your turn to " + verb + ".", "mine"); } else { say(name(s, t.seat) + " to " + verb + "."); }
  }

  function render(s) {
    if (st.state && s.moment < st.state.moment) { return; } // an older push, after a newer answer
    st.state = s;
    document.body.dataset.moment = String(s.moment);
    document.body.dataset.turn = s.turn ? s.turn.seat + ":" + s.turn.kind : "over";
    var who = ORDER.indexOf(s.observer) >= 0 ? "seat " + name(s, s.observer) : "onlookers";
    $("title").textContent = "texas42 table · " + who + " · hand " + s.view.hand;
    $("score").textContent = scoreText(s);
    $("contract").textContent = contractText(s.view.contract);
    $("tally").textContent = tallyText(s.view);
    $("last-trick").textContent = lastTrickText(s.view);
    renderSeats(s);
    renderHand(s);
    renderAuction(s);
    renderLast(s);
    renderAfter(s);
    status(s);
    nudge(s);
    announce(s.last_action);
    $("hint-box").hidden = !s.hint;
    if (st.hinted !== s.moment) { $("hint").textContent = ""; }
    connection(st.offline);
  }

  // Asked for (the box, kept in this browser): when the turn becomes this seat's, a short
  // vibration where the device has one, else a short tone. Never on a page's first state.
  function nudge(s) {
    var mine = !!(s.turn && s.turn.seat === s.observer);
    var was = st.mineBefore;
    st.mineBefore = mine;
    if (!mine || was !== false || !$("alert-turn").checked) { return; }
    if (navigator.vibrate && navigator.vibrate(120)) { return; }
    try {
      var Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) { return; }
      st.audio = st.audio || new Ctx();
      var o = st.audio.createOscillator(), g = st.audio.createGain();
      o.frequency.value = 660; g.gain.value = 0.08;
      o.connect(g); g.connect(st.audio.destination);
      o.start(); o.stop(st.audio.currentTime + 0.15);
    } catch (err) { /* no sound here: the status line still says it */ }
  }
  function keepAlert() {
    var box = $("alert-turn");
    try { box.checked = window.localStorage.getItem("texas42-alert-turn") === "1"; } catch (err) { /* private mode */ }
    box.addEventListener("change", function () {
      try { window.localStorage.setItem("texas42-alert-turn", box.checked ? "1" : "0"); } catch (err) { /* kept for this page only */ }
    });
  }

  // Each call, trump and play is announced to screen readers (the live region #said).
  function announce(a) {
    if (!a) { return; }
    var what = a.kind === "declare" ? a.action.replace(/^trump (\S+)$/, function (_, t) { return "trumps " + trumpWords(t); })
      : a.kind === "call" ? (a.action === "pass" ? "passes" : "bids " + a.action) : "plays " + a.action;
    $("said").textContent = a.seat + " " + what + ".";
  }

  // Practice (one person against bots): the seat to act may ask the fair hint of its own
  // view. At a table of two or more people the server refuses it (table talk).
  function askHint() {
    var s = st.state;
    if (!s || st.offline) { return; }
    $("hint").textContent = "Thinking…";
    api("POST", "/table/hint", {}).then(function (r) {
      st.hinted = s.moment;
      if (r.status !== 200) { $("hint").textContent = r.body.error || "no hint"; return; }
      var b = r.body, pct = b.chance === null ? "" : " (" + Math.round(b.chance * 100) + "% chance, from " + b.worlds + " deals you cannot tell apart)";
      $("hint").textContent = "Hint: " + b.suggestion + pct;
    });
  }

  // Honest about the connection: while the push channel is down the page says so at once
  // and offers no action (what it shows may be old); it says when the table is back.
  function connection(down) {
    var was = st.offline;
    st.offline = down;
    document.body.classList.toggle("offline", down);
    var box = $("connection");
    Array.prototype.forEach.call(document.querySelectorAll("#calls button, #hand button"),
      function (b) { if (down) { b.disabled = true; } });
    if (down) {
      box.hidden = false;
      box.className = "down";
      box.textContent = "The table is not answering: nothing can be played until it is back. " +
        "This page tries again by itself.";
    } else if (was) {
      box.hidden = false;
      box.className = "back";
      box.textContent = "The table is back.";
    }
  }

  // Once the match is over, the same address opens the whole match on the board.
  function renderAfter(s) {
    var over = !!s.winner;
    $("after").hidden = !over;
    $("comments-closed").hidden = over;
    if (over) { $("board-link").href = "/board?token=" + encodeURIComponent(TOKEN); }
  }

  function review() {
    var s = st.state;
    if (!s || !s.last) { return; }
    var n = s.last.hand;
    api("GET", "/table/hand?n=" + n + "&as=review").then(function (r) {
      var box = clear($("review"));
      box.hidden = false;
      if (r.status !== 200) { box.appendChild(el("p", "problem", r.body.error)); return; }
      st.reviewed = n;
      var v = r.body;
      box.appendChild(el("h2", "", "Calls"));
      var calls = el("ol");
      v.auction.forEach(function (c) { calls.appendChild(el("li", "", c.seat + ": " + callText(c))); });
      box.appendChild(calls);
      if (v.contract) { box.appendChild(el("p", "", contractText(v.contract))); }
      box.appendChild(el("h2", "", "Tricks"));
      var tricks = el("ol");
      v.won.forEach(function (w) {
        var li = el("li");
        (w.plays || []).forEach(function (p) { li.appendChild(el("span", "play", p.seat + " " + p.tile + " ")); });
        li.appendChild(el("span", "won", "→ " + (w.winner || w.team) + (w.points !== null ? ", " + w.points : "")));
        tricks.appendChild(li);
      });
      box.appendChild(tricks);
    });
  }

  function connect() {
    if (st.source) { st.source.close(); }
    var es = new EventSource("/table/events?token=" + encodeURIComponent(TOKEN));
    st.source = es;
    es.onmessage = function (e) { st.seen = true; render(JSON.parse(e.data)); };
    es.onopen = function () { if (st.offline) { connection(false); refresh(); } };
    es.onerror = function () {
      // the browser tries again by itself (CONNECTING); a channel it gave up on (CLOSED)
      // is opened anew here
      if (st.seen) { connection(true); }
      if (es.readyState === EventSource.CLOSED) { setTimeout(connect, 2000); }
    };
  }
  $("review-open").addEventListener("click", review);
  $("hint-ask").addEventListener("click", askHint);
  $("mine-open").addEventListener("click", askMine);
  keepAlert();
  document.addEventListener("visibilitychange", function () { if (!document.hidden) { refresh(); } });
  connect();
})();
