(function () {
  "use strict";
  var root = document.documentElement;
  root.classList.add("js");
  var KEY = "apispec-docs-theme";
  var toggle = document.getElementById("theme-toggle");
  function isDark() {
    var chosen = root.getAttribute("data-theme");
    if (chosen) return chosen === "dark";
    return window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches;
  }
  function label() {
    if (toggle) {
      toggle.setAttribute("aria-pressed", String(isDark()));
      toggle.textContent = isDark() ? "Light theme" : "Dark theme";
    }
  }
  if (toggle) {
    toggle.addEventListener("click", function () {
      var next = isDark() ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem(KEY, next); } catch (e) { /* storage may be off */ }
      label();
    });
    label();
  }

  function all(selector, within) {
    return Array.prototype.slice.call((within || document).querySelectorAll(selector));
  }

  // Code sample tabs: one language shown at a time (all of them without script and in print).
  all("[data-tabs]").forEach(function (box) {
    var buttons = all("[data-tab]", box);
    function show(id) {
      buttons.forEach(function (b) {
        var on = b.getAttribute("data-tab") === id;
        b.setAttribute("aria-selected", String(on));
        document.getElementById(b.getAttribute("data-tab")).hidden = !on;
      });
    }
    buttons.forEach(function (b) {
      b.addEventListener("click", function () { show(b.getAttribute("data-tab")); });
    });
    if (buttons.length) show(buttons[0].getAttribute("data-tab"));
  });

  // Search: filter every [data-search] item, hide empty groups, highlight the words.
  var box = document.getElementById("search");
  var items = all("[data-search]");
  var groups = all("[data-group], [data-side-group]");
  var marked = all("#sidebar .side-path, section.op h3 code.path, table.matrix td:first-child code");
  marked.forEach(function (el) { el.setAttribute("data-text", el.textContent); });
  var status = document.getElementById("search-status");
  var counted = all("section.op[data-search], table.matrix tr[data-search], tr[data-search]");
  function highlight(el, terms) {
    var text = el.getAttribute("data-text");
    while (el.firstChild) el.removeChild(el.firstChild);
    var lower = text.toLowerCase();
    var pos = 0;
    while (terms.length) {
      var best = -1, size = 0;
      terms.forEach(function (t) {
        var at = lower.indexOf(t, pos);
        if (at !== -1 && (best === -1 || at < best)) { best = at; size = t.length; }
      });
      if (best === -1) break;
      el.appendChild(document.createTextNode(text.slice(pos, best)));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(best, best + size);
      el.appendChild(mark);
      pos = best + size;
    }
    el.appendChild(document.createTextNode(text.slice(pos)));
  }
  function run() {
    var terms = box ? box.value.toLowerCase().split(/\s+/).filter(Boolean) : [];
    items.forEach(function (item) {
      var text = item.getAttribute("data-search");
      item.hidden = !terms.every(function (t) { return text.indexOf(t) !== -1; });
    });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector("[data-search]:not([hidden])");
    });
    marked.forEach(function (el) { highlight(el, terms); });
    if (status) {
      var shown = counted.filter(function (r) { return !r.hidden; }).length;
      status.textContent = terms.length
        ? shown + " of " + counted.length + " match"
        : counted.length + " listed; type in the search box to filter them";
    }
  }
  if (box) {
    box.addEventListener("input", run);
    run();
  }

  // Scroll-spy: the sidebar marks the operation being read.
  var links = {};
  all("#sidebar a.side-op").forEach(function (a) { links[a.getAttribute("href").slice(1)] = a; });
  var current = null;
  if ("IntersectionObserver" in window && Object.keys(links).length) {
    var visible = {};
    var spy = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { visible[e.target.id] = e.isIntersecting ? e.boundingClientRect.top : undefined; });
      var top = null, best = Infinity;
      Object.keys(visible).forEach(function (id) {
        if (visible[id] !== undefined && visible[id] < best) { best = visible[id]; top = id; }
      });
      if (top && links[top] !== current) {
        if (current) current.classList.remove("active");
        current = links[top];
        current.classList.add("active");
        current.setAttribute("aria-current", "location");
      }
    }, { rootMargin: "-60px 0px -55% 0px" });
    all("section.op").forEach(function (s) { spy.observe(s); });
  }
})();
