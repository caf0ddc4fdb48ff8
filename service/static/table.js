// The game page as a table: the players' panels as tabs (a strip that scrolls sideways
// on a phone) and the turn's countdown, kept up to date in the reader's own time zone.
// Without script the panels stay in the position's text and the countdown is the one
// the server wrote.
(function () {
  "use strict";
  var words = window.Ravenpost.words;  // words.js: the page's words, in its language

  // -- the players' panels ----------------------------------------------------------------
  var holder = document.getElementById("panels");
  var panels = Array.prototype.slice.call(document.querySelectorAll(".player-panel"));
  if (holder && panels.length) {
    var strip = document.createElement("div");
    strip.className = "tabs";
    strip.setAttribute("role", "tablist");
    strip.setAttribute("aria-label", words("Players"));
    holder.appendChild(strip);
    var mine = 0;
    panels.forEach(function (panel, i) {
      var tab = document.createElement("button");
      tab.type = "button";
      tab.id = "panel-tab-" + i;
      tab.setAttribute("role", "tab");
      tab.textContent = panel.getAttribute("data-tab") || words("Player %(n)s", { n: i + 1 });
      panel.id = panel.id || "panel-" + i;
      panel.setAttribute("role", "tabpanel");
      panel.setAttribute("aria-labelledby", tab.id);
      tab.setAttribute("aria-controls", panel.id);
      if (panel.classList.contains("mine")) { mine = i; }
      tab.addEventListener("click", function () { show(i); });
      tab.addEventListener("keydown", function (e) {
        var step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0;
        if (step) {
          e.preventDefault();
          var next = (i + step + panels.length) % panels.length;
          show(next);
          strip.children[next].focus();
        }
      });
      strip.appendChild(tab);
      holder.appendChild(panel);
    });
    var show = function (n) {
      panels.forEach(function (panel, i) {
        var on = i === n;
        panel.hidden = !on;
        strip.children[i].setAttribute("aria-selected", on ? "true" : "false");
        strip.children[i].tabIndex = on ? 0 : -1;
      });
    };
    show(mine);
    holder.hidden = false;
  }

  // -- the countdown ------------------------------------------------------------------------
  var countdown = document.getElementById("countdown");
  var due = countdown && Date.parse(countdown.getAttribute("data-due"));
  if (!countdown || isNaN(due)) { return; }
  function left() {
    var minutes = Math.floor((due - Date.now()) / 60000);
    if (minutes < 0) { return words("time is up"); }
    var days = Math.floor(minutes / 1440), hours = Math.floor(minutes / 60) % 24,
      mins = minutes % 60;
    if (days) { return words("%(n)s day %(hours)s h left", { n: days, hours: hours }); }
    if (hours) { return words("%(hours)s h %(mins)s min left", { hours: hours, mins: mins }); }
    return words("%(mins)s min left", { mins: Math.max(mins, 1) });
  }
  var local = document.getElementById("local-due");
  var when = "";
  try {
    when = new Intl.DateTimeFormat(window.Ravenpost.language, {
      weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit",
      timeZoneName: "short"
    }).format(new Date(due));
  } catch (e) { when = ""; }
  function tick() {
    countdown.textContent = left();
    if (when && local) {
      local.textContent = words("due %(when)s", { when: when });
      local.title = words("in your time zone; the game's clock says: %(deadline)s", {
        deadline: (document.getElementById("deadline") || local).textContent.trim() });
      countdown.parentNode.classList.add("local");
    }
  }
  tick();
  setInterval(tick, 30000);
})();
