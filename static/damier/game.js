// Steps through a game on the server-drawn board: it only swaps the class of each piece slot.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("positions").textContent);
  var svg = document.querySelector("#board svg");
  if (!data || !svg) { return; }
  var slots = {}, squares = {};
  svg.querySelectorAll("g.p").forEach(function (g) { slots[g.dataset.sq] = g; });
  svg.querySelectorAll("rect.dark").forEach(function (r) { squares[r.dataset.sq] = r; });
  var links = document.querySelectorAll("#moves a[data-ply]");
  var jumps = document.querySelectorAll("a[data-ply]");
  var label = document.getElementById("ply-label");
  var total = data.plies.length;
  var ply = parseInt((label.textContent || "0").split("/")[0], 10) || 0;

  function show(n) {
    ply = Math.max(0, Math.min(total, n));
    var code = ply === 0 ? data.start : data.plies[ply - 1][0];
    var lit = ply === 0 ? [] : data.plies[ply - 1][1];
    for (var sq = 1; sq <= 50; sq++) {
      slots[sq].setAttribute("class", "p " + code.charAt(sq - 1));
      squares[sq].setAttribute("class", lit.indexOf(sq) >= 0 ? "dark lit" : "dark");
    }
    label.textContent = ply + " / " + total;
    links.forEach(function (a) { a.classList.toggle("cur", parseInt(a.dataset.ply, 10) === ply); });
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
    if (e.target && /INPUT|SELECT|TEXTAREA/.test(e.target.tagName)) { return; }
    var keys = { ArrowLeft: -1, ArrowRight: 1 };
    if (e.key in keys) { show(ply + keys[e.key]); e.preventDefault(); }
    else if (e.key === "Home") { show(0); e.preventDefault(); }
    else if (e.key === "End") { show(total); e.preventDefault(); }
  });
})();
