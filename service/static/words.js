// The words the page's scripts write, in the reader's language: the page carries them
// as #page-words (templates/_page_words.html: each English text, %(name)s placeholders
// and all, to the reader's; a pair [one, other] for a text with a plural, chosen by
// values.n).  Loaded before the other scripts (base.html); every text a script writes
// into the page comes from here:  Ravenpost.words("Player %(n)s", {n: 2}).
(function () {
  "use strict";
  var table = null;
  function said() {
    if (table === null) {
      var el = document.getElementById("page-words");
      try { table = el ? JSON.parse(el.textContent) || {} : {}; } catch (e) { table = {}; }
    }
    return table;
  }
  function words(key, values) {
    values = values || {};
    var all = said();
    var text = Object.prototype.hasOwnProperty.call(all, key) ? all[key] : key;
    if (Array.isArray(text)) { text = Number(values.n) === 1 ? text[0] : text[1]; }
    return String(text).replace(/%\((\w+)\)s/g, function (whole, name) {
      return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }
  window.Ravenpost = window.Ravenpost || {};
  window.Ravenpost.words = words;
  // the page's language, for the browser's own date formats (Intl)
  window.Ravenpost.language = document.documentElement.lang || undefined;
})();
