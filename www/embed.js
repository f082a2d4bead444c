// Loads the Kafka Election Playground's module into any page, from wherever this file is served,
// for its JavaScript API (docs/embedding.md):
//
//   <script src="https://your.docs/playground/embed.js" async></script>
//   <script>
//     function ready() { const pg = KafkaElection.mount(document.querySelector('#pg'), {story: 'controller-crash', embed: true}); }
//     if (window.KafkaElection) ready(); else window.addEventListener('kafka-election-ready', ready, {once: true});
//   </script>
//
// It also adds the playground's stylesheet to the page, the whole of it (the playground's own page
// loads it in two parts, www/scripts/split-styles.mjs; an embedding page needs every style at
// once, and the module's glue then adds no second part). It styles the page's body, headings and
// buttons too: give the page's own rules more weight where they matter.
//
// Trunk names the module's files after a hash of their contents (the JS glue, the WebAssembly
// and the stylesheet), so that a browser never pairs a cached old file with a new one. The build's
// post_build hook (www/scripts/embed-loader.mjs, Trunk.toml) writes the real names of the files
// it just built over the placeholders below: no name is guessed, nothing parses index.html,
// and the hashes (with the caching they make safe) stay. The names are relative to this file, so
// the playground can be hosted under any path.
(function () {
  'use strict';
  var GLUE = '__KAFKA_ELECTION_GLUE__';
  var WASM = '__KAFKA_ELECTION_WASM__';
  var CSS = '__KAFKA_ELECTION_CSS__';
  function fail(message) {
    console.error('Kafka Election Playground: ' + message);
    window.dispatchEvent(new CustomEvent('kafka-election-failed', { detail: { message: message } }));
  }
  if (window.KafkaElection) return; // already loaded (index.html itself, or a second embed.js)
  if (GLUE.indexOf('__') === 0) {
    fail('embed.js was not prepared by the build (trunk build writes the module\'s file names into it).');
    return;
  }
  var script = document.currentScript;
  var base = script && script.src ? script.src : document.baseURI;
  var css = new URL(CSS, base).href;
  var present = Array.prototype.some.call(document.querySelectorAll('link[rel="stylesheet"]'), function (l) {
    return l.href === css;
  });
  if (!present) {
    var link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = css;
    document.head.appendChild(link);
  }
  import(new URL(GLUE, base).href)
    .then(function (glue) {
      // An embedding page drives the playground through its API at once, with stories and
      // settings the page's first view does not run: the module's second part (see
      // www/scripts/split-module.mjs) comes with the first, and the module starts when both are
      // there.
      if (typeof glue.loadWhole === 'function') glue.loadWhole();
      // Starting the module puts window.KafkaElection in place and dispatches kafka-election-ready.
      return glue.default({ module_or_path: new URL(WASM, base).href });
    })
    .catch(function (err) {
      fail('the module did not load: ' + ((err && err.message) || err));
    });
})();
