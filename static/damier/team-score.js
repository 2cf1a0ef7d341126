/* The round page of a team competition: each match's score as the results are typed.
 *
 * A match's header row (tr.dm-match-head) holds the points of its unfilled boards (data-fixed-home,
 * data-fixed-away); each board's row holds its match (data-match) and whether the home team has White
 * (data-home-white). The points of each result are the page's (#dm-team-points: White's, Black's).
 * Without this script the score is the one the page was made with, and the form posts the same way.
 */
(function () {
  "use strict";
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }

  function start() {
    var pointsNode = document.getElementById("dm-team-points");
    if (!pointsNode) { return; }
    var points = JSON.parse(pointsNode.textContent);
    var live = document.getElementById("dm-team-live");

    function score(key) {
      var head = document.getElementById("dm-match-" + key);
      if (!head) { return null; }
      var home = parseInt(head.dataset.fixedHome, 10) || 0;
      var away = parseInt(head.dataset.fixedAway, 10) || 0;
      var rows = document.querySelectorAll("tr[data-match='" + key + "'][id^='dm-board-']");
      Array.prototype.forEach.call(rows, function (row) {
        var select = row.querySelector("select.dm-result");
        var value = select ? select.value : ((row.querySelector(".dm-fixed") || {}).textContent || "").trim();
        var got = points[value];
        if (!got) { return; }
        var homeWhite = row.dataset.homeWhite === "1";
        home += homeWhite ? got[0] : got[1];
        away += homeWhite ? got[1] : got[0];
      });
      var text = home + " \u2013 " + away;
      var out = document.getElementById("dm-score-" + key);
      if (out) { out.textContent = text; }
      return head.querySelector(".dm-match-teams").textContent + " " + text;
    }

    document.querySelectorAll("tr.dm-match-head").forEach(function (head) { score(head.dataset.match); });
    document.addEventListener("change", function (event) {
      var select = event.target;
      if (!select.matches || !select.matches("select.dm-result")) { return; }
      var row = select.closest("tr[data-match]");
      if (!row) { return; }
      var said = score(row.dataset.match);
      // Its own polite region: round-entry.js says the board's result in #dm-live, then this the match score.
      if (said && live) { live.textContent = said; }
    });
  }
})();
