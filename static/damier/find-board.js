// "Find my board": the round page's rows carry their players' names folded (data-names: accents gone,
// lower case, the register's Latin key and the names as written); what is typed is folded the same way,
// and only the rows holding every word typed stay shown. A style rule does the hiding, so a row the live
// updates (live.js) patch keeps following the search. Enter, or the button, scrolls to the first board found.
(function () {
  "use strict";
  var input = document.getElementById("find-board");
  if (!input || !input.form || !document.head) { return; }
  var status = document.getElementById("find-status");
  var style = document.createElement("style");
  document.head.appendChild(style);

  function fold(text) {
    return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
      .replace(/ß/g, "ss").replace(/[øØ]/g, "o").replace(/æ/g, "ae").replace(/œ/g, "oe").replace(/ł/g, "l")
      .replace(/đ/g, "d").replace(/[^\p{L}\p{N}]+/gu, " ").trim();
  }

  function words() { return fold(input.value).split(" ").filter(Boolean); }
  function selector(list) {
    return list.map(function (w) { return '[data-names*="' + w + '"]'; }).join("");
  }
  function rows(list) {
    return list.length ? document.querySelectorAll("#pairings tbody tr" + selector(list)) : [];
  }

  function filter() {
    var list = words();
    style.textContent = list.length ? "#pairings tbody tr:not(" + selector(list) + ") { display: none; }" : "";
    var found = rows(list);
    Array.prototype.forEach.call(document.querySelectorAll("#pairings tbody tr.found"), function (r) {
      r.classList.remove("found");
    });
    Array.prototype.forEach.call(found, function (r) { r.classList.add("found"); });
    if (status) {
      status.textContent = !list.length ? "" : found.length
        ? (input.getAttribute("data-some") || "").replace("{n}", String(found.length))
        : input.getAttribute("data-none") || "";
    }
    var listed = document.getElementById("found-list");
    if (listed) { listed.hidden = true; }  // the server's answer to ?find=, now followed by the rows themselves
    return found;
  }

  input.addEventListener("input", filter);
  input.form.addEventListener("submit", function (event) {
    event.preventDefault();
    var found = filter();
    if (found.length) { found[0].scrollIntoView({ block: "center" }); }
  });
  if (input.value) { filter(); }
}());
