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
  function tabs(within) {
    all("[data-tabs]", within).forEach(function (box) {
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
  }

  // Operation bodies on demand. Each body is written inside <noscript>: without
  // script the browser shows it as part of the page; with script it is one text
  // node until the operation comes near the screen, is linked to, or is printed,
  // and then it becomes elements. A release page starts with a few thousand
  // elements instead of twenty thousand.
  function render(section) {
    var holder = section && section.querySelector("noscript[data-body]");
    if (!holder) return;
    var body = document.createElement("div");
    body.className = "op-body";
    body.innerHTML = holder.textContent;
    holder.parentNode.replaceChild(body, holder);
    tabs(body);
    section.dispatchEvent(new CustomEvent("apispec:rendered", { bubbles: true }));
  }
  function renderAll() { all("section.op").forEach(render); }
  function renderTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var target = id && document.getElementById(id);
    if (target && target.matches("section.op")) {
      render(target);
      target.scrollIntoView();
    }
  }
  if ("IntersectionObserver" in window) {
    var near = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) {
        if (e.isIntersecting) { render(e.target); near.unobserve(e.target); }
      });
    }, { rootMargin: "200px 0px 600px 0px" });
    all("section.op").forEach(function (s) { near.observe(s); });
  } else {
    renderAll();
  }
  renderTarget();
  window.addEventListener("hashchange", renderTarget);
  window.addEventListener("beforeprint", renderAll);
  if (window.matchMedia) {
    var printing = window.matchMedia("print");
    var onPrint = function (m) { if (m.matches) renderAll(); };
    if (printing.addEventListener) printing.addEventListener("change", onPrint);
    else if (printing.addListener) printing.addListener(onPrint);
  }
  window.apispecDocs = { render: render, renderAll: renderAll };

  // Search: words typed are matched against the beginnings of the words an item shows
  // (`move` finds /move, not removed); a term with a slash is a path, found as written
  // (/api/v2 may lead it); a method name alone is the method. Every term must match.
  // The sidebar follows its operations.
  var METHODS = { get: 1, post: 1, put: 1, patch: 1, delete: 1 };
  var WORD = /[\p{L}\p{N}_]+/gu;
  function words(text) { return text.toLowerCase().match(WORD) || []; }
  var box = document.getElementById("search");
  var items = all("[data-search]").map(function (el) {
    var text = el.getAttribute("data-search");
    var seen = {};
    words(text).forEach(function (w) { seen[w] = true; });
    return {
      el: el, text: text, words: Object.keys(seen), badge: el.getAttribute("data-badge"),
      method: text.split(" ", 1)[0].toLowerCase()
    };
  });
  var entries = all("#sidebar [data-side]");
  var groups = all("[data-group], [data-side-group]");
  var marked = all("#sidebar .side-path, section.op h3 code.path, table.matrix td:first-child code");
  marked.forEach(function (el) { el.setAttribute("data-text", el.textContent); });
  var status = document.getElementById("search-status");
  var counted = items.filter(function (i) { return i.el.matches("section.op, tr"); });
  var hide = document.getElementById("hide-deprecated");
  if (hide) hide.parentNode.hidden = false;

  function parse(query) {
    var terms = { paths: [], words: [], methods: [] };
    query.toLowerCase().split(/\s+/).filter(Boolean).forEach(function (term) {
      if (METHODS[term]) {
        terms.methods.push(term);
      } else if (term.indexOf("/") !== -1) {
        terms.paths.push(term.replace(/^(?:https?:\/\/[^/]*)?\/api\/v2(?=\/)/, ""));
      } else {
        terms.words = terms.words.concat(words(term));
      }
    });
    return terms;
  }
  function matches(item, terms) {
    return terms.methods.every(function (m) { return item.method === m; }) &&
      terms.paths.every(function (p) { return item.text.indexOf(p) !== -1; }) &&
      terms.words.every(function (w) {
        return item.words.some(function (have) { return have.lastIndexOf(w, 0) === 0; });
      });
  }
  function ranges(text, terms) {
    var lower = text.toLowerCase();
    var found = [];
    terms.paths.forEach(function (p) {
      for (var at = lower.indexOf(p); at !== -1; at = lower.indexOf(p, at + 1)) found.push([at, at + p.length]);
    });
    terms.words.forEach(function (w) {
      for (var at = lower.indexOf(w); at !== -1; at = lower.indexOf(w, at + 1)) {
        if (at === 0 || !/[\p{L}\p{N}_]/u.test(lower.charAt(at - 1))) found.push([at, at + w.length]);
      }
    });
    found.sort(function (a, b) { return a[0] - b[0]; });
    var merged = [];
    found.forEach(function (r) {
      var last = merged[merged.length - 1];
      if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
      else merged.push(r.slice());
    });
    return merged;
  }
  function append(el, text) {  // a path may still wrap after each slash
    text.split(/(?<=\/)/).forEach(function (piece, i) {
      if (i) el.appendChild(document.createElement("wbr"));
      el.appendChild(document.createTextNode(piece));
    });
  }
  function highlight(el, terms) {
    var text = el.getAttribute("data-text");
    while (el.firstChild) el.removeChild(el.firstChild);
    var pos = 0;
    ranges(text, terms).forEach(function (r) {
      append(el, text.slice(pos, r[0]));
      var mark = document.createElement("mark");
      append(mark, text.slice(r[0], r[1]));
      el.appendChild(mark);
      pos = r[1];
    });
    append(el, text.slice(pos));
  }
  function run() {
    var terms = parse(box ? box.value : "");
    var typed = terms.paths.length + terms.words.length + terms.methods.length > 0;
    var hiding = hide ? hide.checked : false;
    var shownIds = {};
    items.forEach(function (item) {
      var retired = item.badge === "deprecated" || item.badge === "removed";
      item.el.hidden = !matches(item, terms) || (hiding && retired);
      if (!item.el.hidden && item.el.id) shownIds[item.el.id] = true;
    });
    entries.forEach(function (li) { li.hidden = !shownIds[li.getAttribute("data-side")]; });
    groups.forEach(function (group) {
      group.hidden = !group.querySelector("[data-search]:not([hidden]), [data-side]:not([hidden])");
    });
    marked.forEach(function (el) { highlight(el, terms); });
    if (status) {
      var shown = counted.filter(function (r) { return !r.el.hidden; }).length;
      var note = hiding ? " (deprecated and removed hidden)" : "";
      status.textContent = typed
        ? shown + " of " + counted.length + " match" + note
        : (hiding ? shown + " of " + counted.length + " shown" + note
          : counted.length + " listed; type in the search box to filter them");
    }
  }
  if (box) box.addEventListener("input", run);
  if (hide) hide.addEventListener("change", run);
  if (box || hide) run();

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
        if (current) { current.classList.remove("active"); current.removeAttribute("aria-current"); }
        current = links[top];
        current.classList.add("active");
        current.setAttribute("aria-current", "location");
      }
    }, { rootMargin: "-60px 0px -55% 0px" });
    all("section.op").forEach(function (s) { spy.observe(s); });
  }
})();
