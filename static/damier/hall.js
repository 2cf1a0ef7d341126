// A hall screen turns its panels every few seconds, keeps the round clock ticking, and asks the server
// for the page every POLL ms with the tag it last got (a 304 while nothing changed; the new page, patched
// in place, when the pairings, a result, the clock or the screen's settings changed). The clock counts from
// the server's time sent with the page, so a television whose own clock is wrong still shows the right
// elapsed time. Timers only (setTimeout, Date): a test moves them without waiting.
(function () {
  "use strict";
  var POLL = 10000;
  var body = document.body;
  var index = 0, etag = null, offset = 0, rotateTimer = null;

  function number(name) { return parseFloat(body.getAttribute(name)); }
  function panels() { return document.querySelectorAll(".hall-panels > .panel"); }

  function readTimes() {
    var now = number("data-now");
    offset = isNaN(now) ? 0 : now * 1000 - Date.now();
  }

  function show(i) {
    var all = panels(), dots = document.querySelectorAll(".hall-dots li");
    if (!all.length) { return; }
    index = ((i % all.length) + all.length) % all.length;
    for (var k = 0; k < all.length; k++) {
      all[k].hidden = k !== index;
      if (dots[k]) { dots[k].className = k === index ? "on" : ""; }
    }
    body.setAttribute("data-showing", all[index].getAttribute("data-kind") + "-" + all[index].getAttribute("data-page"));
  }

  function rotate() {
    show(index + 1);
    rotateTimer = setTimeout(rotate, number("data-interval") || 15000);
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function tick() {
    var started = number("data-started");
    var nowMs = Date.now() + offset;
    if (!isNaN(started)) {
      var s = Math.max(0, Math.floor(nowMs / 1000 - started));
      var h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60;
      var spans = document.querySelectorAll(".elapsed");
      for (var k = 0; k < spans.length; k++) {
        spans[k].textContent = h + ":" + two(m) + (spans[k].getAttribute("data-format") === "hms" ? ":" + two(s % 60) : "");
      }
    }
    setTimeout(tick, 1000 - (nowMs % 1000));
  }

  function apply(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.getElementById("hall"), here = document.getElementById("hall");
    if (!fresh || !here || !doc.body) { return; }
    ["data-interval", "data-now", "data-started"].forEach(function (name) {
      if (doc.body.hasAttribute(name)) { body.setAttribute(name, doc.body.getAttribute(name)); }
      else { body.removeAttribute(name); }
    });
    here.setAttribute("style", fresh.getAttribute("style") || "");
    here.innerHTML = fresh.innerHTML;
    if (doc.title) { document.title = doc.title; }
    readTimes();
    show(index);
  }

  function poll() {
    // The page is never kept by the browser (its time must be the server's of now): the tag is sent by hand.
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(location.href, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (!response.ok) { throw new Error(String(response.status)); }
        var tag = response.headers.get("ETag");
        if (tag && tag === etag) { return null; }
        etag = tag;
        body.setAttribute("data-version", tag || "");
        return response.text();
      })
      .then(function (html) { if (html) { apply(html); } })
      .catch(function () { /* the screen keeps what it shows and asks again */ })
      .then(function () { setTimeout(poll, POLL); });
  }

  readTimes();
  show(0);
  rotateTimer = setTimeout(rotate, number("data-interval") || 15000);
  tick();
  if (window.fetch && window.DOMParser) { poll(); }
}());
