(function () {
  "use strict";
  var base = document.getElementById("tryit-base");
  var token = document.getElementById("tryit-token");
  if (!base || !token) return;
  try {
    base.value = localStorage.getItem("apispec-tryit-base") || base.value;
    token.value = sessionStorage.getItem("apispec-tryit-token") || "";
  } catch (e) { /* storage may be off */ }
  base.addEventListener("change", function () {
    try { localStorage.setItem("apispec-tryit-base", base.value); } catch (e) { /* ignore */ }
  });
  token.addEventListener("change", function () {
    try { sessionStorage.setItem("apispec-tryit-token", token.value); } catch (e) { /* ignore */ }
  });

  // The filter field is checked as it is typed, by the same grammar and catalog as
  // `apispec filter check`; a request with an error in it is not sent.
  function filterProblems(input, path) {
    var out = input.parentNode.querySelector(".filter-check");
    var checker = window.apispecFilter;
    var text = input.value;
    var found = text.trim() && checker ? checker.check(text, path) : [];
    var errors = found.filter(function (d) { return d.severity === "error"; });
    input.classList.toggle("invalid", errors.length > 0);
    input.setAttribute("aria-invalid", String(errors.length > 0));
    out.classList.toggle("ok", text.trim() !== "" && found.length === 0);
    out.textContent = found.map(function (d) {
      var at = checker.lineColumn(text, d.start);
      return d.code + " " + d.severity + " at column " + at[1] + ": " + d.message + (d.hint ? "\n  hint: " + d.hint : "");
    }).join("\n") || (text.trim() ? "valid filter" : "");
    return errors;
  }

  // Panels come with their operation's body (site.js renders it on demand).
  function bindAll(within) {
    Array.prototype.forEach.call(within.querySelectorAll("details.tryit"), bind);
  }
  document.addEventListener("apispec:rendered", function (event) { bindAll(event.target); });
  bindAll(document);

  function bind(panel) {
    var spec = JSON.parse(panel.getAttribute("data-tryit"));
    var form = panel.querySelector("form");
    var result = panel.querySelector(".tryit-result");
    var filter = form.querySelector(".filter-input");
    if (filter) {
      filter.addEventListener("input", function () { filterProblems(filter, spec.path); });
      filterProblems(filter, spec.path);
    }
    function show(status, headers, body) {
      result.hidden = false;
      result.querySelector(".tryit-status").textContent = status;
      result.querySelector(".tryit-headers").textContent = headers;
      result.querySelector(".tryit-body").textContent = body;
    }
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (filter && filterProblems(filter, spec.path).length) {
        panel.setAttribute("data-state", "blocked");
        show("Not sent: the filter has errors (see above).", "", "");
        return;
      }
      var path = spec.path;
      spec.path_params.forEach(function (p) {
        var value = form.elements["path:" + p.name].value;
        path = path.replace("{" + p.name + "}", encodeURIComponent(value));
      });
      var query = spec.query.map(function (name) {
        var value = form.elements["query:" + name].value;
        return value === "" ? null : encodeURIComponent(name) + "=" + encodeURIComponent(value);
      }).filter(Boolean).join("&");
      var url = base.value.replace(/\/+$/, "") + path + (query ? "?" + query : "");
      var init = { method: spec.method, headers: {} };
      if (spec.auth && token.value) init.headers.Authorization = "Bearer " + token.value;
      if (spec.body !== null) {
        init.headers["Content-Type"] = "application/json";
        init.body = form.elements.body.value;
      }
      panel.setAttribute("data-state", "sending");
      fetch(url, init).then(function (response) {
        return response.text().then(function (text) {
          var lines = [];
          response.headers.forEach(function (value, name) { lines.push(name + ": " + value); });
          var body = text;
          try {
            var json = JSON.parse(text);
            body = JSON.stringify(json, null, 2);
            if (json && typeof json.token === "string" && spec.path === "/session") {
              token.value = json.token;
              token.dispatchEvent(new Event("change"));
            }
          } catch (e) { /* not JSON: shown as it came */ }
          show(response.status + " " + response.statusText + "  " + spec.method + " " + url, lines.join("\n"), body);
          panel.setAttribute("data-state", "answered");
          panel.setAttribute("data-status", String(response.status));
        });
      }).catch(function (error) {
        show("No answer from " + url + ": " + error.message + ". Is `apispec mock --cors` running there?", "", "");
        panel.setAttribute("data-state", "failed");
      });
    });
  }
})();
