/* The line-up screen: beside each box, the player it names as it is typed (a roster place number or
 * the start of a name), read the way the server reads it (tournaments/competitions/lineup_input.py).
 * The roster is the fieldset's data-roster: [[place, "Surname, Given"], ...]. Without this script
 * the names show after the save.
 */
(function () {
  "use strict";
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }

  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  }

  function names(entry) {
    // "Surname, Given": the surname, "given surname", and the whole
    var parts = entry[1].split(", ");
    var surname = fold(parts[0] || "");
    var given = fold(parts.slice(1).join(", "));
    return [surname, fold(given + " " + surname), fold(entry[1])];
  }

  function find(typed, roster) {
    var text = typed.trim();
    if (!text) { return ""; }
    if (/^[0-9]+$/.test(text)) {
      var place = parseInt(text, 10);
      var hit = roster.filter(function (e) { return e[0] === place; })[0];
      return hit ? hit[1] : "?";
    }
    var wanted = fold(text);
    var fits = roster.filter(function (e) {
      return names(e).some(function (n) { return n.indexOf(wanted) === 0; });
    });
    return fits.length === 1 ? fits[0][1] : "?";
  }

  function start() {
    document.querySelectorAll("fieldset[data-roster]").forEach(function (fieldset) {
      var roster = JSON.parse(fieldset.dataset.roster);
      fieldset.querySelectorAll("input[type=text]").forEach(function (input) {
        input.addEventListener("input", function () {
          var out = document.getElementById(input.getAttribute("aria-describedby"));
          if (out) { out.textContent = find(input.value, roster); }
        });
      });
    });
  }
})();
