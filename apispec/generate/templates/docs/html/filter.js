/* The filter checker of `apispec filter check`, for the browser: the same LALR
   tables (exported from the checker's cache), the same property catalog, the
   same FLT codes, messages and hints. A port of apispec/filters/parse.py,
   syntax.py and check.py; tests/test_docs_filter_js.py holds it to the Python
   checker on a list of filters. */
(function (global) {
  "use strict";
  var D = null, T = null, tokenRe = null, catalog = null;
  var MAX_REPAIRS = 8, LONG_FILTER = 10000;
  var ODATA = { eq: "=", ne: "!=", gt: ">", lt: "<", ge: ">=", le: "<=" };
  var VALUE_TERMINALS = ["TEXT", "NUMBER", "TRUE", "FALSE", "NAME"];
  var LISTING = ["_AND", "_OR", "_COMMA", "RSQB", "RPAR", "LPAR", "$END"];
  var BARE = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

  function init(data) {
    D = data;
    T = data.tables;
    tokenRe = new RegExp(T.token_re.replace(/\(\?P</g, "(?<"), "y");
    catalog = data.catalog;
    catalog.byName = {};
    catalog.properties.forEach(function (p) { catalog.byName[p.name] = p; });
  }

  function has(set, item) { return set.indexOf(item) !== -1; }
  function isUpper(name) { return name === name.toUpperCase(); }
  function setOf(list) { var out = []; list.forEach(function (x) { if (!has(out, x)) out.push(x); }); return out; }

  // -- tokens and the LALR driver ---------------------------------------------------

  function Token(type, value, start, end) { this.type = type; this.value = value; this.start_pos = start; this.end_pos = end; }

  function nextToken(text, pos) {
    tokenRe.lastIndex = pos;
    var m = tokenRe.exec(text);
    if (!m || m[0].length === 0 && pos < text.length) return null;
    var groups = m.groups, kind = null;
    for (var name in groups) { if (groups[name] !== undefined) { kind = name; break; } }
    return new Token(kind, m[0], pos, pos + m[0].length);
  }

  function tokenize(text) {
    var tokens = [], pos = 0;
    while (pos < text.length) {
      var t = nextToken(text, pos);
      if (t === null) break;
      if (!has(T.ignore, t.type)) tokens.push(t);
      pos = t.end_pos;
    }
    return { tokens: tokens, stop: pos };
  }

  // -- the tree builder (filters/tree_builder.py) ------------------------------------

  function unescape(raw) {
    var inner = raw.slice(1, -1), out = "";
    for (var i = 0; i < inner.length; i++) { if (inner[i] === "\\") i++; out += inner[i]; }
    return out;
  }
  function scalar(t) {
    var k = t.type, node = { start: t.start_pos, end: t.end_pos, raw: t.value };
    if (k === "TEXT") { node.t = "Text"; node.value = unescape(t.value); }
    else if (k === "NAME") { node.t = "EnumToken"; node.value = t.value; }
    else if (k === "NUMBER") { node.t = "Number"; node.value = t.value; }
    else if (k === "TRUE" || k === "FALSE") { node.t = "Boolean"; node.value = k === "TRUE"; }
    else { node.t = "Unknown"; node.value = t.value; }
    return node;
  }
  function flatten(kind, children) {
    var out = [];
    children.forEach(function (c) { if (c.t === kind) out = out.concat(c.operands); else out.push(c); });
    return out;
  }
  var BUILD = {
    start: function (c) { return c.length === 1 ? { expr: c[0], relation: null } : { expr: c[1], relation: c[0].value, relation_start: c[0].start_pos }; },
    relation: function (c) { return c[0]; },
    comparison: function (c) {
      var value = c[2].t === "List" ? c[2] : scalar(c[2]);
      return { t: "Comparison", prop: c[0].value, op: c[1].value, value: value, prop_start: c[0].start_pos,
        op_start: c[1].start_pos, op_end: c[1].end_pos, prop_unknown: c[0].type === "PLACEHOLDER" };
    },
    list: function (c) { return { t: "List", items: c.slice(1, -1).map(scalar), start: c[0].start_pos, end: c[c.length - 1].end_pos }; },
    disjunction: function (c) { return { t: "Or", operands: flatten("Or", c) }; },
    conjunction: function (c) { return { t: "And", operands: flatten("And", c) }; },
    negation: function (c) { return { t: "Not", operand: c[2], start: c[0].start_pos, end: c[3].end_pos }; },
    group: function (c) { return c[1]; },
    unknown_expression: function (c) { return { t: "UnknownExpr", value: c[0].value }; }
  };
  function reduce(rule, children) {
    var keep = rule[3], method = rule[2], expand1 = rule[4];
    if (keep !== null) {
      var filtered = [];
      keep.forEach(function (pair) {
        if (pair[1]) filtered = filtered.concat(children[pair[0]]); else filtered.push(children[pair[0]]);
      });
      children = filtered;
    }
    if (expand1 && children.length === 1) return children[0];
    return method ? BUILD[method](children) : children;
  }

  /* Parse, lexing lazily as Lark does: the first failure in text order wins.
     Returns {tree} or {error: {kind, start, end, expected, found_type}}. */
  function lalr(text) {
    var states = T.states, stack = [T.start_state], values = [], pos = 0;
    for (;;) {
      var token = null;
      while (pos < text.length) {
        var lexed = nextToken(text, pos);
        if (lexed === null) {
          var here = states[stack[stack.length - 1]];
          return { error: { kind: "char", start: pos, end: pos + 1, expected: Object.keys(here).filter(isUpper) } };
        }
        pos = lexed.end_pos;
        if (!has(T.ignore, lexed.type)) { token = lexed; break; }
      }
      if (token === null) token = new Token("$END", "", text.length, text.length);
      for (;;) {
        var state = states[stack[stack.length - 1]];
        var action = state[token.type];
        if (action === undefined) {
          return { error: { kind: token.type === "$END" ? "end" : "token", start: token.start_pos, end: token.end_pos,
            expected: Object.keys(state).filter(isUpper), found_type: token.type } };
        }
        if (action >= 0) { stack.push(action); values.push(token); break; }
        var rule = T.reductions[~action], size = rule[0], children = [];
        if (size) { children = values.splice(values.length - size, size); stack.splice(stack.length - size, size); }
        values.push(reduce(rule, children));
        stack.push(states[stack[stack.length - 1]][rule[1]]);
        if (token.type === "$END" && stack[stack.length - 1] === T.end_state) return { tree: values[values.length - 1] };
      }
    }
  }

  function feed(stack, kind) {
    for (;;) {
      var action = T.states[stack[stack.length - 1]][kind];
      if (action === undefined) return false;
      if (action >= 0) { stack.push(action); return true; }
      var rule = T.reductions[~action];
      if (rule[0]) stack.splice(stack.length - rule[0], rule[0]);
      stack.push(T.states[stack[stack.length - 1]][rule[1]]);
      if (kind === "$END" && stack[stack.length - 1] === T.end_state) return true;
    }
  }

  function acceptedAfter(prefix) {
    var lexed = tokenize(prefix);
    if (lexed.stop < prefix.length) return [];
    var stack = [T.start_state];
    for (var i = 0; i < lexed.tokens.length; i++) { if (!feed(stack, lexed.tokens[i].type)) return []; }
    return Object.keys(T.states[stack[stack.length - 1]]).filter(isUpper).filter(function (n) { return feed(stack.slice(), n); });
  }

  // -- FLT001: what the parser expected, in words (filters/syntax.py) ----------------

  function make(code, message, start, end, hint) {
    return { code: code, severity: D.codes[code][0], message: message, hint: hint === undefined ? null : hint, start: start, end: end };
  }

  function describe(expected) {
    var names = setOf(expected), shown = T.display, parts = [];
    function drop(list) { names = names.filter(function (n) { return !has(list, n); }); }
    var ops = D.operator_terminals;
    if (ops.every(function (o) { return has(names, o); })) {
      parts.push("an operator (" + ops.map(function (t) { return shown[t].replace(/^`|`$/g, ""); }).join(", ") + ")");
      drop(ops);
    }
    if (has(names, "TEXT") && has(names, "NUMBER") && has(names, "NAME")) {
      var kinds = ["a text in double quotes", "a number", "true", "false", "an enumeration value"];
      if (has(names, "LSQB")) parts.push("a value (" + kinds.join(", ") + " or a list in `[ ]`)");
      else parts.push("a list element (" + kinds.slice(0, -1).join(", ") + " or " + kinds[kinds.length - 1] + ")");
      drop(VALUE_TERMINALS.concat(["LSQB"]));
    }
    if (has(names, "NAME")) { parts.push("a property name"); drop(["NAME"]); }
    var rel = D.relation_terminals;
    if (rel.every(function (r) { return has(names, r); })) {
      parts.push("a relationship word (" + rel.map(function (t) { return shown[t].replace(/^`|`$/g, ""); }).join(", ") + ")");
      drop(rel);
    }
    if (has(names, "NOT")) { parts.push("`not(`"); drop(["NOT"]); }
    names.sort(function (a, b) {
      var oa = has(LISTING, a) ? LISTING.indexOf(a) : 99, ob = has(LISTING, b) ? LISTING.indexOf(b) : 99;
      return oa !== ob ? oa - ob : (a < b ? -1 : a > b ? 1 : 0);
    });
    names.forEach(function (n) { parts.push(shown[n]); });
    if (!parts.length) return "nothing more";
    return parts.length === 1 ? parts[0] : parts.slice(0, -1).join(", ") + " or " + parts[parts.length - 1];
  }

  function OffsetMap(edits) { this.edits = edits || []; }
  OffsetMap.prototype.then = function (start, end, length) { return new OffsetMap(this.edits.concat([[start, end - start, length]])); };
  OffsetMap.prototype.original = function (offset) {
    for (var i = this.edits.length - 1; i >= 0; i--) {
      var e = this.edits[i];
      if (offset >= e[0] + e[2]) offset += e[1] - e[2];
      else if (offset > e[0]) offset = e[0] + Math.min(offset - e[0], e[1]);
    }
    return offset;
  };

  function lineColumn(text, offset) {
    var before = text.slice(0, offset), line = before.split("\n").length;
    return [line, offset - (before.lastIndexOf("\n") + 1) + 1];
  }

  function makeError(text, raw) {
    var err = { text: text, kind: raw.kind, start: raw.start, end: raw.end, found_type: raw.found_type || null, expected: raw.expected };
    err.found = text.slice(err.start, err.end);
    if (err.kind === "end") err.found_type = "$END";
    var before = tokenize(text.slice(0, err.start)).tokens;
    err.before = before;
    err.prev = before.length ? before[before.length - 1] : null;
    if (text.length <= LONG_FILTER) {
      var accepted = acceptedAfter(text.slice(0, err.start));
      if (accepted.length) err.expected = accepted;
    }
    err.expected = err.expected.filter(function (n) { return n in T.display && n !== "PLACEHOLDER"; });
    return err;
  }

  function charName(ch) {
    if (ch === "`") return "'`'";
    if (!/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Z}]/u.test(ch)) return "`" + ch + "`";
    var hex = ch.codePointAt(0).toString(16).toUpperCase();
    while (hex.length < 4) hex = "0" + hex;
    return "U+" + hex + (SPACE_NAMES[ch] ? " (" + SPACE_NAMES[ch] + ")" : "");
  }
  var SPACE_NAMES = { "\u00a0": "no-break space", "\u2002": "en space", "\u2003": "em space", "\u2009": "thin space",
    "\u200a": "hair space", "\u202f": "narrow no-break space", "\u3000": "ideographic space", "\u2007": "figure space",
    "\u2008": "punctuation space", "\u2004": "three-per-em space", "\u2005": "four-per-em space", "\u2006": "six-per-em space",
    "\u1680": "ogham space mark", "\u205f": "medium mathematical space", "\u2000": "en quad", "\u2001": "em quad",
    "\u2028": "line separator", "\u2029": "paragraph separator", "\u200b": "zero width space",
    "\ufeff": "zero width no-break space", "\u200c": "zero width non-joiner", "\u200d": "zero width joiner",
    "\u2060": "word joiner", "\u00ad": "soft hyphen" };
  // Python's str.isspace: \s without the BOM, plus NEL and the information separators
  function isSpace(ch) { return ch !== "\ufeff" && (/\s/.test(ch) || ch === "\u0085" || (ch >= "\u001c" && ch <= "\u001f")); }

  function whereText(err, original, masked, offsets) {
    var start = offsets.original(err.start);
    var lexed = tokenize(masked.slice(0, start));
    if (lexed.tokens.length && lexed.stop === start) {
      var last = lexed.tokens[lexed.tokens.length - 1];
      return "after `" + original.slice(last.start_pos, last.end_pos) + "`";
    }
    if (err.prev !== null) return "after `" + err.text.slice(err.prev.start_pos, err.prev.end_pos) + "`";
    return "at the start of the filter";
  }

  function shouting(word) { return has(D.keywords, word.toLowerCase()) && word !== word.toLowerCase(); }
  function spaced(text, start, end, word) {
    var before = start === 0 || isSpace(text[start - 1]) ? "" : " ";
    var after = end >= text.length || isSpace(text[end]) ? "" : " ";
    return before + word + after;
  }
  function joinedWithAnd(text, start, end, separator) {
    var joined = spaced(text, start, end, "and");
    var example = (text.slice(0, start) + joined + text.slice(end)).trim();
    if (example.indexOf("\ue000") !== -1 || example.indexOf("\0") !== -1 || example.length > 80) example = "type = sensor and status = down";
    return ["join conditions with `and`, not `" + separator + "` (the old API's style): `" + example + "`", [[start, end, joined]], null];
  }
  function openParentheses(tokens) {
    var depth = 0;
    tokens.forEach(function (t) { if (t.type === "LPAR") depth++; else if (t.type === "RPAR") depth = Math.max(depth - 1, 0); });
    return depth;
  }
  function unclosed(tokens) {
    var stack = [];
    tokens.forEach(function (t) { if (t.type === "LPAR") stack.push(t.start_pos); else if (t.type === "RPAR" && stack.length) stack.pop(); });
    return stack.length ? stack[stack.length - 1] : null;
  }
  function endOfWords(text, pos) {
    var tokens = tokenize(text.slice(pos)).tokens, end = pos;
    for (var i = 0; i < tokens.length; i++) { if (tokens[i].type !== "NAME") break; end = pos + tokens[i].end_pos; }
    return end;
  }
  function notWithoutParentheses(err, original, offsets) {
    var text = err.text, tokens = tokenize(text).tokens, end = null;
    var following = tokens.filter(function (t) { return t.start_pos >= err.start; });
    if (following.length >= 3 && has(D.operator_terminals, following[1].type)) {
      if (following[2].type === "LSQB") {
        var close = following.filter(function (t) { return t.type === "RSQB"; })[0];
        end = close ? close.end_pos : null;
      } else end = following[2].end_pos;
    }
    if (end === null) return ["`not` takes a parenthesized expression: `not(<expression>)`", null, null];
    var inner = original.slice(offsets.original(err.start), offsets.original(end));
    return ["`not` takes a parenthesized expression: write `not(" + inner + ")`", [[err.prev.end_pos, err.start, "("], [end, end, ")"]], null];
  }
  function brokenText(text, start) {
    var i = start + 1;
    while (i < text.length) {
      var ch = text[i];
      if (ch === '"') break;
      if (ch === "\\") {
        var nxt = text.slice(i + 1, i + 2);
        if (nxt !== '"' && nxt !== "\\") {
          var esc = text.slice(i, i + 2);
          return ["write `\\\\` for a backslash", [[i, i + 1, "\\\\"]],
            ["invalid escape `" + esc + "` in a text value: only `\\\"` and `\\\\` are allowed", i, i + esc.length]];
        }
        i += 2; continue;
      }
      i++;
    }
    return ['add `"` where the text ends', [[text.length, text.length, '"']], ["this text has no closing double quote", start, start + 1]];
  }
  function characterHint(err, original, offsets) {
    var text = err.text, start = err.start, ch = text[start], runEnd = start;
    while (runEnd < text.length && text[runEnd] === ch) runEnd++;
    var idx;
    if (ch === "&" || ch === "|") {
      var word = ch === "&" ? "and" : "or", written = text.slice(start, runEnd);
      var where = whereText(err, original, original, offsets);
      return ["join conditions with `" + word + "`, not `" + written + "`", [[start, runEnd, spaced(text, start, runEnd, word)]],
        ["unexpected `" + written + "` " + where + ": expected " + describe(err.expected), start, runEnd]];
    }
    if (ch === ";") return joinedWithAnd(text, start, start + 1, ";");
    if (ch === "'") {
      var close = text.indexOf("'", start + 1);
      if (close < 0) return ["text values use double quotes", null, null];
      var quoted = '"' + text.slice(start + 1, close).replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
      return ["text values use double quotes: write `" + quoted + "`", [[start, close + 1, quoted]], null];
    }
    if ("\u201c\u201d\u201e".indexOf(ch) !== -1 || "\u2018\u2019".indexOf(ch) !== -1) {
      var set = "\u201c\u201d\u201e".indexOf(ch) !== -1 ? "\u201c\u201d\u201e" : "\u2018\u2019", edits = [];
      for (idx = 0; idx < text.length; idx++) if (set.indexOf(text[idx]) !== -1) edits.push([idx, idx + 1, '"']);
      return [set.length === 3 ? 'use straight double quotes `"`' : 'text values use straight double quotes `"`', edits, null];
    }
    if (ch === '"') return brokenText(text, start);
    if (ch === "@") return ["`@` functions such as `@sub()` belong to the old API; compare with `=`, `in` or `contains` and a text in double quotes, for example `name = \"x\"`", null, null];
    if (ch === "!") return ["negate with `not(<expression>)`; `!` is only part of `!=`", null, null];
    if (ch === ":" && D.operator_terminals.every(function (o) { return has(err.expected, o); })) return ["compare with `=`", [[start, start + 1, "="]], null];
    if (isSpace(ch)) return ["this is a " + (SPACE_NAMES[ch] || "a special space") + "; use a plain space", [[start, start + 1, " "]], null];
    if (/\p{Nd}/u.test(ch)) return ["numbers use the ASCII digits 0-9 only", null, null];
    return [null, null, null];
  }
  function hint(err, original, offsets) {
    var text = err.text, found = err.found, prev = err.prev, start = err.start, end = err.end;
    if (err.kind !== "char" && shouting(found)) return ["keywords are lower case: write `" + found.toLowerCase() + "`", [[start, end, found.toLowerCase()]], null];
    if (prev !== null && prev.type === "NAME" && shouting(prev.value)) {
      return ["write `" + prev.value.toLowerCase() + "`", [[prev.start_pos, prev.end_pos, prev.value.toLowerCase()]],
        ["`" + prev.value + "` is read as a property name: keywords are lower case", prev.start_pos, prev.end_pos]];
    }
    var opExpected = D.operator_terminals.every(function (o) { return has(err.expected, o); });
    if (err.kind === "token") {
      var kind = err.found_type;
      if (kind === "EQ" && prev !== null && prev.type === "EQ" && prev.end_pos === start) return ["compare with a single `=`", [[start, end, ""]], null];
      if (kind === "GT" && prev !== null && prev.type === "LT" && prev.end_pos === start) return ["write `!=` for not equal", [[prev.start_pos, end, "!="]], null];
      if (opExpected && kind === "NAME" && ODATA.hasOwnProperty(found.toLowerCase())) {
        var symbol = ODATA[found.toLowerCase()];
        return ["`" + found + "` is OData notation; this language writes `" + symbol + "`", [[start, end, symbol]], null];
      }
      if (kind === "RSQB" && prev !== null && prev.type === "_COMMA") return ["remove the comma before `]`: a list has no trailing comma", [[prev.start_pos, prev.end_pos, ""]], null];
      if (kind === "RSQB" && prev !== null && prev.type === "LSQB") return ["a list needs at least one element", null, null];
      if (prev !== null && prev.type === "NOT" && kind !== "LPAR") return notWithoutParentheses(err, original, offsets);
      if (has(D.relation_terminals, kind)) return ["a relationship word stands only at the very start of a filter and applies to all of it: `" + found + " <filter>`", null, null];
      if (kind === "RPAR" && openParentheses(err.before) === 0) return ["this `)` has no matching `(`", [[start, end, ""]], null];
      if (kind === "_COMMA" && !has(err.expected, "_COMMA")) return joinedWithAnd(text, start, end, ",");
      if (has(["_AND", "_OR", "NOT", "IN", "CONTAINS", "MATCHES"], kind) && has(err.expected, "LSQB")) return ["`" + found + "` is a keyword, not a value: is the value missing?", null, null];
      if (kind === "TEXT" && has(err.expected, "NAME") && !has(err.expected, "LSQB") && !has(err.expected, "EQ")) {
        var name = found.slice(1, -1);
        return ["property names are written without quotes: `" + name + "`", [[start, end, name]], null];
      }
      if (kind === "NAME" && prev !== null && prev.type === "NAME" && has(err.expected, "_AND")) {
        return ['a text value with spaces goes in double quotes: `"' + text.slice(prev.start_pos, endOfWords(text, end)) + '"`', null, null];
      }
      return [null, null, null];
    }
    if (err.kind === "end") {
      if (has(err.expected, "RPAR")) {
        var opened = unclosed(err.before);
        if (opened !== null) {
          var lc = lineColumn(original, offsets.original(opened));
          var at = lc[0] === 1 ? "column " + lc[1] : "line " + lc[0] + ", column " + lc[1];
          return ["the `(` at " + at + " is not closed: add `)`", [[end, end, ")"]], null];
        }
      }
      if (prev !== null && prev.type === "NOT") return ["`not` takes a parenthesized expression: `not(<expression>)`", null, null];
      return [null, null, null];
    }
    return characterHint(err, original, offsets);
  }

  function explain(text, raw, original, masked, offsets) {
    var err = makeError(text, raw);
    function shown(s, e) { return original.slice(offsets.original(s), offsets.original(e)) || text.slice(s, e); }
    var expected = describe(err.expected), where = whereText(err, original, masked, offsets), message = null;
    if (err.kind === "end") message = text.trim() ? "expected " + expected + " " + where + ", but the filter ends there" : "the filter is empty: expected " + expected;
    else if (err.kind === "token") message = "expected " + expected + " " + where + ", found `" + shown(err.start, err.end) + "`";
    var h = hint(err, original, offsets), start = err.start, end = err.end;
    if (h[2]) { message = h[2][0]; start = h[2][1]; end = h[2][2]; }
    else if (message === null) message = "unexpected character " + charName(shown(err.start, err.end)) + " " + where + ": expected " + expected;
    return [make("FLT001", message, start, end, h[0]), h[1]];
  }

  function parse(text) {
    var masked = text.indexOf("\ue000") !== -1 ? text.replace(/\ue000/g, "\0") : text;
    var first = lalr(masked);
    if (first.tree) return { tree: first.tree, diagnostics: [], ok: true };
    var current = masked, offsets = new OffsetMap(), diagnostics = [], lastStart = -1;
    var rounds = text.length <= LONG_FILTER ? MAX_REPAIRS : 1;
    for (var n = 0; n < rounds; n++) {
      var result = n === 0 ? first : lalr(current);
      if (result.tree) {
        return { tree: null, recovered: result.tree, diagnostics: diagnostics, offsets: offsets, recovered_text: current };
      }
      var out = explain(current, result.error, text, masked, offsets), d = out[0], repair = out[1];
      var start = offsets.original(d.start);
      if (start <= lastStart && diagnostics.length) break;
      d.start = start; d.end = Math.max(start, offsets.original(d.end));
      diagnostics.push(d);
      lastStart = start;
      if (!repair) break;
      repair.slice().sort(function (a, b) { return b[0] - a[0] || b[1] - a[1] || (b[2] < a[2] ? -1 : b[2] > a[2] ? 1 : 0); }).forEach(function (edit) {
        current = current.slice(0, edit[0]) + edit[2] + current.slice(edit[1]);
        offsets = offsets.then(edit[0], edit[1], edit[2].length);
      });
    }
    return { tree: null, recovered: null, diagnostics: diagnostics, offsets: offsets };
  }

  // -- FLT002-FLT006: the property catalog (filters/check.py) -----------------------

  function ratio(a, b) {
    var b2j = {};
    for (var j = 0; j < b.length; j++) (b2j[b[j]] = b2j[b[j]] || []).push(j);
    function longest(alo, ahi, blo, bhi) {
      var besti = alo, bestj = blo, bestsize = 0, j2len = {};
      for (var i = alo; i < ahi; i++) {
        var next = {}, js = b2j[a[i]] || [];
        for (var x = 0; x < js.length; x++) {
          var jj = js[x];
          if (jj < blo) continue;
          if (jj >= bhi) break;
          var k = next[jj] = (j2len[jj - 1] || 0) + 1;
          if (k > bestsize) { besti = i - k + 1; bestj = jj - k + 1; bestsize = k; }
        }
        j2len = next;
      }
      return [besti, bestj, bestsize];
    }
    var queue = [[0, a.length, 0, b.length]], matches = 0;
    while (queue.length) {
      var q = queue.pop(), m = longest(q[0], q[1], q[2], q[3]);
      if (m[2]) {
        matches += m[2];
        if (q[0] < m[0] && q[2] < m[1]) queue.push([q[0], m[0], q[2], m[1]]);
        if (m[0] + m[2] < q[1] && m[1] + m[2] < q[3]) queue.push([m[0] + m[2], q[1], m[1] + m[2], q[3]]);
      }
    }
    return a.length + b.length ? 2 * matches / (a.length + b.length) : 1;
  }
  function closeMatch(word, options) {
    var best = null, score = -1;
    options.forEach(function (x) {
      var r = ratio(x, word);
      if (r >= 0.6 && (r > score || (r === score && x > best))) { score = r; best = x; }
    });
    return best;
  }
  function squash(word) { return word.toLowerCase().replace(/[._\-]/g, ""); }
  function suggestProperty(name, names) {
    var lowered = name.toLowerCase(), i;
    for (i = 0; i < names.length; i++) if (names[i].toLowerCase() === lowered) return names[i];
    for (i = 0; i < names.length; i++) if (squash(names[i]) === squash(name)) return names[i];
    var last = lowered.split(".").pop();
    var byLast = names.filter(function (c) { return c.split(".").pop() === last; });
    if (byLast.length === 1) return byLast[0];
    return closeMatch(name, names);
  }
  function respelled(name) {
    var s = squash(name), names = Object.keys(catalog.byName);
    for (var i = 0; i < names.length; i++) if (squash(names[i]) === s) return names[i];
    return "";
  }
  function comparisons(expr) {
    var found = [], stack = [expr];
    while (stack.length) {
      var node = stack.pop();
      if (node.t === "Comparison") found.push(node);
      else if (node.t === "And" || node.t === "Or") for (var i = node.operands.length - 1; i >= 0; i--) stack.push(node.operands[i]);
      else if (node.t === "Not") stack.push(node.operand);
    }
    return found;
  }
  function fits(prop, item) {
    var kind = prop.type;
    if (item.t === "Unknown") return kind !== "text";
    if (kind === "text") return item.t === "Text";
    if (kind === "enumeration") return item.t === "EnumToken";
    if (kind === "boolean") return item.t === "Boolean";
    if (kind === "number") return item.t === "Number";
    return true;
  }
  function asType(prop, item, shown) {
    var kind = prop.type;
    if (kind === "text") return item.t === "Text" ? shown : '"' + shown.replace(/\\/g, "\\\\").replace(/"/g, '\\"') + '"';
    var inner = item.t === "Text" ? item.value : shown;
    if (kind === "enumeration" && BARE.test(inner) && !has(D.keywords, inner)) {
      var lowered = {};
      prop.values.forEach(function (v) { lowered[v.toLowerCase()] = v; });
      return lowered.hasOwnProperty(inner.toLowerCase()) ? lowered[inner.toLowerCase()] : inner;
    }
    if (kind === "boolean" && (inner.toLowerCase() === "true" || inner.toLowerCase() === "false")) return inner.toLowerCase();
    if (kind === "number" && /^[0-9]+$/.test(inner)) return inner;
    return shown;
  }
  function typeMessage(prop, item) {
    if (item.t === "Unknown") return "the interpolated value stands unquoted, but `" + prop.name + "` takes a text in double quotes";
    var wants = { text: "a text in double quotes", enumeration: "an enumeration value without quotes", boolean: "`true` or `false` without quotes", number: "a number (digits, without quotes)" }[prop.type];
    var got = { Text: "a quoted text", Number: "a number", Boolean: "a boolean", EnumToken: prop.type === "text" ? "a bare word" : "an enumeration value" }[item.t];
    return "`" + prop.name + "` takes " + wants + ", not " + got;
  }
  function valueProblems(c, prop, written) {
    var value = c.value, problems = [], shown;
    if (c.op === "in" && value.t !== "List") {
      shown = asType(prop, value, written(value.start, value.end));
      return [make("FLT004", "`in` takes a list in `[ ]`, not a single value", value.start, value.end, "write `" + prop.name + " in [" + shown + "]`")];
    }
    if (c.op !== "in" && value.t === "List") {
      var h = has(prop.operators, "in") ? "write `" + prop.name + " in " + written(value.start, value.end) + "`" : null;
      return [make("FLT004", "`" + c.op + "` compares with one value, not a list", value.start, value.end, h)];
    }
    var items = value.t === "List" ? value.items : [value];
    var wrong = items.filter(function (i) { return !fits(prop, i); });
    if (wrong.length) {
      var fixed = value.t === "List"
        ? "[" + items.map(function (i) { return asType(prop, i, written(i.start, i.end)); }).join(", ") + "]"
        : asType(prop, value, written(value.start, value.end));
      var canFix = wrong.every(function (i) { var s = written(i.start, i.end), a = asType(prop, i, s); return a !== null && a !== s; });
      var hintText = canFix ? "write `" + prop.name + " " + c.op + " " + fixed + "`" : null;
      wrong.forEach(function (i) { problems.push(make("FLT004", typeMessage(prop, i), i.start, i.end, hintText)); });
    }
    if (prop.type === "enumeration" && prop.values.length) {
      items.forEach(function (i) { if (i.t === "EnumToken" && !has(prop.values, i.value)) problems.push(unknownValue(prop, i)); });
    }
    return problems;
  }
  function unknownValue(prop, item) {
    var message = "`" + item.value + "` is not a known value of `" + prop.name + "` (known: " + prop.values.join(", ") + ")";
    var guess = null;
    prop.values.forEach(function (v) { if (guess === null && v.toLowerCase() === item.value.toLowerCase()) guess = v; });
    if (guess === null) guess = closeMatch(item.value, prop.values);
    var h = guess !== null ? "did you mean `" + guess + "`? Values are case-sensitive" : "the spec lists only some values (the registry adds those it assumes); the server may know more";
    return make("FLT005", message, item.start, item.end, h);
  }
  function operatorNotAllowed(c, prop, written) {
    var message = "operator `" + c.op + "` is not allowed on `" + prop.name + "`; allowed: " + prop.operators.join(", ");
    var value = written(c.value.start, c.value.end), h = null;
    if (prop.multi_valued && has(prop.operators, "contains") && (c.op === "=" || c.op === "in")) h = "`" + prop.name + "` holds several values: write `" + prop.name + " contains " + value + "`";
    else if (c.op === "contains" && has(prop.operators, "=")) h = "`" + prop.name + "` holds one value: compare with `=`" + (prop.type === "text" ? " (it matches the whole text, not a part of it)" : "");
    else if (c.op === "in" && has(prop.operators, "=") && c.value.t === "List") {
      var items = c.value.items;
      h = "compare with `=`" + (items.length > 1 ? " and join with `or`" : "") + ": `" +
        items.map(function (i) { return prop.name + " = " + asType(prop, i, written(i.start, i.end)); }).join(" or ") + "`";
    }
    return make("FLT003", message, c.op_start, c.op_end, h);
  }
  function unknownProperty(c, written) {
    var name = c.prop, message = "`" + name + "` is not a filterable property", names = Object.keys(catalog.byName), h;
    var dot = name.indexOf("."), head = dot < 0 ? name : name.slice(0, dot), rest = dot < 0 ? "" : name.slice(dot + 1);
    if (has(catalog.relationships, head) && catalog.byName.hasOwnProperty(rest)) {
      h = "a relationship word goes first, before the filter: `" + head + " " + rest + " " + c.op + " " + written(c.value.start, c.value.end) + "`";
    } else {
      var s = suggestProperty(name, names);
      h = s ? "did you mean `" + s + "`?" : "filterable properties: " + names.join(", ");
    }
    return make("FLT002", message, c.prop_start, c.prop_start + name.length, h);
  }
  function kindOf(path) {
    var rest = path.replace(/^\/experimental/, ""), best = null;
    Object.keys(catalog.collections).forEach(function (col) {
      var prefix = "/" + col;
      if ((rest === prefix || rest.indexOf(prefix + "/") === 0) && (best === null || col.length > best.length)) best = col;
    });
    return best === null ? null : catalog.collections[best];
  }
  function checkTree(tree, kind, written) {
    var found = [];
    comparisons(tree.expr).forEach(function (c) {
      if (c.prop_unknown) return;
      var prop = catalog.byName[c.prop];
      if (!prop) {
        found.push(unknownProperty(c, written));
        prop = catalog.byName[respelled(c.prop)];
        if (!prop) return;
      }
      if (!has(prop.operators, c.op)) found.push(operatorNotAllowed(c, prop, written));
      found = found.concat(valueProblems(c, prop, written));
      if (kind && !tree.relation && prop.applies_to.length && !has(prop.applies_to, kind)) {
        found.push(make("FLT006", "`" + prop.name + "` applies to " + prop.applies_to.join(", ") + " objects only, not to the " + kind + " objects of this endpoint",
          c.prop_start, c.prop_start + c.prop.length, "use `" + prop.name + "` on " + prop.applies_to.join(", ") + " endpoints"));
      }
    });
    return found;
  }
  function ordered(list) {
    return list.slice().sort(function (a, b) { return a.start - b.start || a.end - b.end || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0); });
  }

  /* Every diagnostic of `text`, earliest first; `endpoint` is a registry path or null. */
  function check(text, endpoint) {
    var kind = endpoint ? kindOf(endpoint) : false;
    var result = parse(text);
    var tree = result.tree || result.recovered;
    if (!tree) return result.diagnostics;
    if (result.ok) return ordered(checkTree(tree, kind, function (s, e) { return text.slice(s, e); }));
    var offsets = result.offsets, source = result.recovered_text;
    var found = checkTree(tree, kind, function (s, e) { return text.slice(offsets.original(s), offsets.original(e)) || source.slice(s, e); });
    found.forEach(function (d) { var s = offsets.original(d.start); d.end = Math.max(s, offsets.original(d.end)); d.start = s; });
    return ordered(result.diagnostics.concat(found));
  }

  var api = { init: init, check: check, lineColumn: lineColumn };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else {
    global.apispecFilter = api;
    var el = global.document && global.document.getElementById("filter-data");
    if (el) init(JSON.parse(el.textContent));
  }
})(typeof window !== "undefined" ? window : this);
