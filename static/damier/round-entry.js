/* The round page: one key per result, then the cursor goes to the next board.
 *
 * a puts the result both players reported from the board (when they agree) on its row.
 * Keys come from the page (#dm-key-map, the same codes the slip box reads on the server): 2, 1, 0 for
 * White wins, draw, Black wins; + - = for the forfeits. Digits are also read by their key position
 * (event.code), so a French AZERTY keyboard needs no Shift. Only the results the board's menu offers
 * are set; a bye row is skipped. Without this script the menus are ordinary menus and the form posts
 * the same way.
 *
 * The page opens with the cursor on the first board without a result, so the arbiter types at once. A
 * mouse click on a board's menu, the one the page opened on included, puts the cursor there without
 * opening the list: an open list would take the keys itself (and Esc would leave whatever it
 * highlighted). A second click on the same menu opens the list, and a tap on a phone opens it at once
 * (no keys to type there).
 */
(function () {
  "use strict";
  // The admin loads form media in the page's head: wait for the table.
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }

  function start() {
  var mapNode = document.getElementById("dm-key-map");
  if (!mapNode) { return; }
  var keyMap = JSON.parse(mapNode.textContent);
  var selects = Array.prototype.slice.call(document.querySelectorAll("select.dm-result"));
  var live = document.getElementById("dm-live");
  var save = document.getElementById("dm-save");
  var slip = document.getElementById("id_slip");
  var confirmAgreed = document.getElementById("dm-confirm-agreed");
  var confirmAgreedHelp = document.getElementById("dm-confirm-agreed-help");

  function keyOf(event) {
    if (Object.prototype.hasOwnProperty.call(keyMap, event.key)) { return event.key; }
    if (event.key === "\u2212" || event.code === "NumpadSubtract") { return "-"; }
    if (event.code === "NumpadAdd") { return "+"; }
    var digit = /^(?:Digit|Numpad)([0-9])$/.exec(event.code || "");
    if (digit && Object.prototype.hasOwnProperty.call(keyMap, digit[1])) { return digit[1]; }
    return null;
  }

  function offers(select, value) {
    return Array.prototype.some.call(select.options, function (o) { return o.value === value; });
  }

  function nextAfter(select) {
    for (var i = selects.indexOf(select) + 1; i < selects.length; i++) {
      if (!selects[i].dataset.bye && !selects[i].disabled) { return selects[i]; }
    }
    return save;
  }

  // A board set in the table leaves the slip box: a refused slip item ("7 bye") kept there would
  // otherwise be read again on the next save and override what the arbiter just chose.
  function dropFromSlip(select) {
    var row = select.closest("tr");
    var match = row && /^dm-board-(\d+)$/.exec(row.id);
    if (!slip || !match || !slip.value.trim()) { return; }
    var kept = slip.value.split(/[,;\n]+/).filter(function (item) {
      var board = /^\s*(\d+)/.exec(item);
      return item.trim() && !(board && board[1] === match[1]);
    });
    var text = kept.map(function (item) { return item.trim(); }).join(", ");
    if (text !== slip.value) { slip.value = text; }
  }

  function set(select, value) {
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    var label = select.options[select.selectedIndex] ? select.options[select.selectedIndex].text : value;
    if (live) { live.textContent = select.getAttribute("aria-label").replace(/,[^,]*$/, "") + ": " + label; }
  }

  selects.forEach(function (select) {
    select.addEventListener("change", function () {
      dropFromSlip(select);
      // The one-button confirmation leaves the page: results typed and not saved would be lost with it.
      if (confirmAgreed) { confirmAgreed.disabled = true; }
      if (confirmAgreedHelp) { confirmAgreedHelp.hidden = false; }
    });
    select.addEventListener("pointerdown", function (event) {
      if (event.pointerType !== "mouse" || event.button !== 0) { return; }
      // Only a click on a menu the mouse already chose opens its list: the menu the page or a key
      // put the cursor on (board 1 when the page opens) takes the first click like any other.
      if (document.activeElement === select && select.dataset.dmPointed === "1") { return; }
      event.preventDefault();
      select.dataset.dmFocusedByPointer = "1";
      select.dataset.dmPointed = "1";
      select.focus();
    });
    select.addEventListener("blur", function () { delete select.dataset.dmPointed; });
    select.addEventListener("mousedown", function (event) {
      // Chromium opens the list on mousedown even when pointerdown was cancelled.
      if (select.dataset.dmFocusedByPointer === "1") { event.preventDefault(); }
      delete select.dataset.dmFocusedByPointer;
    });
    select.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) { return; }
      if (event.key === "Backspace" || event.key === "Delete") {
        event.preventDefault();
        set(select, "");
        return;
      }
      // a: the result both players reported from the board (the row's data-dm-reported), when they agree.
      var row = select.closest("tr");
      var agreed = row && row.dataset.dmReported;
      if ((event.key === "a" || event.key === "A") && agreed && offers(select, agreed)) {
        event.preventDefault();
        set(select, agreed);
        var after = nextAfter(select);
        if (after) { after.focus(); }
        return;
      }
      var key = keyOf(event);
      if (key === null || !offers(select, keyMap[key])) { return; }
      event.preventDefault();
      set(select, keyMap[key]);
      var next = nextAfter(select);
      if (next) { next.focus(); }
    });
  });

  var first = selects.filter(function (s) { return !s.dataset.bye && !s.disabled && !s.value; })[0];
  if (first && !document.querySelector(".errornote, .errorlist")) { first.focus(); }
  }
})();
