/* A team's captain is chosen from the register by Django's autocomplete (select2), whose box carries no
 * accessible name: each box is named by the label of the menu it stands for. jQuery builds the boxes when
 * it is ready, which may come after this script: it looks again a few times until every box is there. */
(function () {
  "use strict";
  var tries = 0;
  function name() {
    var waiting = false;
    Array.prototype.forEach.call(document.querySelectorAll("select.admin-autocomplete"), function (select) {
      var label = document.querySelector("label[for='" + select.id + "']");
      var box = select.nextElementSibling;
      if (!box || !box.classList.contains("select2")) { waiting = true; return; }
      if (!label) { return; }
      var words = label.textContent.replace(/[:\s]+$/, "");
      Array.prototype.forEach.call(box.querySelectorAll(".select2-selection, .select2-selection__rendered"),
        function (el) { el.setAttribute("aria-label", words); });
    });
    if (waiting && tries++ < 40) { setTimeout(name, 50); }
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", name); } else { name(); }
})();
