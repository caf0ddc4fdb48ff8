// The lobby form: show only the chosen game's options, and preselect the browser's time
// zone in the rows nobody filled in (without script every fieldset shows and zones say UTC).
(function () {
  "use strict";
  var select = document.querySelector("select[name=game]");
  if (select) {
    var sync = function () {
      document.querySelectorAll("fieldset.options").forEach(function (f) {
        f.hidden = f.dataset.kind !== select.value;
      });
    };
    select.addEventListener("change", sync);
    sync();
  }
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
  var known = document.querySelector('#time-zones option[value="' + zone.replace(/"/g, "") + '"]');
  if (!zone || !known) { return; }
  document.querySelectorAll("input.tz").forEach(function (input) {
    if (!input.dataset.chosen && input.value === "UTC") { input.value = zone; }
  });
})();
