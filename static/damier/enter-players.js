/* "Enter players": a combobox (WAI-ARIA 1.2, list autocomplete) over the register and the rating lists.
 *
 * Typing asks the search endpoint (debounced; an answer to an older query is dropped). Enter adds the
 * highlighted line, the first by default; when Enter comes before the answer to what is typed, the search
 * is asked at once and its first line added, so typing "sore" and Enter at full speed adds the right
 * player. The add posts the page's own form asking for JSON; the field is emptied at once so the next name
 * can be typed, and put back if the add is refused, with the refusal beside it. The last line, "New
 * player: …" (or Ctrl+Enter), opens the new player's fields under the field: Tab between them, Enter
 * saves, Escape goes back to the field. Without this script the field is a form whose answer lists the
 * players as buttons.
 */
(function () {
  "use strict";
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }

  function start() {
  var root = document.getElementById("ep");
  var input = document.getElementById("ep-q");
  if (!root || !input) { return; }
  var words = JSON.parse(document.getElementById("ep-words").textContent);
  var listbox = document.getElementById("ep-listbox");
  var errorBox = document.getElementById("ep-error");
  var live = document.getElementById("ep-live");
  var newForm = document.getElementById("ep-new");
  var tbody = document.querySelector("#ep-entered tbody");
  var count = document.getElementById("ep-count");
  var searchUrl = root.dataset.searchUrl;
  var postUrl = document.getElementById("ep-search").action;
  var csrf = newForm.querySelector("input[name=csrfmiddlewaretoken]").value;
  var version = newForm.querySelector("input[name=version]").value;
  var results = document.getElementById("ep-results");
  if (results) { results.hidden = true; }  // the script's list replaces the buttons of the page without it
  var searchButton = document.getElementById("ep-search-button");
  if (searchButton) { searchButton.hidden = true; }

  var items = [];      // the lines shown: candidates, then {key: "new"}
  var active = -1;
  var shownFor = null; // the query the lines answer
  var asked = 0;       // the number of the last search asked: older answers are dropped
  var timer = null;
  var pending = null;  // {query, promise} of the search under way

  function format(template, values) {
    return template.replace(/%\((\w+)\)s/g, function (_m, name) { return values[name]; });
  }

  function search(query) {
    if (pending && pending.query === query) { return pending.promise; }
    var number = ++asked;
    var promise = fetch(searchUrl + "?q=" + encodeURIComponent(query), {
      headers: { "Accept": "application/json" }, credentials: "same-origin"
    }).then(function (response) {
      if (!response.ok) { throw new Error(String(response.status)); }
      return response.json();
    }).then(function (data) {
      if (number === asked) { show(query, data.candidates); }
      return data.candidates;
    }).finally(function () {
      if (pending && pending.promise === promise) { pending = null; }
    });
    pending = { query: query, promise: promise };
    return promise;
  }

  function meta(c) {
    var parts = [];
    if (c.fmjd_id) { parts.push("FMJD " + c.fmjd_id); }
    if (c.federation) { parts.push(c.federation); }
    if (c.title) { parts.push(c.title); }
    if (c.rating !== null && c.rating !== undefined) { parts.push(String(c.rating)); }
    if (c.club) { parts.push(c.club); }
    parts.push(c.source);
    if (c.entered) { parts.push(words.entered); }
    return parts.join(" · ");
  }

  function option(index, name, details) {
    var li = document.createElement("li");
    li.id = "ep-opt-" + index;
    li.setAttribute("role", "option");
    li.setAttribute("aria-selected", "false");
    var strong = document.createElement("span");
    strong.className = "ep-name";
    strong.textContent = name;
    li.appendChild(strong);
    if (details) {
      var small = document.createElement("span");
      small.className = "ep-meta";
      small.textContent = details;
      li.appendChild(small);
    }
    li.addEventListener("mousedown", function (event) { event.preventDefault(); });  // the field keeps the focus
    li.addEventListener("click", function () { highlight(index); choose(); });
    return li;
  }

  function show(query, candidates) {
    shownFor = query;
    items = candidates.slice();
    listbox.textContent = "";
    if (!query.trim()) { close(); return; }
    items.forEach(function (c, index) {
      var li = option(index, c.name + (c.native ? " (" + c.native + ")" : ""), meta(c));
      if (c.entered) { li.setAttribute("aria-disabled", "true"); }
      listbox.appendChild(li);
    });
    items.push({ key: "new" });
    var last = option(items.length - 1, format(words["new"], { text: query.trim() }), "");
    last.classList.add("ep-new-option");
    listbox.appendChild(last);
    listbox.hidden = false;
    listbox.dataset.for = query;  // which query the lines answer (read by the browser test)
    input.setAttribute("aria-expanded", "true");
    highlight(0);
    live.textContent = candidates.length ? format(words.found, { n: candidates.length }) : words.none;
  }

  function close() {
    listbox.hidden = true;
    listbox.textContent = "";
    items = [];
    active = -1;
    shownFor = null;
    delete listbox.dataset.for;
    input.setAttribute("aria-expanded", "false");
    input.removeAttribute("aria-activedescendant");
  }

  function highlight(index) {
    var options = listbox.querySelectorAll("[role=option]");
    if (!options.length) { return; }
    active = (index + options.length) % options.length;
    Array.prototype.forEach.call(options, function (li, i) {
      li.setAttribute("aria-selected", i === active ? "true" : "false");
    });
    input.setAttribute("aria-activedescendant", options[active].id);
    if (options[active].scrollIntoView) { options[active].scrollIntoView({ block: "nearest" }); }
  }

  function say(text) { errorBox.textContent = text; }

  function choose() {
    var item = items[active];
    if (!item) { return; }
    if (item.key === "new") { openNew(shownFor || input.value); return; }
    if (item.entered) { say(format(words.already, { player: item.name })); return; }
    add({ key: item.key }, input.value);
  }

  function post(fields) {
    var body = new URLSearchParams();
    body.append("csrfmiddlewaretoken", csrf);
    body.append("version", version);
    Object.keys(fields).forEach(function (name) { body.append(name, fields[name]); });
    return fetch(postUrl, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "Accept": "application/json", "X-CSRFToken": csrf }
    }).then(function (response) { return response.json(); });
  }

  function entered(data) {
    // Every field that carries the screen's version follows it (a page with other forms on the same state).
    Array.prototype.forEach.call(document.querySelectorAll("input[data-ep-version]"), function (el) {
      el.value = version;
    });
    count.textContent = data.heading;
    if (typeof data.rows_html === "string") {  // a page that words its own rows (a team's roster)
      tbody.innerHTML = data.rows_html;
      return;
    }
    tbody.textContent = "";
    data.entries.forEach(function (e, index) {
      var tr = document.createElement("tr");
      if (index === 0) { tr.className = "ep-fresh"; }
      [e.number, e.name, e.title, e.rating === null ? "–" : e.rating, e.federation].forEach(function (value, i) {
        var td = document.createElement("td");
        td.textContent = String(value);
        if (i === 4) { td.className = "ep-fed"; }
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    });
    count.textContent = data.heading;
  }

  function add(fields, typed) {
    input.value = "";
    close();
    say("");
    return post(fields).then(function (data) {
      version = data.version || version;
      if (data.ok) {
        entered(data);
        live.textContent = data.said;
        return data;
      }
      if (!input.value) { input.value = typed; }  // nothing typed is lost
      say(data.error);
      return data;
    }).catch(function () {
      if (!input.value) { input.value = typed; }
      say(words.failed);
      return { ok: false };
    });
  }

  // --- The new player's row ----------------------------------------------------------------------
  var newFields = Array.prototype.slice.call(newForm.querySelectorAll("input[type=text], select"));

  function splitName(text) {
    text = text.trim().replace(/\s+/g, " ");
    var comma = text.indexOf(",");
    if (comma >= 0) { return [text.slice(0, comma).trim(), text.slice(comma + 1).trim()]; }
    var space = text.indexOf(" ");
    return space < 0 ? [text, ""] : [text.slice(0, space), text.slice(space + 1)];
  }

  function field(name) { return document.getElementById("ep-new-" + name); }

  function clearNewErrors() {
    newFields.forEach(function (el) {
      el.removeAttribute("aria-invalid");
      var error = document.getElementById(el.id + "-error");
      if (error) { error.textContent = ""; }
    });
  }

  function openNew(text) {
    var name = splitName(text || "");
    newFields.forEach(function (el) { el.value = ""; });
    clearNewErrors();
    field("surname").value = name[0];
    field("given_name").value = name[1];
    newForm.querySelector("input[name=q]").value = text || "";
    close();
    newForm.hidden = false;
    var first = newFields.filter(function (el) { return !el.value; })[0] || field("surname");
    first.focus();
  }

  function closeNew(done) {
    newForm.hidden = true;
    clearNewErrors();
    if (done) { newFields.forEach(function (el) { el.value = ""; }); }
    input.focus();
  }

  function saveNew() {
    var fields = { action: "new", q: newForm.querySelector("input[name=q]").value };
    newFields.forEach(function (el) { fields[el.name] = el.value; });
    clearNewErrors();
    return post(fields).then(function (data) {
      version = data.version || version;
      if (data.ok) {
        entered(data);
        live.textContent = data.said;
        closeNew(true);
        input.value = "";
        say("");
        return;
      }
      say(data.error);
      var firstBad = null;
      Object.keys(data.fields || {}).forEach(function (name) {
        var el = field(name);
        if (!el) { return; }
        el.setAttribute("aria-invalid", "true");
        document.getElementById(el.id + "-error").textContent = data.fields[name].join(" ");
        firstBad = firstBad || el;
      });
      (firstBad || newFields[0]).focus();
    }).catch(function () { say(words.failed); });
  }

  newForm.addEventListener("submit", function (event) { event.preventDefault(); saveNew(); });
  newForm.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { event.preventDefault(); closeNew(false); return; }
    if (event.key === "Enter" && event.target.tagName === "SELECT") { event.preventDefault(); saveNew(); }
  });
  document.getElementById("ep-new-cancel").addEventListener("click", function (event) {
    event.preventDefault();
    closeNew(false);
  });

  // --- The field -----------------------------------------------------------------------------------
  input.addEventListener("input", function () {
    clearTimeout(timer);
    var query = input.value;
    if (!query.trim()) { close(); return; }
    timer = setTimeout(function () { search(query); }, 120);
  });

  input.addEventListener("keydown", function (event) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (!items.length) { return; }
      event.preventDefault();
      highlight(active + (event.key === "ArrowDown" ? 1 : -1));
    } else if (event.key === "Escape") {
      event.preventDefault();
      input.value = "";
      close();
      say("");
    } else if (event.key === "Enter") {
      event.preventDefault();
      var query = input.value;
      if (!query.trim()) { return; }
      if (event.ctrlKey || event.metaKey) { openNew(query); return; }
      if (shownFor === query && items.length) { choose(); return; }
      clearTimeout(timer);
      search(query).then(function () { if (input.value === query) { choose(); } })
        .catch(function () { say(words.failed); });
    }
  });
  input.addEventListener("blur", function () {
    // a click elsewhere closes the list; the typed text stays
    setTimeout(function () {
      if (document.activeElement !== input) { listbox.hidden = true; input.setAttribute("aria-expanded", "false"); }
    }, 150);
  });
  input.addEventListener("focus", function () {
    if (items.length && shownFor === input.value) {
      listbox.hidden = false;
      input.setAttribute("aria-expanded", "true");
    }
  });
  if (input.value.trim() && newForm.hidden) { search(input.value); }
  if (!newForm.hidden) {
    var bad = newForm.querySelector("[aria-invalid=true]");
    (bad || field("surname")).focus();
  }
  }
})();
