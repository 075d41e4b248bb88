(function () {
  "use strict";
  var root = document.documentElement;
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

  var box = document.getElementById("search");
  if (!box) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr[data-search]"));
  var groups = Array.prototype.slice.call(document.querySelectorAll("[data-group]"));
  var status = document.getElementById("search-status");
  function run() {
    var terms = box.value.toLowerCase().split(/\s+/).filter(Boolean);
    var shown = 0;
    rows.forEach(function (row) {
      var text = row.getAttribute("data-search");
      var match = terms.every(function (t) { return text.indexOf(t) !== -1; });
      row.hidden = !match;
      if (match) shown += 1;
    });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector("tr[data-search]:not([hidden])");
    });
    if (status) {
      status.textContent = terms.length
        ? shown + " of " + rows.length + " endpoints match"
        : rows.length + " endpoints listed; type in the box to filter them";
    }
  }
  box.addEventListener("input", run);
  run();
})();
