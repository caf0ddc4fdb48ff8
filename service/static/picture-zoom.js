// The board at a scale its text can be read at.  On a phone the smallest text is shown
// at MIN_TEXT CSS px at least: a board whose print would be smaller scaled to the
// screen is shown larger, panning sideways inside its own box (never the page), and a
// button shows the whole board at once and back.  At a desk the board fills its column,
// up to DESK_MAX of its own size.  Without script the board is simply scaled to fit.
(function () {
  "use strict";
  var words = window.Ravenpost.words;  // words.js: the page's words, in its language
  var MIN_TEXT = 11.1, DESK_MAX = 1.35;  // 11 px, with room for rounding to device pixels
  var desk = window.matchMedia ? window.matchMedia("(min-width: 60rem)") : { matches: true };
  document.querySelectorAll("figure.picture").forEach(function (figure) {
    var svgs = Array.prototype.slice.call(figure.querySelectorAll("svg"));
    if (!svgs.length) { return; }
    var button = document.createElement("button");
    button.type = "button";
    button.className = "zoom";
    button.setAttribute("aria-pressed", "false");
    button.hidden = true;
    figure.insertBefore(button, figure.firstChild);
    var smallest = new Map();
    function smallestText(svg) {
      if (!smallest.has(svg)) {
        var least = Infinity;
        svg.querySelectorAll("text").forEach(function (t) {
          var size = parseFloat(t.getAttribute("font-size")) ||
            parseFloat(getComputedStyle(t).fontSize) || Infinity;
          least = Math.min(least, size);
        });
        smallest.set(svg, least);
      }
      return smallest.get(svg);
    }
    function shownSvg() {
      return svgs.filter(function (s) { return s.getClientRects().length > 0; })[0];
    }
    function room() {
      var style = getComputedStyle(figure);
      return figure.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    }
    function label() {
      var whole = figure.classList.contains("whole");
      button.textContent = words(whole ? "Show the board larger, to read it"
        : "Show the whole board");
      button.setAttribute("aria-pressed", whole ? "true" : "false");
    }
    function update() {
      var svg = shownSvg();
      svgs.forEach(function (s) { if (s !== svg) { s.style.width = ""; } });
      if (!svg) { return; }
      var natural = parseFloat(svg.getAttribute("width")) || 0, avail = room();
      if (!natural || !avail) { return; }
      var fit = avail / natural, scale;
      if (desk.matches) {
        scale = Math.min(fit, DESK_MAX);
        button.hidden = true;
      } else {
        var legible = MIN_TEXT / smallestText(svg);
        var needed = isFinite(legible) && fit < legible;
        button.hidden = !needed;
        scale = needed && !figure.classList.contains("whole") ? legible : Math.min(fit, 1);
        if (!needed) { figure.classList.remove("whole"); }
      }
      svg.style.maxWidth = scale > fit ? "none" : "";
      svg.style.width = Math.ceil(natural * scale * 100) / 100 + "px";
      figure.classList.toggle("pans", scale > fit);
    }
    button.addEventListener("click", function () {
      figure.classList.toggle("whole");
      label();
      update();
    });
    label();
    update();
    window.addEventListener("resize", update);
  });
})();
