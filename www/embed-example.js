// The example page's own script (embed-example.html): a file, so that the page needs no inline
// script and can be served under the playground's strict Content-Security-Policy.
(function () {
  'use strict';
  var MAX_LINES = 1000;
  function addLine(list, text) {
    var li = document.createElement('li');
    li.textContent = text;
    list.appendChild(li);
    while (list.children.length > MAX_LINES) list.removeChild(list.firstChild);
    list.scrollTop = list.scrollHeight;
  }
  // Why the controller cannot be crashed now, if it cannot: /controller names none, or it
  // still names a broker that is not running (ZooKeeper keeps a crashed or frozen broker's
  // znode until its session expires).
  function crashProblem(state) {
    var c = state.controller;
    if (c === null || c === undefined) return 'there is no controller to crash right now';
    var b = state.brokers[c];
    if (!b || b.state !== 'running') {
      return '/controller still names broker ' + c + ', which is ' + (b ? b.state : 'gone') +
        ': ZooKeeper has not expired its session yet';
    }
    return null;
  }
  function eventLine(e) {
    return (e.time_ms / 1000).toFixed(3) + ' s  ' + e.kind + (e.broker !== undefined ? ' (broker ' + e.broker + ')' : '');
  }

  // --- Two playgrounds through the JavaScript API -----------------------------------
  var playgrounds = [];
  function drive(pg, what) {
    if (what === 'play') pg.play();
    else if (what === 'pause') pg.pause();
    else if (what === 'seek') pg.seek(pg.state().time_ms + 10000);
    else if (what === 'crash') {
      var state = pg.state();
      var problem = crashProblem(state);
      if (problem) throw new Error(problem);
      pg.apply({ do: 'crash', broker: state.controller });
    }
  }
  function run(card, fn) {
    var status = card.querySelector('.status');
    status.textContent = '';
    try {
      fn();
    } catch (err) {
      status.textContent = err.message;
    }
  }
  function mountAll() {
    document.querySelectorAll('[data-pg]').forEach(function (card) {
      var story = card.getAttribute('data-pg');
      var pg = KafkaElection.mount(card.querySelector('.mount'), { story: story, embed: true, paused: true });
      var list = card.querySelector('.page-events');
      pg.on('*', function (e) { addLine(list, eventLine(e)); });
      card.querySelectorAll('[data-do]').forEach(function (button) {
        button.addEventListener('click', function () {
          run(card, function () { drive(pg, button.getAttribute('data-do')); });
        });
      });
      playgrounds.push({ card: card, pg: pg });
    });
    document.querySelectorAll('[data-both]').forEach(function (button) {
      button.addEventListener('click', function () {
        playgrounds.forEach(function (p) {
          run(p.card, function () { drive(p.pg, button.getAttribute('data-both')); });
        });
      });
    });
    // For scripts (and tests) that want the handles.
    window.examplePlaygrounds = playgrounds.map(function (p) { return p.pg; });
  }
  if (window.KafkaElection) mountAll();
  else window.addEventListener('kafka-election-ready', mountAll, { once: true });

  // --- One playground in an iframe ----------------------------------------------------
  var frame = document.querySelector('iframe[data-testid="frame"]');
  var frameList = document.querySelector('[data-testid="frame-events"]');
  var frameStatus = document.querySelector('[data-testid="frame-status"]');
  var here = new URL(document.baseURI);
  var src = new URL('index.html', here);
  src.search = new URLSearchParams({ embed: '1', autoplay: '0', parent: location.origin }).toString();
  frame.src = src.href;
  var frameOrigin = src.origin;
  var nextId = 1;
  var waiting = {};
  function ask(request, then) {
    var id = nextId++;
    if (then) waiting[id] = then;
    request.id = id;
    frame.contentWindow.postMessage(request, frameOrigin);
  }
  window.addEventListener('message', function (e) {
    if (e.origin !== frameOrigin || e.source !== frame.contentWindow) return;
    var m = e.data;
    if (!m || typeof m !== 'object' || !m['kafka-election']) return;
    var kind = m['kafka-election'];
    if (kind === 'event') addLine(frameList, eventLine(m.event));
    else if (kind === 'ready') addLine(frameList, 'ready');
    else if (kind === 'error') frameStatus.textContent = m.message;
    if (m.id !== undefined && waiting[m.id]) {
      var then = waiting[m.id];
      delete waiting[m.id];
      then(m);
    }
  });
  document.querySelectorAll('[data-frame]').forEach(function (button) {
    button.addEventListener('click', function () {
      frameStatus.textContent = '';
      var what = button.getAttribute('data-frame');
      if (what === 'play' || what === 'pause') ask({ 'kafka-election': what });
      else ask({ 'kafka-election': 'state' }, function (answer) {
        var state = answer.state;
        var problem = what === 'crash' ? crashProblem(state) : null;
        if (what === 'seek') ask({ 'kafka-election': 'seek', ms: state.time_ms + 10000 });
        else if (problem) frameStatus.textContent = problem;
        else ask({ 'kafka-election': 'apply', command: { do: 'crash', broker: state.controller } });
      });
    });
  });
})();
