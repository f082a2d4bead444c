// The page's own loader (index.html loads it; the build names it boot-<hash>.js). It starts the
// playground's module and, if the module never starts (an old browser, a file that did not
// load), says so in the page's error box, naming the file, instead of leaving "Loading the
// playground…" on the page for ever.
//
// It is a file, not a script written into index.html, so that the page runs under a strict
// Content-Security-Policy (`script-src 'self' 'wasm-unsafe-eval'`, no inline script): see
// docs/build.md, "Serving it". The build's post_build hook (www/scripts/embed-loader.mjs) writes the
// names of the files it just built over the placeholders below.
(function () {
  'use strict';
  var GLUE = '__KAFKA_ELECTION_GLUE__';
  var WASM = '__KAFKA_ELECTION_WASM__';

  function failedFiles() {
    var entries = (window.performance && performance.getEntriesByType) ? performance.getEntriesByType('resource') : [];
    var names = [];
    for (var i = 0; i < entries.length; i++) {
      var status = entries[i].responseStatus;
      var name = entries[i].name + ' (HTTP ' + status + ')';
      if (status >= 400 && names.indexOf(name) < 0) names.push(name);
    }
    return names;
  }
  function show(text) {
    var box = document.getElementById('fatal');
    if (!box) return;
    box.textContent = text;
    box.hidden = false;
  }
  function stylesMissing(href) {
    show('The page\'s styles did not load (' + href + '): it may look broken. Try reloading the page.');
  }
  // `files`, when given, are the files that did not load; otherwise the page's failed requests.
  function fail(why, files) {
    var app = document.getElementById('app');
    if (app && app.getAttribute('data-mounted') === 'true') return;
    files = files || failedFiles();
    show('The playground could not start: ' + (files.length ? 'could not load ' + files.join(', ') + '.' : why) +
      ' Try reloading the page, or another browser.');
  }
  // The module's second part did not arrive when the page needed it (see split-module.mjs).
  window.addEventListener('kafka-election-failed', function (e) {
    show('The playground could not go on: it ' + e.detail.message + '. Reload the page.');
  });
  window.addEventListener('unhandledrejection', function (e) {
    fail(String((e.reason && e.reason.message) || e.reason || 'unknown error') + '.');
  });
  // In the capture phase: a stylesheet or script that fails to load fires its error on the element.
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t !== window && t.tagName) {
      if (t.tagName === 'LINK' && t.rel === 'stylesheet') {
        stylesMissing(t.href);
        return;
      }
      fail((t.src || t.href || 'a ' + t.tagName.toLowerCase()) + ' did not load.');
    } else {
      fail(String(e.message || 'unknown error') + '.');
    }
  }, true);
  // A stylesheet that failed before this deferred script ran fired its error unseen: a loaded
  // sheet has rules, a failed one has none.
  var sheets = document.querySelectorAll('link[rel="stylesheet"]');
  for (var i = 0; i < sheets.length; i++) {
    var sheet = sheets[i].sheet;
    var empty = true;
    try { empty = !sheet || sheet.cssRules.length === 0; } catch (err) { empty = false; }
    if (empty) stylesMissing(sheets[i].href);
  }
  if (typeof WebAssembly !== 'object') {
    fail('this browser has no WebAssembly.');
    return;
  }
  if (GLUE.indexOf('__') === 0) {
    fail('boot.js was not prepared by the build (trunk build writes the module\'s file names into it).');
    return;
  }
  // The default page, in either language: what the first part of the module was profiled on.
  function defaultAddress() {
    if (location.hash.length > 1) return false;
    var params = new URLSearchParams(location.search);
    var only = true;
    params.forEach(function (value, key) {
      if (key !== 'lang') only = false;
    });
    return only;
  }
  var base = (document.currentScript && document.currentScript.src) || document.baseURI;
  var glueUrl = new URL(GLUE, base).href;
  var wasmUrl = new URL(WASM, base).href;
  import(glueUrl)
    .then(function (glue) {
      // The build splits the module in two (www/scripts/split-module.mjs): the first part runs
      // the default page, the second follows in the background. An address that asks for more
      // than the default page (a story, a lesson, a shared session, an embedded view…) needs the
      // second part from the start, so both come together.
      if (typeof glue.loadWhole === 'function' && !defaultAddress()) glue.loadWhole();
      // The module index.html preloads; the server sends it compressed (docs/build.md).
      return glue.default({ module_or_path: wasmUrl });
    })
    .then(function (wasm) {
      window.dispatchEvent(new CustomEvent('kafka-election-started', { detail: { wasm: wasm } }));
    })
    .catch(function (err) {
      fail(glueUrl + ' did not start: ' + ((err && err.message) || err) + '.');
    });
})();
