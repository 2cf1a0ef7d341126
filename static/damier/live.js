// A page of a round in progress keeps itself up to date: every few seconds it asks the server for itself
// with the validator it last got (a 304, a few hundred bytes, when nothing changed) and, when the page
// changed, patches only the parts that differ, so focus, scroll position and the game viewer stay where
// they are. A polite live region says that new results arrived; nothing moves focus; no reload.
// Polling, not server-sent events: every open page would hold a server thread (gunicorn sync/gthread
// workers), and a poll rides the same HTTP caches and CDN as the pages themselves.
(function () {
  "use strict";
  var bar = document.getElementById("live");
  if (!bar || !window.fetch || !window.DOMParser) { return; }
  var status = bar.querySelector(".live-status");
  var toggle = bar.querySelector(".live-toggle");
  var every = (parseFloat(bar.getAttribute("data-interval")) || 4) * 1000;
  var etag = null, timer = null, paused = false, stopped = false, failures = 0, inFlight = false;

  function say(key) {
    var time = new Date().toLocaleTimeString(document.documentElement.lang || undefined);
    status.textContent = (bar.getAttribute("data-" + key) || "").replace("{time}", time);
  }

  function schedule(delay) {
    clearTimeout(timer);
    if (!paused && !stopped) { timer = setTimeout(poll, delay); }
  }

  function syncAttributes(a, b, changed) {
    var i, name, differs = false;
    for (i = a.attributes.length - 1; i >= 0; i--) {
      name = a.attributes[i].name;
      if (!b.hasAttribute(name)) { a.removeAttribute(name); differs = true; }
    }
    for (i = 0; i < b.attributes.length; i++) {
      name = b.attributes[i].name;
      if (a.getAttribute(name) !== b.attributes[i].value) { a.setAttribute(name, b.attributes[i].value); differs = true; }
    }
    if (differs) { changed.push(a); }
  }

  // Make the children of `here` equal to those of `fresh`, keeping every node that is already equal.
  function patch(here, fresh, changed) {
    var a = Array.prototype.filter.call(here.childNodes, function (n) { return n.id !== "live"; });
    var b = Array.prototype.filter.call(fresh.childNodes, function (n) { return n.id !== "live"; });
    if (a.length !== b.length) {
      a.forEach(function (n) { here.removeChild(n); });
      b.forEach(function (n) { here.appendChild(document.importNode(n, true)); });
      changed.push(here);
      return;
    }
    for (var i = 0; i < a.length; i++) {
      if (a[i].isEqualNode(b[i])) { continue; }
      if (a[i].nodeType === 3 && b[i].nodeType === 3) {
        a[i].nodeValue = b[i].nodeValue;
        changed.push(here);
      } else if (a[i].nodeType === 1 && b[i].nodeType === 1 && a[i].tagName === b[i].tagName) {
        syncAttributes(a[i], b[i], changed);
        patch(a[i], b[i], changed);
      } else {
        here.replaceChild(document.importNode(b[i], true), a[i]);
        changed.push(here);
      }
    }
  }

  // A short glow on what changed, drawn by the Web Animations API so the page's markup stays the
  // server's (the next comparison sees no stray class); none at all for prefers-reduced-motion.
  function mark(nodes) {
    if (!document.body.animate || (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches)) {
      return;
    }
    nodes.forEach(function (n) {
      var el = n.closest ? (n.closest("td, th, li, p, h1, h2, dd") || n) : null;
      if (!el || el === document.querySelector("main")) { return; }
      el.animate([{ backgroundColor: "#fdf0c8" }, { backgroundColor: "rgba(253, 240, 200, 0)" }],
                 { duration: 3000, easing: "ease-out" });
    });
  }

  function apply(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var fresh = doc.querySelector("main"), here = document.querySelector("main");
    if (!fresh || !here) { return; }
    var active = document.activeElement, href = active && active.getAttribute && active.getAttribute("href");
    var changed = [];
    patch(here, fresh, changed);
    if (doc.title && doc.title !== document.title) { document.title = doc.title; }
    if (active && active !== document.body && !document.contains(active)) {
      // The focused link was in a part that was replaced: put focus back on its twin, without scrolling.
      var twin = (active.id && document.getElementById(active.id)) ||
        (href && here.querySelector('a[href="' + href.replace(/"/g, '\\"') + '"]'));
      if (twin) { twin.focus({ preventScroll: true }); }
    }
    if (!fresh.querySelector("#live")) {
      stopped = true;
      toggle.hidden = true;
      bar.classList.add("paused");
      say("ended");
    } else if (changed.length) {
      say("updated");
    }
    mark(changed);
  }

  function poll() {
    if (paused || stopped || inFlight) { return; }
    if (document.hidden) { return; }  // picked up again by visibilitychange
    inFlight = true;
    // cache: "no-cache" sends If-None-Match with the ETag the browser holds: a 304 costs next to nothing.
    fetch(location.href, { cache: "no-cache", credentials: "same-origin" })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        var tag = response.headers.get("ETag");
        if (tag && tag === etag) { return null; }
        etag = tag;
        return response.text();
      })
      .then(function (html) {
        if (failures >= 2) { status.textContent = ""; }
        failures = 0;
        if (html !== null) { apply(html); }
      })
      .catch(function () {
        failures += 1;
        if (failures === 2) { say("offline"); }
      })
      .then(function () {
        inFlight = false;
        schedule(every * Math.min(8, Math.pow(2, failures)));
      });
  }

  toggle.hidden = false;
  toggle.addEventListener("click", function () {
    paused = !paused;
    toggle.textContent = bar.getAttribute(paused ? "data-resume" : "data-pause");
    bar.classList.toggle("paused", paused);
    if (paused) { clearTimeout(timer); say("paused"); } else { status.textContent = ""; poll(); }
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { poll(); }
  });
  schedule(every);
}());
