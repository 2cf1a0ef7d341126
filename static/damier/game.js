// Steps through a game on the server-drawn board: it swaps the class of each piece slot, moves the
// last-move arrow, and says the move and the position in words with the sentences the server translated
// (tournaments/viewer.py builds the same ones for the first drawing).
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("positions").textContent);
  var svg = document.querySelector("#board svg");
  if (!data || !svg) { return; }
  var words = data.words;
  var english = (document.documentElement.lang || "en").slice(0, 2) === "en";
  var slots = {}, squares = {};
  svg.querySelectorAll("g.p").forEach(function (g) { slots[g.dataset.sq] = g; });
  svg.querySelectorAll("rect.dark").forEach(function (r) { squares[r.dataset.sq] = r; });
  var arrows = svg.querySelectorAll("g.lastmove polyline");
  var links = document.querySelectorAll("#moves a[data-ply]");
  var jumps = document.querySelectorAll("a[data-ply]");
  var said = document.getElementById("move-now");
  var label = document.getElementById("ply-label");
  var positionText = document.getElementById("position-text");
  var total = data.plies.length;
  var ply = parseInt((new URLSearchParams(location.search)).get("ply"), 10);
  if (isNaN(ply) || ply > total) { ply = total; }

  function fill(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_, k) { return String(values[k]); });
  }
  function codeAt(n) { return n === 0 ? data.start : data.plies[n - 1][0]; }
  function side(white) { return white ? words.white : words.black; }

  // The same reading as viewer.announcement; the irregularity note is the sheet's (English) text.
  function announce(n) {
    said.textContent = "";
    if (n === 0) { said.textContent = words.start; return; }
    var p = data.plies[n - 1], before = codeAt(n - 1), after = p[0], white = p[3] === 1;
    var theirs = white ? "bB" : "wW", taken = [];
    for (var sq = 1; sq <= 50; sq++) {
      if (theirs.indexOf(before.charAt(sq - 1)) >= 0 && after.charAt(sq - 1) === "e") { taken.push(sq); }
    }
    var text = fill(words.move, { number: p[2], side: side(white), move: p[4] });
    if (taken.length) {
      text += ", " + fill(taken.length === 1 ? words.captured_one : words.captured_many,
                          { count: taken.length, squares: taken.join(", ") });
    }
    if (p[5]) {
      text += ", " + words.irregular + ": ";
      var note = document.createElement("span");
      if (!english) { note.lang = "en"; }
      note.textContent = p[5];
      said.append(text, note);
    } else {
      said.textContent = text;
    }
  }

  function describePosition(n) {
    var code = codeAt(n), parts = [];
    [["white", "w", "W"], ["black", "b", "B"]].forEach(function (s) {
      var men = [], kings = [];
      for (var sq = 1; sq <= 50; sq++) {
        if (code.charAt(sq - 1) === s[1]) { men.push(sq); }
        if (code.charAt(sq - 1) === s[2]) { kings.push(sq); }
      }
      parts.push(fill(words.side, {
        side: words[s[0]],
        men: men.length ? fill(words.men, { squares: men.join(", ") }) : words.no_men,
        kings: kings.length ? fill(words.kings, { squares: kings.join(", ") }) : words.no_kings,
      }));
    });
    var mover = n < total ? data.plies[n][3] === 1 : (total ? data.plies[total - 1][3] !== 1 : null);
    if (mover !== null) { parts.push(fill(words.to_move, { side: side(mover) })); }
    positionText.textContent = parts.join(" ");
  }

  function drawArrow(lit) {
    var points = lit.length < 2 ? "" : lit.map(function (sq) {
      var r = squares[sq];
      return (+r.getAttribute("x") + 20) + "," + (+r.getAttribute("y") + 20);
    }).join(" ");
    arrows.forEach(function (line) { line.setAttribute("points", points); });
  }

  function show(n) {
    ply = Math.max(0, Math.min(total, n));
    var code = codeAt(ply);
    var lit = ply === 0 ? [] : data.plies[ply - 1][1];
    for (var sq = 1; sq <= 50; sq++) {
      slots[sq].setAttribute("class", "p " + code.charAt(sq - 1));
      squares[sq].setAttribute("class", lit.indexOf(sq) >= 0 ? "dark lit" : "dark");
    }
    drawArrow(lit);
    announce(ply);
    svg.setAttribute("aria-label", fill(words.board, { what: said.textContent }));
    describePosition(ply);
    label.textContent = fill(words.ply, { n: ply, total: total });
    links.forEach(function (a) {
      var current = parseInt(a.dataset.ply, 10) === ply;
      a.classList.toggle("cur", current);
      if (current) { a.setAttribute("aria-current", "step"); } else { a.removeAttribute("aria-current"); }
    });
    document.getElementById("prev").href = "?ply=" + Math.max(0, ply - 1);
    document.getElementById("next").href = "?ply=" + Math.min(total, ply + 1);
    if (window.history && history.replaceState) { history.replaceState(null, "", "?ply=" + ply); }
  }

  function on(id, f) {
    document.getElementById(id).addEventListener("click", function (e) { e.preventDefault(); f(); });
  }
  on("first", function () { show(0); });
  on("prev", function () { show(ply - 1); });
  on("next", function () { show(ply + 1); });
  on("last", function () { show(total); });
  jumps.forEach(function (a) {
    a.addEventListener("click", function (e) { e.preventDefault(); show(parseInt(a.dataset.ply, 10)); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey) { return; }
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) { return; }
    var keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in keys) { show(ply + keys[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(total); e.preventDefault(); }
  });
})();
