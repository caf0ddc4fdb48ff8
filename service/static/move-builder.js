// The step-by-step move builder and clicks on the picture (no framework, no inline code:
// the Content-Security-Policy allows scripts from this site only).
//
// The page embeds the legal moves as JSON (#moves-data): each has the form's `value`,
// a `label`, its `steps` (coarse to fine; consecutive steps sharing a `group` are one
// unordered pick) and the picture `targets` it acts on.  The builder offers the first
// step's options, then the next; inside a group it offers, one by one, only the items
// that still lead to a legal move.  The final choice checks the matching radio (or
// option) of the ordinary form, which posts exactly as without JavaScript.
(function () {
  "use strict";
  var words = window.Ravenpost.words;  // words.js: the page's words, in its language
  var data = document.getElementById("moves-data");
  var form = document.getElementById("move-form");
  if (!data || !form) { return; }
  var moves = JSON.parse(data.textContent);
  // each target's name in the game's words ("Quarry", not "loc:quarry")
  var namesData = document.getElementById("target-names");
  var targetNames = namesData ? JSON.parse(namesData.textContent) : {};
  function targetName(t) { return targetNames[t] || t.split(":").slice(1).join(" ").replace(/_/g, " ") || t; }

  // A move's steps as segments: {single: label} or {group: name, items: [labels]}.
  function segments(steps) {
    var out = [];
    steps.forEach(function (s) {
      var last = out[out.length - 1];
      if (s.group && last && last.group === s.group) { last.items.push(s.label); }
      else if (s.group) { out.push({ group: s.group, items: [s.label] }); }
      else { out.push({ single: s.label }); }
    });
    return out;
  }
  moves.forEach(function (m) { m.segs = segments(m.steps); });

  // How many of each item a list holds.
  function counts(list) {
    var c = {};
    list.forEach(function (x) { c[x] = (c[x] || 0) + 1; });
    return c;
  }
  function within(picked, items) {  // picked is a sub-multiset of items
    var have = counts(items), want = counts(picked);
    return Object.keys(want).every(function (k) { return (have[k] || 0) >= want[k]; });
  }
  function remaining(items, picked) {
    var left = items.slice();
    picked.forEach(function (p) { var i = left.indexOf(p); if (i >= 0) { left.splice(i, 1); } });
    return left;
  }

  // decisions: {single} or {group, picked, open}; finish: a move chosen that ends where
  // longer ones go on (its value)
  var state = { target: null, decisions: [], finish: null };

  function fits(move) {
    if (state.finish !== null) { return move.value === state.finish; }
    if (state.target && move.targets.indexOf(state.target) < 0) { return false; }
    return state.decisions.every(function (d, i) {
      var seg = move.segs[i];
      if (!seg) { return false; }
      if ("single" in d) { return seg.single === d.single; }
      if (seg.group !== d.group || !within(d.picked, seg.items)) { return false; }
      return d.open || d.picked.length === seg.items.length;
    });
  }
  function candidates() { return moves.filter(fits); }

  // -- the ordinary form: select or check the move's value --------------------------------
  var field = form.elements.namedItem("move");
  var radios = Array.prototype.slice.call(form.querySelectorAll("input[name=move]"));
  var select = form.querySelector("select[name=move]");
  function choose(move) {
    radios.forEach(function (r) {
      r.checked = move !== null && r.value === move.value;
      r.closest("label").classList.toggle("selected", r.checked);
    });
    if (select) { select.value = move ? move.value : ""; }
  }

  // -- the builder's box ----------------------------------------------------------------
  var box = document.createElement("div");
  box.className = "builder";
  box.innerHTML = '<p class="path"></p><p class="status muted" aria-live="polite"></p>' +
    '<div class="options" role="group"></div>' +
    '<div class="controls"><button type="button" data-act="back"></button>' +
    '<button type="button" data-act="reset"></button></div>';
  box.querySelector(".options").setAttribute("aria-label", words("Choices"));
  box.querySelector("[data-act=back]").textContent = words("Undo this step");
  box.querySelector("[data-act=reset]").textContent = words("Start over");
  var heading = form.querySelector("h2");
  heading.parentNode.insertBefore(box, heading.nextSibling);
  form.classList.add("has-builder");
  // "Done" sits with the builder's controls, always in view in the action bar
  var send = form.querySelector("button[type=submit]");
  if (send) {
    box.querySelector(".controls").appendChild(send);
    send.classList.add("done");
  }
  // The plain list of every move stays one tap away (open at a desk, folded on a phone,
  // where the action bar has room only for the builder).
  var list = form.querySelector(".move-list");
  if (list) {
    var fold = document.createElement("details");
    var summary = document.createElement("summary");
    var count = form.querySelectorAll("input[name=move], select[name=move] option").length;
    summary.textContent = words("Every move as a list (%(n)s)", { n: count });
    fold.appendChild(summary);
    while (list.firstChild) { fold.appendChild(list.firstChild); }
    list.appendChild(fold);
    fold.open = !window.matchMedia || window.matchMedia("(min-width: 60rem)").matches;
  }
  var path = box.querySelector(".path"), status = box.querySelector(".status"),
    options = box.querySelector(".options");

  function button(text, onclick, cls) {
    var b = document.createElement("button");
    b.type = "button";
    b.textContent = text;
    if (cls) { b.className = cls; }
    b.addEventListener("click", onclick);
    options.appendChild(b);
    return b;
  }

  function render() {
    // A keyboard user who chose in the box stays in it (its buttons are rebuilt below).
    var hadFocus = box.contains(document.activeElement);
    var found = candidates();
    // Every matching move takes the same next step ("Place a Worker"): take it at once.
    while (found.length > 1 && state.finish === null) {
      var kk = state.decisions.length, prev = state.decisions[kk - 1];
      var same = found[0].segs[kk];
      if ((prev && prev.open) || !same || !("single" in same) || !found.every(function (m) {
        return m.segs[kk] && m.segs[kk].single === same.single;
      })) { break; }
      state.decisions.push({ single: same.single, auto: true });
      found = candidates();
    }
    // Every matching move goes on with the same unordered pick: start it at once.
    var k0 = state.decisions.length, last0 = state.decisions[k0 - 1];
    if (found.length > 1 && !(last0 && last0.open) && found.every(function (m) {
      return m.segs[k0] && m.segs[k0].group === (found[0].segs[k0] || {}).group &&
        "group" in m.segs[k0];
    })) {
      state.decisions.push({ group: found[0].segs[k0].group, picked: [], open: true, auto: true });
    }
    var open = state.decisions.length && state.decisions[state.decisions.length - 1];
    open = open && open.open ? open : null;
    var k = state.decisions.length - (open ? 1 : 0);
    options.innerHTML = "";
    var steps = state.decisions.map(function (d) {
      return "single" in d ? d.single : d.group + ": " + (d.picked.map(short).join(", ") || "…");
    });
    if (state.target) {
      steps.unshift(words("on the board: %(target)s", { target: targetName(state.target) }));
    }
    path.textContent = steps.length ? words("Chosen so far: %(path)s", { path: steps.join(" › ") })
      : words("Build your move:");

    if (found.length === 1) {
      choose(found[0]);
      status.innerHTML = "";
      var strong = document.createElement("span");
      strong.className = "chosen";
      strong.textContent = words("Your move: %(move)s", { move: found[0].label });
      status.appendChild(strong);
      status.appendChild(document.createTextNode(" " + words("(press Done to send it)")));
      markTargets(found);
      if (hadFocus) { form.querySelector("button[type=submit]").focus(); }
      if (send) { send.disabled = false; }
      return;
    }
    choose(null);
    if (!found.length) {
      status.textContent = words("No legal move matches these choices: go back or reset.");
      markTargets(found);
      return;
    }
    if (open) {
      var longest = 0, shortest = Infinity;
      var offered = {};
      found.forEach(function (m) {
        var seg = m.segs[k];
        longest = Math.max(longest, seg.items.length);
        shortest = Math.min(shortest, seg.items.length);
        remaining(seg.items, open.picked).forEach(function (x) { offered[x] = true; });
      });
      var counts = { group: open.group, n: open.picked.length, least: shortest,
        most: longest, k: found.length };
      status.textContent = shortest === longest
        ? words("%(group)s: %(n)s of %(most)s chosen; %(k)s moves still match.", counts)
        : words("%(group)s: %(n)s chosen (%(least)s to %(most)s in all); %(k)s moves still match.",
          counts);
      Object.keys(offered).sort(byLabel).forEach(function (item) {
        button(item, function () { pickItem(item); });
      });
      if (found.some(function (m) { return m.segs[k].items.length === open.picked.length; })) {
        button(words("Done choosing %(group)s", { group: open.group }), function () { open.open = false; render(); }, "picked");
      }
    } else {
      status.textContent = words("%(k)s moves match. Choose:", { k: found.length });
      var singles = {}, groups = {};
      found.forEach(function (m) {
        var seg = m.segs[k];
        if (!seg) {
          button(m.label, function () { state.finish = m.value; render(); }, "picked");
        } else if ("single" in seg) { singles[seg.single] = true; }
        else {
          groups[seg.group] = groups[seg.group] || {};
          seg.items.forEach(function (x) { groups[seg.group][x] = true; });
        }
      });
      Object.keys(singles).sort(byLabel).forEach(function (label) {
        button(label, function () { state.decisions.push({ single: label }); render(); });
      });
      Object.keys(groups).forEach(function (g) {
        Object.keys(groups[g]).sort(byLabel).forEach(function (item) {
          button(g + ": " + item, function () {
            state.decisions.push({ group: g, picked: [], open: true });
            pickItem(item);
          });
        });
      });
    }
    markTargets(found);
    var first = options.querySelector("button");
    if (hadFocus && first && !box.contains(document.activeElement)) { first.focus(); }
  }

  // A picked item as the path names it: "Tax" for "Tax: Needs a town: gain 2 shillings"
  // (its button carries the details; a colon inside brackets is not a name's end).
  function short(label) {
    var m = /^([^(:]+): /.exec(label);
    return m ? m[1] : label;
  }
  function byLabel(a, b) { return a.localeCompare(b, undefined, { numeric: true }); }

  function pickItem(item) {
    var open = state.decisions[state.decisions.length - 1];
    open.picked.push(item);
    // Close the pick by itself once no matching move takes more items.
    var k = state.decisions.length - 1;
    var more = candidates().some(function (m) { return m.segs[k].items.length > open.picked.length; });
    if (!more) { open.open = false; }
    render();
  }

  box.addEventListener("click", function (e) {
    var act = e.target.getAttribute && e.target.getAttribute("data-act");
    if (act === "back") {
      var last = state.decisions[state.decisions.length - 1];
      if (state.finish !== null) { state.finish = null; }
      else if (last && "group" in last && last.picked.length) { last.picked.pop(); last.open = true; }
      else if (last && !last.auto) { state.decisions.pop(); }
      else if (last) {
        // steps taken by themselves would be taken again: step back past them and the
        // choice that led to them
        while (state.decisions.length && state.decisions[state.decisions.length - 1].auto) {
          state.decisions.pop();
        }
        if (state.decisions.length) { state.decisions.pop(); } else { state.target = null; }
      } else { state.target = null; }
      render();
    } else if (act === "reset") {
      state.target = null;
      state.decisions = [];
      state.finish = null;
      render();
    }
  });

  // -- the picture: shapes moves act on -------------------------------------------------
  var shapes = Array.prototype.slice.call(document.querySelectorAll("#picture [data-target]"));
  function markTargets(found) {
    var live = {};
    found.forEach(function (m) { m.targets.forEach(function (t) { live[t] = true; }); });
    // Shapes no move is left for fade only once the player has started choosing.
    var narrowing = state.target !== null || state.decisions.length > 0 || state.finish !== null;
    shapes.forEach(function (s) {
      var name = s.getAttribute("data-target");
      s.classList.toggle("live", !!live[name]);
      s.classList.toggle("dim", narrowing && !live[name]);
      s.classList.toggle("picked", name === state.target);
      s.setAttribute("aria-disabled", live[name] ? "false" : "true");
    });
  }
  function hasMoves(shape) {
    var name = shape.getAttribute("data-target");
    return moves.some(function (m) { return m.targets.indexOf(name) >= 0; });
  }
  function onTarget(shape) {
    if (!hasMoves(shape)) { return; }
    state.target = shape.getAttribute("data-target");
    state.decisions = [];
    state.finish = null;
    render();
  }
  // The topmost shape under the pointer that a move acts on: a shape drawn over another
  // (an item on its quest card) passes a click it has no move for to the one beneath.
  var picture = document.getElementById("picture");
  // The click's own target comes first: clientX/Y are rounded to whole pixels, so the
  // stack found there can miss a small shape the pointer was on (a Worker's count).
  function shapeAt(e) {
    var stack = [e.target].concat((e.clientX || e.clientY) && document.elementsFromPoint ?
      document.elementsFromPoint(e.clientX, e.clientY) : []);
    for (var i = 0; i < stack.length; i++) {
      var s = stack[i].closest ? stack[i].closest("[data-target]") : null;
      while (s && picture.contains(s)) {
        if (hasMoves(s)) { return s; }
        s = s.parentElement ? s.parentElement.closest("[data-target]") : null;
      }
    }
    return null;
  }
  if (picture) {
    picture.addEventListener("click", function (e) {
      var s = shapeAt(e);
      if (s) { onTarget(s); }
    });
  }
  shapes.forEach(function (s) {
    // Tab stops only where a move can be made (the rest would be dozens of dead stops).
    if (!hasMoves(s)) { s.setAttribute("tabindex", "-1"); }
    s.addEventListener("keydown", function (e) {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onTarget(s); }
    });
  });

  // A radio picked by hand wins over the builder's state.
  radios.forEach(function (r) {
    r.addEventListener("change", function () {
      radios.forEach(function (o) { o.closest("label").classList.toggle("selected", o.checked); });
    });
  });
  if (field === null) { return; }
  render();
})();
