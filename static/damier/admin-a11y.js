// Names for the admin's unnamed controls (#20). Django's tabular inlines put a field's name in the column
// header only: a screen reader reaching a select or box in the grid hears no label. Each such control is
// named here after its column and its row ("Result, Board 3: Groeneveld – Mbemba"); a control that already
// has a label (a page can give its own) is left alone. Also the filter-widget search icons, whose
// aria-label sits on a plain span (not allowed by ARIA), become images.
(function () {
  "use strict";
  function text(el) { return (el ? el.textContent : "").replace(/\s+/g, " ").trim(); }

  function nameInlineControls(root) {
    root.querySelectorAll(".inline-group .tabular table").forEach(function (table) {
      // Header and body cells line up one to one: both start with the "original" cell and keep hidden ones.
      var heads = table.querySelectorAll("thead th");
      table.querySelectorAll("tbody tr.form-row").forEach(function (tr, index) {
        var row = text(tr.querySelector("td.original p")) ||
          (tr.id && /-\d+$/.test(tr.id) ? "#" + (parseInt(tr.id.split("-").pop(), 10) + 1) : "#" + (index + 1));
        tr.querySelectorAll(":scope > td").forEach(function (td, i) {
          var header = text(heads[i]).replace(/\s*\?$/, "");
          td.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (control) {
            if ((control.labels && control.labels.length) || control.getAttribute("aria-label") ||
                control.getAttribute("aria-labelledby")) { return; }
            control.setAttribute("aria-label", header ? header + ", " + row : row);
          });
        });
      });
    });
  }

  function fixFilterIcons(root) {
    root.querySelectorAll(".help-tooltip.search-label-icon[aria-label]:not([role])").forEach(function (span) {
      span.setAttribute("role", "img");
    });
  }

  function run() { nameInlineControls(document); fixFilterIcons(document); }
  document.addEventListener("DOMContentLoaded", run);
  // A "Print" button: the pages carry no inline handler, which the Content-Security-Policy refuses.
  document.addEventListener("click", function (event) {
    var button = event.target.closest ? event.target.closest("[data-dm-print]") : null;
    if (button) { window.print(); }
  });
  // SelectFilter2 draws its widgets on load; an added inline row arrives with "formset:added".
  window.addEventListener("load", function () { setTimeout(run, 0); });
  document.addEventListener("formset:added", run);
})();
