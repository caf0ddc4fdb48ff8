// Stepping through a game's history: the left and right arrow keys follow the page's
// previous and next links (the links themselves work without script).
(function () {
  "use strict";
  document.addEventListener("keydown", function (e) {
    if (e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
    var tag = (document.activeElement && document.activeElement.tagName) || "";
    if (/^(INPUT|SELECT|TEXTAREA)$/.test(tag)) { return; }
    var rel = { ArrowLeft: "prev", ArrowRight: "next" }[e.key];
    var link = rel && document.querySelector('nav.scrub a[rel="' + rel + '"]');
    if (link) { window.location.href = link.href; }
  });
})();
