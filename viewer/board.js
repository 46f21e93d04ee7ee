// texas42 board: the HTML viewer, live. It asks its server for the views of the
// observer chosen (never the log), mounts the viewer on them, and adds the board's
// parts: the observer, asking the analysis (progress, cancel), and comments (add, edit,
// remove, undo, save). The token comes from the page's address and goes in the
// Authorization header of every request; no cookie is used. Every text from the log
// or a person is set with textContent, never parsed as HTML.
(function () {
  "use strict";
  var query = new URLSearchParams(window.location.search);
  var TOKEN = query.get("token") || "";
  // a page opened in a language of its own (a table's seat: ?lang=); else the board's
  var LANG = /^[a-z]{2,8}$/.test(query.get("lang") || "") ? query.get("lang") : "";
  // The board's labels come with the views, in their language (DATA.board_ui).
  var UI = {};
  function t(key, values) {
    var s = Object.prototype.hasOwnProperty.call(UI, key) ? UI[key] : key;
    return String(s).replace(/\{(\w+)\}/g, function (all, k) {
      return values && Object.prototype.hasOwnProperty.call(values, k) ? String(values[k]) : all;
    });
  }
  function observerLabel(o) { return /^[ABCD]$/.test(o) ? t("seat", { seat: o }) : t(o); }
  // The labels of the page's own parts, once the language is known.
  function label() {
    [["ask", "ask"], ["ask-cancel", "cancel"], ["undo", "undo"], ["save", "save"], ["comment-save", "save"],
     ["comments-title", "comments"], ["no-comments", "no_comments"], ["comment-cancel", "stop_edit"]
    ].forEach(function (p) { $(p[0]).textContent = t(p[1]); });
    $("comment-add").textContent = t(st.editing ? "keep_edit" : "add");
    [["as", "observer"], ["comment-on", "on"], ["comment-text", "comment"], ["comment-author", "author"]
    ].forEach(function (p) { document.querySelector("label[for='" + p[0] + "']").textContent = t(p[1]); });
    Array.prototype.forEach.call($("as").options, function (o) { o.textContent = observerLabel(o.value); });
  }
  var TOKEN_RE = /\uE000(\d+)\uE001/g;
  var st = {
    observer: null, observers: [], version: 0, data: null, entry: null, pos: null,
    pending: [], history: [], editing: null, question: null, saving: false, owner: false, savesTo: null,
    epoch: "", writer: null, retry: false, lost: false
  };

  function $(id) { return document.getElementById(id); }
  function say(id, text, problem) {
    // the save's status is said in the bar and again under the comment form's own Save
    (id === "save-status" ? [id, "comment-status"] : [id]).forEach(function (i) {
      var e = $(i);
      e.textContent = text || "";
      e.className = problem ? "problem" : "";
    });
  }
  var api = window.texas42Wire(TOKEN, "the board");

  // A log string from the views: its tokens replaced by the strings they stand for.
  function raw(text) {
    var strings = (st.data && st.data.strings) || [];
    return String(text === undefined || text === null ? "" : text).replace(TOKEN_RE, function (t, n) { return strings[Number(n)]; });
  }

  // -- what a comment is on, at this moment ----------------------------------------

  function targetsHere() {
    var v = st.entry && st.entry.view;
    if (!v) { return []; }
    var out = [];
    var calls = v.auction.length;
    if ((v.moment === "play" || v.moment === "trick" || v.moment === "end") && v.play > 0) {
      out.push({ label: t("on_play", { n: v.play }), on: { hand: v.hand, play: v.play } });
    } else if (v.moment === "declaration") {
      out.push({ label: t("on_declaration"), on: { hand: v.hand, declaration: true } });
    } else if (calls > 0) {
      out.push({ label: t("on_call", { n: calls }), on: { hand: v.hand, call: calls } });
    }
    // The action at hand: at a seat's decision (it is to play, and the hand as this page
    // holds it goes on), the play it makes next (its comments show from that play on).
    var hand = st.data && st.data.hands && st.data.hands[v.hand - 1];
    var later = hand ? hand.views.some(function (e) { return e.view.play > v.play; }) : false;
    if (v.to_play && later && (v.moment === "play" || v.moment === "trick" || v.moment === "declaration")) {
      var next = { label: t("on_play", { n: v.play + 1 }) + " · " + v.to_play, on: { hand: v.hand, play: v.play + 1 } };
      // first (the one chosen) where the seat to play is the one looking
      if (v.to_play === st.observer) { out.unshift(next); } else { out.push(next); }
    }
    out.push({ label: t("on_hand", { n: v.hand }), on: { hand: v.hand } });
    out.push({ label: t("on_match"), on: {} });
    return out;
  }
  function onText(on) {
    if (on.hand === undefined) { return t("on_match"); }
    if (on.play) { return t("on_play", { n: on.play }); }
    if (on.call) { return t("on_call", { n: on.call }); }
    if (on.declaration) { return t("on_declaration"); }
    return t("on_hand", { n: on.hand });
  }
  // A view's "on" ("play 5", "call 2", "declaration", "hand", "match") in the page's language.
  function noteOn(on) {
    var m;
    if ((m = /^play (\d+)$/.exec(on))) { return t("on_play", { n: m[1] }); }
    if ((m = /^call (\d+)$/.exec(on))) { return t("on_call", { n: m[1] }); }
    if (on === "declaration") { return t("on_declaration"); }
    if (on === "hand" && st.entry) { return t("on_hand", { n: st.entry.view.hand }); }
    return on === "match" ? t("on_match") : on;
  }

  // -- the comments panel ----------------------------------------------------------

  function pendingFor(id) {
    for (var i = st.pending.length - 1; i >= 0; i--) {
      if (st.pending[i].id === id) { return st.pending[i]; }
    }
    return null;
  }

  function drawComments() {
    var list = $("comments");
    list.replaceChildren();
    var v = st.entry && st.entry.view;
    var notes = v ? window.T42Viewer.notesOf(st.data, v) : [];
    notes.forEach(function (n) {
      var text = raw(n.text), author = n.author ? raw(n.author) : "";
      var change = pendingFor(n.id);
      var li = document.createElement("li");
      li.setAttribute("data-id", n.id);
      var on = document.createElement("span");
      on.className = "on";
      on.textContent = noteOn(n.on) + ":";
      li.appendChild(on);
      var body = document.createElement("bdi");  // a person's text, bidi isolated
      body.className = "text";
      if (change && change.op === "remove") {
        var del = document.createElement("del");
        del.textContent = text;
        body.appendChild(del);
        li.className = "pending";
      } else {
        body.textContent = change ? change.text : text;
        if (change) { li.className = "pending"; }
      }
      li.appendChild(body);
      var shownAuthor = author;  // an edit keeps who wrote the comment
      if (shownAuthor) {
        var by = document.createElement("bdi");
        by.className = "by";
        by.textContent = "— " + shownAuthor;
        li.appendChild(by);
      }
      if (n.edited_by) { li.setAttribute("data-edited-by", n.edited_by); }
      if (n.seat) { li.setAttribute("data-seat", n.seat); }
      // A seat's address changes only the comments it wrote; the owner's, any.
      var mine = st.writer === "owner" || (st.writer && n.seat === st.writer);
      if (mine && (!change || change.op !== "remove")) {
        li.appendChild(button(t("edit"), "edit", function () { startEdit(n, change ? change.text : text, shownAuthor); }));
        li.appendChild(button(t("remove"), "remove", function () {
          act({ op: "remove", id: n.id, base: text,
            was: { text: change ? change.text : text, author: shownAuthor, target: onTarget(n.on) } });
        }));
      }
      list.appendChild(li);
    });
    st.pending.forEach(function (c) {
      if (c.op !== "add" || !v || (c.on.hand !== undefined && c.on.hand !== v.hand)) { return; }
      var li = document.createElement("li");
      li.className = "pending";
      li.setAttribute("data-pending", "add");
      var on = document.createElement("span");
      on.className = "on";
      on.textContent = onText(c.on) + ":";
      li.appendChild(on);
      var body = document.createElement("bdi");
      body.className = "text";
      body.textContent = c.text;
      li.appendChild(body);
      if (c.author) {
        var by = document.createElement("bdi");
        by.className = "by";
        by.textContent = "— " + c.author;
        li.appendChild(by);
      }
      list.appendChild(li);
    });
    $("no-comments").hidden = list.childNodes.length > 0;
    var select = $("comment-on");
    var keep = select.value;
    select.replaceChildren();
    targetsHere().forEach(function (t, i) {
      var o = document.createElement("option");
      o.value = String(i);
      o.textContent = t.label;
      select.appendChild(o);
    });
    if (keep && Number(keep) < select.options.length) { select.value = keep; }
    select.disabled = !!st.editing;
  }

  function button(label, cls, fn) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = cls;
    b.textContent = label;
    b.onclick = fn;
    return b;
  }

  function startEdit(note, text, author) {
    st.editing = { id: note.id, base: raw(note.text), was: { text: text, author: author, target: onTarget(note.on) } };
    $("comment-text").value = text;  // the Author field stays the user's own
    $("comment-add").textContent = t("keep_edit");
    $("comment-cancel").hidden = false;
    $("comment-text").focus();
    drawComments();
  }
  function stopEdit() {
    st.editing = null;
    $("comment-text").value = "";
    $("comment-add").textContent = t("add");
    $("comment-cancel").hidden = true;
    drawComments();
  }

  // A change made in the page: pending until saved, and undoable.
  function act(change) {
    st.pending.push(change);
    st.history.push({ change: change, saved: false });
    changed();
  }
  function changed() {
    ["save", "comment-save"].forEach(function (id) {
      $(id).disabled = !st.pending.length || st.saving;
      $(id).className = st.pending.length ? "unsaved" : "";
    });
    $("undo").disabled = !st.history.length;
    say("save-status", st.pending.length ? t("unsaved", { n: st.pending.length }) : "");
    drawComments();
  }

  function undo() {
    var last = st.history.pop();
    if (!last) { return; }
    var c = last.change;
    if (!last.saved) {
      var i = st.pending.lastIndexOf(c);
      if (i >= 0) { st.pending.splice(i, 1); }
      changed();
      return;
    }
    // Saved already: undone by the opposite change, saved like any other.
    if (c.op === "add") {
      st.pending.push({ op: "remove", id: last.id, base: c.text, undoing: true });
    } else if (c.op === "edit") {
      st.pending.push({ op: "edit", id: last.id, base: c.text, text: c.was.text, undoing: true });
    } else {
      st.pending.push({ op: "add", on: last.on || {}, text: c.was.text, author: c.was.author, undoing: true });
    }
    changed();
  }

  function save() {
    if (!st.pending.length || st.saving) { return; }
    st.saving = true;
    changed();
    say("save-status", t("saving"));
    var sent = st.pending.slice();
    var changes = sent.map(function (c) {
      var out = { op: c.op };
      if (c.op === "add") { out.on = c.on; out.text = c.text; if (c.author) { out.author = c.author; } }
      else { out.id = c.id; out.base = c.base; }
      if (c.op === "edit") { out.text = c.text; }
      return out;
    });
    api("POST", "/api/save", { epoch: st.epoch, version: st.version, changes: changes }).then(function (r) {
      st.saving = false;
      if (r.status !== 200) {
        changed();
        if (r.status === 0) {
          // The board is not answering (restarted, stopped): the changes stay here and
          // are saved once it answers again.
          st.retry = true;
          say("save-status", t("not_saved", { error: t("board_away") }), true);
        } else if (r.status === 403 && /token/.test(r.body.error || "")) {
          st.lost = true;
          say("save-status", t("token_refused"), true);
        } else {
          say("save-status", t("not_saved", { error: r.body.error }), true);
          if (r.status === 409) { reload(); }
        }
        return;
      }
      st.retry = false;
      st.epoch = r.body.epoch;
      // Each change was applied or reported on its own: the page keeps none pending.
      st.pending = st.pending.filter(function (c) { return sent.indexOf(c) < 0; });
      var refused = [];
      sent.forEach(function (c, i) {
        var h = null;
        for (var j = 0; j < st.history.length; j++) { if (st.history[j].change === c) { h = st.history[j]; } }
        var o = r.body.outcomes[i];
        if (o.status !== "saved" && o.status !== "done") {
          if (h) { st.history.splice(st.history.indexOf(h), 1); }
          if (o.status !== "conflict") { refused.push({ change: c, outcome: o }); }
          return;
        }
        if (h) { h.saved = true; h.id = r.body.ids[i]; h.on = c.on || (c.was && c.was.target) || {}; }
      });
      drawConflicts(r.body.conflicts, sent, refused);
      var bad = r.body.conflicts.length + refused.length;
      say("save-status", bad
        ? t("partly", { n: sent.length - bad, m: bad }) : t(r.body.saved ? "saved" : "nothing"),
        bad > 0);
      reload();
    });
  }
  // What a comment shown here is on ("play 5", as the views say it, in this hand): for
  // adding it again when its removal is undone.
  function onTarget(on) {
    if (!st.entry || on === "match") { return {}; }
    var hand = st.entry.view.hand, m;
    if (on === "hand") { return { hand: hand }; }
    if (on === "declaration") { return { hand: hand, declaration: true }; }
    if ((m = /^play (\d+)$/.exec(on))) { return { hand: hand, play: Number(m[1]) }; }
    if ((m = /^call (\d+)$/.exec(on))) { return { hand: hand, call: Number(m[1]) }; }
    return {};
  }

  function drawConflicts(conflicts, sent, refused) {
    var list = $("conflicts");
    list.replaceChildren();
    // A change not made for another reason (not yours, past the cap): said, its text kept
    // here to copy; nothing stays pending.
    (refused || []).forEach(function (x) {
      var li = document.createElement("li");
      li.setAttribute("data-refused", x.outcome.status);
      var p = document.createElement("p");
      p.textContent = x.outcome.message;
      li.appendChild(p);
      if (x.change.text) {
        var q = document.createElement("blockquote");
        q.className = "yours";
        q.textContent = t("yours") + x.change.text;
        li.appendChild(q);
      }
      li.appendChild(button(t("keep_theirs"), "keep-theirs", function () { li.remove(); }));
      list.appendChild(li);
    });
    conflicts.forEach(function (k) {
      var li = document.createElement("li");
      li.setAttribute("data-conflict", k.id);
      var p = document.createElement("p");
      p.textContent = k.message;
      li.appendChild(p);
      [["theirs", k.theirs], ["yours", k.yours]].forEach(function (pair) {
        if (pair[1] === null || pair[1] === undefined) { return; }
        var q = document.createElement("blockquote");
        q.className = pair[0];
        q.textContent = t(pair[0] === "theirs" ? "now" : "yours") + pair[1];
        li.appendChild(q);
      });
      var mine = sent[k.index];
      if (k.yours !== null && k.theirs !== null) {
        li.appendChild(button(t("keep_mine"), "keep-mine", function () {
          li.remove();
          act({ op: "edit", id: k.id, base: k.theirs, text: k.yours, was: { text: k.theirs, author: "" } });
        }));
      } else if (k.yours !== null) {
        li.appendChild(button(t("add_again"), "keep-mine", function () {
          li.remove();
          act({ op: "add", on: (mine.was && mine.was.target) || {}, text: k.yours, author: mine.author });
        }));
      }
      li.appendChild(button(t("keep_theirs"), "keep-theirs", function () { li.remove(); }));
      list.appendChild(li);
    });
  }

  // -- asking the analysis ---------------------------------------------------------

  function ask() {
    if (!st.pos || st.question) { return; }
    var hand = st.pos.hand + 1;
    say("ask-status", t("asking", { hand: hand }));
    api("POST", "/api/ask", { hand: hand, as: st.observer }).then(function (r) {
      if (r.status !== 200) { say("ask-status", r.body.error, true); return; }
      follow(r.body.question, r.body);
    });
  }
  function follow(id, status) {
    st.question = id;
    var bar = $("ask-progress");
    function show(s) {
      if (s.state === "running") {
        bar.hidden = false;
        bar.max = Math.max(1, s.of);
        bar.value = s.done;
        $("ask-cancel").hidden = false;
        $("ask").disabled = true;
        say("ask-status", t("progress", { hand: s.hand, done: s.done, of: s.of }));
        window.setTimeout(function () {
          if (st.question !== id) { return; }
          api("GET", "/api/ask/" + id).then(function (r) { show(r.status === 200 ? r.body : { state: "failed", error: r.body.error }); });
        }, 250);
        return;
      }
      st.question = null;
      bar.hidden = true;
      $("ask-cancel").hidden = true;
      $("ask").disabled = st.observer === "public";
      if (s.state === "done") { say("ask-status", t("analysed", { hand: s.hand })); reload(); }
      else if (s.state === "cancelled") { say("ask-status", t("cancelled")); }
      else { say("ask-status", s.error || t("failed"), true); }
    }
    show(status);
  }
  function cancel() {
    var id = st.question;
    if (!id) { return; }
    st.question = null;
    api("DELETE", "/api/ask/" + id).then(function () {
      $("ask-progress").hidden = true;
      $("ask-cancel").hidden = true;
      $("ask").disabled = false;
      say("ask-status", t("cancelled"));
    });
  }

  // -- loading ---------------------------------------------------------------------

  function reload() { return load(st.observer); }

  function load(observer) {
    var url = "/api/data?as=" + encodeURIComponent(observer) + (LANG ? "&lang=" + LANG : "");
    return api("GET", url).then(function (r) {
      if (r.status !== 200) { say("save-status", r.body.error, true); return; }
      st.observer = observer;
      st.version = r.body.version;
      st.epoch = r.body.epoch;
      st.data = r.body.data;
      UI = st.data.board_ui || {};
      document.documentElement.lang = st.data.lang || "en";
      label();
      if (st.savesTo) { $("title").textContent = "texas42 board — " + t("saves_to", { path: st.savesTo }); }
      query.set("as", observer);
      try { history.replaceState(null, "", "?" + query.toString() + window.location.hash); } catch (e) { /* kept as it is */ }
      window.T42Viewer.mount(st.data, { drawn: function (pos, entry) { st.pos = pos; st.entry = entry; drawComments(); } });
      $("ask").disabled = observer === "public" || !!st.question;
      document.body.setAttribute("data-version", String(st.version));
      document.body.setAttribute("data-observer", observer);
    });
  }

  function watch() {
    window.setTimeout(function () {
      api("GET", "/api/about").then(function (r) {
        if (r.status === 403 && /token/.test(r.body.error || "")) {
          st.lost = true;
          say("save-status", t("token_refused"), true);
        } else if (r.status === 200 && st.retry && st.pending.length && !st.saving) {
          st.lost = false;
          save();  // the board is back: what it could not take is saved now
        } else if (r.status === 200 && (r.body.version > st.version || r.body.epoch !== st.epoch) && !st.saving) {
          st.lost = false;
          if (st.pending.length) { say("save-status", t("changed")); }
          else { reload(); }
        }
        watch();
      });
    }, 4000);
  }

  function start() {
    $("ask").onclick = ask;
    $("ask-cancel").onclick = cancel;
    $("save").onclick = save;
    $("comment-save").onclick = save;
    $("undo").onclick = undo;
    $("comment-cancel").onclick = stopEdit;
    try { $("comment-author").value = window.localStorage.getItem("t42-author") || ""; } catch (e) { /* none kept */ }
    $("comment-form").onsubmit = function (e) {
      e.preventDefault();
      var text = $("comment-text").value;
      var author = $("comment-author").value.trim();
      try { window.localStorage.setItem("t42-author", author); } catch (err) { /* not kept */ }
      if (!text.trim()) { say("save-status", t("needs_text"), true); return; }
      if (st.editing) {
        var ed = st.editing;
        st.editing = null;
        act({ op: "edit", id: ed.id, base: ed.base, text: text, author: author, was: ed.was });
        stopEdit();
        return;
      }
      var t = targetsHere()[Number($("comment-on").value) || 0];
      if (!t) { return; }
      act({ op: "add", on: t.on, text: text, author: author });
      $("comment-text").value = "";
    };
    document.addEventListener("keydown", function (e) {
      if ((e.ctrlKey || e.metaKey) && e.key === "s") { e.preventDefault(); save(); }
      else if ((e.ctrlKey || e.metaKey) && e.key === "z" && !/^(INPUT|TEXTAREA)$/.test(e.target.tagName)) { e.preventDefault(); undo(); }
    });
    window.addEventListener("beforeunload", function (e) {
      if (st.pending.length) { e.preventDefault(); e.returnValue = ""; }
    });
    api("GET", "/api/about").then(function (r) {
      if (r.status !== 200) { say("save-status", r.body.error, true); return; }
      st.observers = r.body.observers;
      st.owner = r.body.observers.length > 2;
      st.writer = r.body.writer || null;
      st.epoch = r.body.epoch;
      if (!r.body.writes) { $("comment-form").hidden = true; $("save").hidden = true; $("undo").hidden = true; }
      var select = $("as");
      st.observers.forEach(function (o) {
        var opt = document.createElement("option");
        opt.value = o;
        opt.textContent = o;
        select.appendChild(opt);
      });
      var wanted = query.get("as");
      var first = st.observers.indexOf(wanted) >= 0 ? wanted : (st.owner ? "omniscient" : st.observers[0]);
      select.value = first;
      select.onchange = function () { load(select.value); };
      st.savesTo = r.body.saves_to || null;
      load(first).then(watch);
    });
  }
  start();
}());
