// Wide tables on a narrow screen: a table that scrolls sideways says so (the hint under it, also read
// with the table), takes the keyboard focus so the arrow keys scroll it, and shows on which side more
// columns hide (data-overflow="left right", styled in site.css).
(function () {
  "use strict";
  function update(box) {
    var scroller = box.querySelector("[data-scroll]");
    var hint = document.getElementById(scroller.getAttribute("aria-labelledby").replace(/-caption$/, "-hint"));
    var wide = scroller.scrollWidth > scroller.clientWidth + 1;
    var sides = [];
    if (wide && scroller.scrollLeft > 1) { sides.push("left"); }
    if (wide && scroller.scrollLeft + scroller.clientWidth < scroller.scrollWidth - 1) { sides.push("right"); }
    box.setAttribute("data-overflow", sides.join(" "));
    scroller.setAttribute("data-overflow", sides.join(" "));
    if (hint) { hint.hidden = !wide; }
    if (wide) {
      scroller.setAttribute("tabindex", "0");
      if (hint) { scroller.setAttribute("aria-describedby", hint.id); }
    } else {
      scroller.removeAttribute("tabindex");
      scroller.removeAttribute("aria-describedby");
    }
  }
  var boxes = document.querySelectorAll(".scroll-box");
  boxes.forEach(function (box) {
    update(box);
    box.querySelector("[data-scroll]").addEventListener("scroll", function () { update(box); }, { passive: true });
  });
  window.addEventListener("resize", function () { boxes.forEach(update); });
})();
