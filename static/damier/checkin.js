/* The check-in screen by keyboard: the search keeps the focus; Enter marks the highlighted player present (or
   absent again), Space too while the search is empty, then the highlight moves to the next player; ↑/↓ move.
   Each mark posts what is wanted (present or not) and the round the screen shows; the answer carries the whole
   state, applied to every row; the state is read again every 5 s (players checking in from their phones). */
(function () {
  "use strict";
  var root = document.getElementById("ck");
  var search = document.getElementById("ck-search");
  var form = document.getElementById("ck-form");
  if (!root || !search || !form) { return; }
  var items = Array.prototype.slice.call(form.querySelectorAll("li"));
  var count = document.getElementById("ck-count");
  var none = document.getElementById("ck-none");
  var current = null;
  // Marks sent and not answered yet: the state is read once they are all answered (each answer is the state at
  // its own moment, and two marks sent in a row may be answered in either order).
  var pending = 0;
  var reading = 0;  // state reads under way; data-busy says whether anything is (for the tests and the curious)
  function busy() { root.setAttribute("data-busy", pending + reading > 0 ? "1" : "0"); }
  var alert = document.createElement("p");
  alert.setAttribute("role", "alert");
  alert.className = "ck-alert";
  count.parentNode.insertBefore(alert, count.nextSibling);
  var FOLD = { "ø": "o", "æ": "ae", "œ": "oe", "ß": "ss", "đ": "d", "ł": "l", "ı": "i", "þ": "th" };

  function fold(text) {
    return text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
      .replace(/[øæœßđłıþ]/g, function (c) { return FOLD[c]; }).replace(/[^a-z0-9]+/g, " ").trim();
  }
  function button(li) { return li.querySelector("button"); }
  function visible() { return items.filter(function (li) { return !li.hidden; }); }
  function highlight(li) {
    if (current) { button(current).classList.remove("ck-current"); }
    current = li;
    if (li) {
      button(li).classList.add("ck-current");
      search.setAttribute("aria-activedescendant", button(li).id);
      li.scrollIntoView({ block: "nearest" });
    } else {
      search.removeAttribute("aria-activedescendant");
    }
  }
  function filter() {
    var q = fold(search.value);
    var digits = /^[0-9]+$/.test(q);
    var exact = null;
    items.forEach(function (li) {
      var key = li.getAttribute("data-key");
      var number = key.split(" ")[0];
      var show = !q || (digits ? number.indexOf(q) === 0 : (" " + key).indexOf(" " + q) >= 0 || key.indexOf(q) >= 0);
      li.hidden = !show;
      if (digits && number === q) { exact = li; }
    });
    var shown = visible();
    none.hidden = shown.length > 0;
    highlight(exact || shown[0] || null);
  }
  function setState(li, present) {
    var b = button(li);
    var id = b.getAttribute("data-id");
    b.setAttribute("aria-pressed", present ? "true" : "false");
    b.value = id + ":" + (present ? "0" : "1");
    b.querySelector(".ck-state").textContent = root.getAttribute(present ? "data-present-word" : "data-absent-word");
  }
  function apply(state) {
    if (state.round === null || String(state.round) !== root.getAttribute("data-round")) {
      window.location.reload();
      return;
    }
    var present = {};
    state.present.forEach(function (id) { present[String(id)] = true; });
    items.forEach(function (li) { setState(li, !!present[button(li).getAttribute("data-id")]); });
    count.textContent = state.count;
  }
  function mark(li) {
    var b = button(li);
    var data = new FormData(form);
    data.set("mark", b.value);
    setState(li, b.value.slice(-1) === "1");
    pending += 1;
    busy();
    fetch(root.getAttribute("data-mark-url"), {
      method: "POST", body: data, credentials: "same-origin", headers: { "Accept": "application/json" }
    }).then(function (r) {
      return r.json().then(function (body) { return { ok: r.ok, body: body }; });
    }).then(function (answer) {
      pending -= 1;
      alert.textContent = answer.ok ? "" : answer.body.error;
      if (pending === 0) { refresh(); }
      busy();
    }).catch(function () { pending -= 1; if (pending === 0) { refresh(); } busy(); });
  }
  function refresh() {
    reading += 1;
    busy();
    fetch(root.getAttribute("data-state-url"), { credentials: "same-origin", headers: { "Accept": "application/json" } })
      .then(function (r) { return r.json(); })
      .then(function (state) { if (pending === 0) { apply(state); } }).catch(function () {})
      .then(function () { reading -= 1; busy(); });
  }
  function move(step) {
    var shown = visible();
    if (!shown.length) { return; }
    var at = shown.indexOf(current);
    highlight(shown[Math.max(0, Math.min(shown.length - 1, at + step))]);
  }
  search.addEventListener("input", filter);
  search.addEventListener("keydown", function (e) {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      move(e.key === "ArrowDown" ? 1 : -1);
    } else if (e.key === "Enter" || (e.key === " " && search.value === "")) {
      e.preventDefault();
      if (!current) { return; }
      var li = current;
      mark(li);
      if (search.value !== "") {
        search.value = "";
        filter();
        highlight(li);
      } else {
        move(1);
      }
    }
  });
  form.addEventListener("submit", function (e) {
    var b = e.submitter;
    if (!b || !b.getAttribute("data-id")) { return; }
    e.preventDefault();
    var li = b.parentNode;
    highlight(li);
    mark(li);
    search.focus();
  });
  filter();
  window.setInterval(function () { if (!document.hidden && pending + reading === 0) { refresh(); } }, 5000);
}());
