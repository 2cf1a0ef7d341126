/* The round page: one key per result, then the cursor goes to the next board.
 *
 * Keys come from the page (#dm-key-map, the same codes the slip box reads on the server): 2, 1, 0 for
 * White wins, draw, Black wins; + - = for the forfeits. Digits are also read by their key position
 * (event.code), so a French AZERTY keyboard needs no Shift. Only the results the board's menu offers
 * are set; a bye row is skipped. Without this script the menus are ordinary menus and the form posts
 * the same way.
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

  function set(select, value) {
    select.value = value;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    var label = select.options[select.selectedIndex] ? select.options[select.selectedIndex].text : value;
    if (live) { live.textContent = select.getAttribute("aria-label").replace(/,[^,]*$/, "") + ": " + label; }
  }

  selects.forEach(function (select) {
    select.addEventListener("keydown", function (event) {
      if (event.ctrlKey || event.altKey || event.metaKey || event.isComposing) { return; }
      if (event.key === "Backspace" || event.key === "Delete") {
        event.preventDefault();
        set(select, "");
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
  }
})();
