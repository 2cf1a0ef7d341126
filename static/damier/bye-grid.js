// The requested-byes grid, by keyboard: in a cell, 0, 1 or 2 choose the bye of that value and P, Delete or
// Backspace "plays"; the arrow keys move to the cell above, below, left or right (a spreadsheet's keys, so
// they no longer change the menu's value); Tab moves on as everywhere. Without this file the menus still
// take the browser's own typing.
(function () {
  "use strict";
  var KEYS = { "0": "0", "1": "1", "2": "2", "p": "", "P": "", "Delete": "", "Backspace": "" };
  var MOVES = { "ArrowUp": [-1, 0], "ArrowDown": [1, 0], "ArrowLeft": [0, -1], "ArrowRight": [0, 1] };
  function mark(select) {
    var cell = select.closest("td");
    if (cell) { cell.classList.toggle("db-changed", select.value !== select.getAttribute("data-stored")); }
  }
  function at(table, row, col) {
    var tr = table.tBodies[0].rows[row];
    var cell = tr && tr.cells[col];
    return cell ? cell.querySelector("select.db-select") : null;
  }
  function move(select, step) {
    var cell = select.closest("td"), tr = cell.parentElement, table = select.closest("table");
    var row = tr.sectionRowIndex, col = cell.cellIndex;
    var rows = table.tBodies[0].rows.length, cols = tr.cells.length;
    for (;;) {  // the next cell that has a menu (published rounds and players who left have none)
      row += step[0];
      col += step[1];
      if (row < 0 || row >= rows || col < 1 || col >= cols) { return; }
      var next = at(table, row, col);
      if (next) { next.focus(); return; }
    }
  }
  document.addEventListener("keydown", function (event) {
    var select = event.target;
    if (!select.classList || !select.classList.contains("db-select") || event.altKey || event.ctrlKey ||
        event.metaKey) { return; }
    if (event.key in MOVES) {
      event.preventDefault();
      move(select, MOVES[event.key]);
      return;
    }
    if (!(event.key in KEYS)) { return; }
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
