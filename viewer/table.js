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
  // The page's words in its language (the views' catalogue, served with the page).
  var WORDS = JSON.parse($("words").textContent);
  var LANG = WORDS.lang, W = WORDS.words;
  var PLURAL = new Intl.PluralRules(LANG);
  function T(key, params) {
    var t = W[key];
    if (t === undefined) { return key; }
    return t.replace(/\{(\w+)\}/g, function (m, k) {
      return params && params[k] !== undefined && params[k] !== null ? String(params[k]) : m;
    });
  }
  function plural(n, key) {
    var k = key + "." + PLURAL.select(n);
    return T(W[k] === undefined ? key + ".other" : k, { n: n });
  }
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
    if (c.call === "pass") { return T("table.pass"); }
    var what = c.call === "marks" ? plural(c.bid, "table.marks") : String(c.bid);
    return c.special ? what + " " + T("table." + c.special) : what;
  }
  // Trumps as players say them: "sixes", "doubles", "follow-me (no trump)".
  function trumpWords(trump) {
    var key = "table.suit." + String(trump);
    return W[key] === undefined ? String(trump) : T(key);
  }
  function contractText(c) {
    if (!c) { return ""; }
    var bid = c.kind === "marks" ? plural(c.marks, "table.marks") : String(c.bid);
    var trump = c.special === "nello" || c.special === "sevens" ? T("table." + c.special)
      : (c.trump === null ? T("table.to_declare") : trumpWords(c.trump));
    return T("table.contract", { bidder: c.bidder, bid: bid, trump: trump });
  }
  function scoreText(s) {
    var teams = Object.keys(s.score);
    var parts = teams.map(function (t) { return t + " " + s.score[t]; });
    var unit = T(s.unit === "marks" ? "table.unit.marks" : "table.unit.points");
    return T("table.score", { score: parts.join(" – "), unit: unit, goal: s.goal });
  }
  function team(seat) { return seat === "A" || seat === "C" ? "A+C" : "B+D"; }
  // In a point contract the points each side has taken and what the bidders still need
  // (R26: every won face may be seen); in an all-tricks contract the tricks only (R27).
  function tallyText(v) {
    var c = v.contract;
    if (!c || c.trump === null && !c.special) { return ""; }
    var bidders = team(c.bidder), others = bidders === "A+C" ? "B+D" : "A+C";
    if (c.kind === "points" && v.points) {
      return T("table.need", { bidders: bidders, bid: c.bid, taken: v.points[bidders],
        others: others, points: plural(v.points[others], "table.points") });
    }
    var t = v.tricks_won || {};
    return T("table.tricks", { bidders: bidders, a: t[bidders] || 0, others: others, b: t[others] || 0 });
  }
  // The trick just taken, by its faces and the team that won it, not by who played which (R28).
  function lastTrickText(v) {
    var won = v.won || [];
    if (!won.length) { return ""; }
    var w = won[won.length - 1];
    var said = { number: w.number, faces: (w.faces || []).join(" "), team: w.team };
    if (w.points === null || w.points === undefined) { return T("table.trick_taken", said); }
    said.points = plural(w.points, "table.points");
    return T("table.trick_taken.points", said);
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
    say(T("table.sending", { action: text }));
    api("POST", "/table/act", { moment: s.moment, action: text, request: requestId() }).then(function (r) {
      st.busy = false;
      // accepted: the push may already have shown a newer moment (the match over, say),
      // so the status is the newest state's, never cleared over it
      if (r.status === 200) { if (st.state.moment > s.moment) { status(st.state); } else { say(""); } return; }
      // The sentence names its rule already ("… (R16)"), in the page's language by its key.
      st.problem = { moment: s.moment, text: refusalText(r.body) };
      say(st.problem.text, "problem");
      if (r.status === 409) { refresh(); }
    });
  }
  // A refusal in the page's language: its message key's sentence with its parameters
  // (the words among them translated: a suit, what the seat tried, a turn's verb); a
  // refusal with no key (the server's own) keeps its sentence.
  var VERB_KEYS = { "call": "table.verb.call", "declare trumps": "table.verb.declare",
    "play": "table.verb.play", "deal": "table.verb.deal" };
  var TRIED_KEYS = { "call": "table.tried.call", "trump": "table.tried.trump",
    "tile": "table.tried.tile", "deal": "table.tried.deal", "play a tile": "table.tried.play_tile" };
  // A suit as the engine's English names it ("fives", "trumps", "doubles"), in the page's words.
  var SUIT_NAMES = ["blanks", "aces", "deuces", "treys", "fours", "fives", "sixes"];
  function suitWords(name) {
    var i = SUIT_NAMES.indexOf(name);
    return trumpWords(i >= 0 ? String(i) : name);
  }
  function refusalText(body) {
    if (!body || !body.key || W["refusal." + body.key] === undefined) {
      return (body && body.error) || T("table.refused");
    }
    var p = {};
    Object.keys(body.params || {}).forEach(function (k) { p[k] = body.params[k]; });
    if (p.verb !== undefined && VERB_KEYS[p.verb]) { p.verb = T(VERB_KEYS[p.verb]); }
    if (p.tried !== undefined && TRIED_KEYS[p.tried]) { p.tried = T(TRIED_KEYS[p.tried]); }
    if (p.suit !== undefined) { p.suit = suitWords(p.suit); }
    if (Array.isArray(p.follow)) { p.follow = p.follow.join(", "); }
    return T("refusal." + body.key, p);
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
      var label = seat === v.dealer ? T("table.dealer", { seat: name(s, seat) }) : name(s, seat);
      box.appendChild(el("div", "who", label));
      box.appendChild(el("div", "count", plural(v.counts[seat] || 0, "table.tiles")));
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
    $("last-title").textContent = T("table.hand", { n: l.hand });
    var marks = l.result_marks ? Object.keys(l.result_marks).map(function (t) { return t + " +" + l.result_marks[t]; }).join(", ") : "";
    var result = l.result && W["table.result." + l.result] !== undefined ? T("table.result." + l.result) : (l.result || "");
    var what = l.result === "no-contract" ? T("table.all_passed") : (contractText(l.contract) + ": " + result);
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
    $("mine-status").textContent = T("table.analysing");
    api("POST", "/table/ask", { hand: n, lang: LANG }).then(function (r) { followMine(n, r); });
  }
  function followMine(n, r) {
    if (st.asking !== n) { return; } // another hand is over meanwhile
    var b = r.body;
    if (r.status !== 200 || b.state === "failed") { $("mine-status").textContent = b.error || T("table.refused"); return; }
    if (b.state === "running") {
      $("mine-status").textContent = T("table.analysing_n", { done: b.done, of: b.of });
      setTimeout(function () { api("GET", "/table/ask?hand=" + n + "&lang=" + encodeURIComponent(LANG)).then(function (r2) { followMine(n, r2); }); }, 500);
      return;
    }
    $("mine-status").textContent = T("table.mine_done", { n: n });
    var list = clear($("mine"));
    b.lines.forEach(function (line) { list.appendChild(el("li", "", line)); });
  }

  function status(s) {
    if (st.problem && st.problem.moment === s.moment) { say(st.problem.text, "problem"); return; }
    st.problem = null;
    if (s.winner) { say(T("table.over", { winner: s.winner, score: scoreText(s) })); return; }
    var t = s.turn;
    if (!t) { say(""); return; }
    var verb = T("table.verb." + t.kind);
    if (t.seat === s.observer) { say(T("table.your_turn", { verb: verb }), "mine"); } else { say(T("table.their_turn", { seat: name(s, t.seat), verb: verb })); }
  }

  function render(s) {
    if (st.state && s.moment < st.state.moment) { return; } // an older push, after a newer answer
    st.state = s;
    document.body.dataset.moment = String(s.moment);
    document.body.dataset.turn = s.turn ? s.turn.seat + ":" + s.turn.kind : "over";
    $("title").textContent = ORDER.indexOf(s.observer) >= 0
      ? T("table.seat_title", { seat: name(s, s.observer), hand: s.view.hand })
      : T("table.onlookers_title", { hand: s.view.hand });
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
    var m = /^trump (\S+)$/.exec(a.action);
    var said = a.kind === "declare" ? T("table.said.trumps", { seat: a.seat, trump: m ? trumpWords(m[1]) : a.action })
      : a.kind === "call" ? (a.action === "pass" ? T("table.said.passes", { seat: a.seat }) : T("table.said.bids", { seat: a.seat, call: a.action }))
      : T("table.said.plays", { seat: a.seat, tile: a.action });
    $("said").textContent = said;
  }

  // Practice (one person against bots): the seat to act may ask the fair hint of its own
  // view. At a table of two or more people the server refuses it (table talk).
  function askHint() {
    var s = st.state;
    if (!s || st.offline) { return; }
    $("hint").textContent = T("table.thinking");
    api("POST", "/table/hint", {}).then(function (r) {
      st.hinted = s.moment;
      if (r.status !== 200) { $("hint").textContent = r.body.error || T("table.no_hint"); return; }
      var b = r.body;
      $("hint").textContent = b.chance === null ? T("table.hint_said", { action: b.suggestion })
        : T("table.hint_chance", { action: b.suggestion, chance: Math.round(b.chance * 100), worlds: b.worlds });
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
      box.textContent = T("table.down");
    } else if (was) {
      box.hidden = false;
      box.className = "back";
      box.textContent = T("table.back");
    }
  }

  // Once the match is over, the same address opens the whole match on the board.
  function renderAfter(s) {
    var over = !!s.winner;
    $("after").hidden = !over;
    $("comments-closed").hidden = over;
    if (over) { $("board-link").href = "/board?token=" + encodeURIComponent(TOKEN) + "&lang=" + encodeURIComponent(LANG); }
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
      box.appendChild(el("h2", "", T("table.calls")));
      var calls = el("ol");
      v.auction.forEach(function (c) { calls.appendChild(el("li", "", c.seat + ": " + callText(c))); });
      box.appendChild(calls);
      if (v.contract) { box.appendChild(el("p", "", contractText(v.contract))); }
      box.appendChild(el("h2", "", T("table.tricks_heading")));
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
