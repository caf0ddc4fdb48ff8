// A picture wider than the screen is shown whole, scaled down; on a phone its small print
// can then be too small to read.  Where it is shown at less than ZOOM_BELOW of its own
// size, a button shows it at full size, scrolling sideways inside its own box (never the
// page), and back.  Without script the picture is simply scaled to fit.
(function () {
  "use strict";
  var ZOOM_BELOW = 0.75;
  document.querySelectorAll("figure.picture").forEach(function (figure) {
    var svg = figure.querySelector("svg");
    if (!svg) { return; }
    var natural = parseFloat(svg.getAttribute("width")) || 0;
    var button = document.createElement("button");
    button.type = "button";
    button.className = "zoom";
    button.setAttribute("aria-pressed", "false");
    button.hidden = true;
    figure.insertBefore(button, figure.firstChild);
    function label() {
      var zoomed = figure.classList.contains("zoomed");
      button.textContent = zoomed ? "Fit the picture to the screen" : "Show the picture full size";
      button.setAttribute("aria-pressed", zoomed ? "true" : "false");
    }
    function update() {
      if (figure.classList.contains("zoomed")) { return; }
      var shown = svg.getBoundingClientRect().width;
      button.hidden = !(natural && shown && shown < ZOOM_BELOW * natural);
    }
    button.addEventListener("click", function () {
      figure.classList.toggle("zoomed");
      label();
      update();
    });
    label();
    update();
    window.addEventListener("resize", update);
  });
})();
