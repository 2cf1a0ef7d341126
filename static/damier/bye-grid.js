// The requested-byes grid: in a cell, 0, 1 or 2 choose the bye of that value and P, Delete or Backspace
// "plays"; Tab moves on (the browser's own). Native typing into a menu works without this file.
(function () {
  "use strict";
  var KEYS = { "0": "0", "1": "1", "2": "2", "p": "", "P": "", "Delete": "", "Backspace": "" };
  function mark(select) {
    var cell = select.closest("td");
    if (cell) { cell.classList.toggle("db-changed", select.value !== select.getAttribute("data-stored")); }
  }
  document.addEventListener("keydown", function (event) {
    var select = event.target;
    if (!select.classList || !select.classList.contains("db-select") || event.altKey || event.ctrlKey ||
        event.metaKey || !(event.key in KEYS)) { return; }
    var value = KEYS[event.key];
    for (var i = 0; i < select.options.length; i++) {
      if (select.options[i].value === value) {
        event.preventDefault();
        select.value = value;
        mark(select);
        return;
      }
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target.classList && event.target.classList.contains("db-select")) { mark(event.target); }
  });
})();
