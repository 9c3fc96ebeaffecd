  function init() {
    data = JSON.parse(document.getElementById('report-data').textContent);
    G = data.geometry;
    PW = G.width - G.left - G.right;
    PH = G.height - G.top - G.bottom;
    keepTargetsClearOfHeader();
    bindVersionViews();
    bindFlameGraph();
    if (data.x0 === null) return;
    view = { x0: data.x0, x1: data.x1, cursor: null };
    bindGroupLinks();
    data.charts.forEach(function (spec) {
      var figure = document.getElementById(spec.id);
      if (!figure) return;
      var chart = new Chart(spec, figure);
      // As drawn in the file: the whole range, every version.
      chart.fit();
      chart.key = chart.viewKey();
      charts.push(chart);
    });
    if (window.matchMedia) {
      var scheme = window.matchMedia('(prefers-color-scheme: dark)');
      if (scheme.addEventListener) scheme.addEventListener('change', readColors);
    }
    window.addEventListener('resize', function () { charts.forEach(function (chart) { chart.readout.cssWidth = 0; }); });
    readFragment();
    markPreset();
    charts.forEach(function (chart) { chart.render(false); });
    charts.forEach(attach);
    // Which charts are on the screen (or near it): only their readouts are filled on a move.
    if (window.IntersectionObserver) {
      var observer = new IntersectionObserver(function (entries) {
        entries.forEach(function (entry) {
          var chart = charts.filter(function (c) { return c.figure === entry.target; })[0];
          if (!chart) return;
          chart.onscreen = entry.isIntersecting;
          if (chart.onscreen && view.cursor !== null) chart.showCursor(view.cursor);
        });
      }, { rootMargin: '200px 0px' });
      charts.forEach(function (chart) { observer.observe(chart.figure); });
    }
    var presets = document.querySelector('.presets');
    if (presets) {
      presets.hidden = false;
      presets.addEventListener('click', function (event) {
        var days = event.target.getAttribute && event.target.getAttribute('data-days');
        if (!days) return;
        if (days === 'all') setRange(data.x0, data.x1); else setRange(data.x1 - Number(days) + 1, data.x1);
      });
    }
    var range = document.querySelector('.range');
    if (range) {
      range.hidden = false;
      range.addEventListener('change', function () {
        var from = Date.parse(range.querySelector('input[name=from]').value + 'T00:00:00Z') / DAY_MS;
        var to = Date.parse(range.querySelector('input[name=to]').value + 'T00:00:00Z') / DAY_MS;
        if (isFinite(from) && isFinite(to) && to > from) setRange(from, to);
      });
    }
    var logButton = document.querySelector('.log-scale');
    if (logButton) {
      logButton.hidden = false;
      logButton.setAttribute('aria-pressed', String(logScale));
      logButton.addEventListener('click', function () {
        logScale = !logScale;
        logButton.setAttribute('aria-pressed', String(logScale));
        writeFragment();
        schedule();
      });
    }
    Array.prototype.forEach.call(document.querySelectorAll('.save'), function (span) {
      span.hidden = false;
      span.addEventListener('click', function (event) {
        var format = event.target.getAttribute && event.target.getAttribute('data-save');
        if (format) save(span.closest('figure'), format);
      });
    });
    // Versions, and groups with --by: a click hides or shows one everywhere; alt-click shows it alone.
    bindLegend('version', hidden, data.versions);
    bindLegend('group', hiddenGroups, data.groups);
    // For tests and scripts: redraw every chart now (`force`: even those whose view did not change).
    window.metricsReport = {
      view: view,
      render: function (force) { charts.forEach(function (chart) { chart.render(force); }); },
      setRange: setRange,
      hoverTimes: hoverTimes,
      // What a chart's readout says now (its canvas holds the same lines).
      readout: function (id) {
        var chart = charts.filter(function (c) { return c.spec.id === id; })[0];
        return chart ? chart.readoutWords : null;
      },
      recordFrames: recordFrames,
      exportChart: exportChart
    };
  }

  // The legend's buttons of `kind` (`version`, `group`): each hides or shows its entry of `all` in the
  // set `hiddenSet`, and every button of the kind says whether its entry is shown.
  function bindLegend(kind, hiddenSet, all) {
    var buttons = document.querySelectorAll('.legend .' + kind), attribute = 'data-' + kind + '-index';
    Array.prototype.forEach.call(buttons, function (button) {
      var index = button.getAttribute(attribute);
      if (hiddenSet[index]) button.setAttribute('aria-pressed', 'false');
      button.addEventListener('click', function (event) {
        toggle(hiddenSet, all, index, event.altKey);
        Array.prototype.forEach.call(buttons, function (b) {
          b.setAttribute('aria-pressed', hiddenSet[b.getAttribute(attribute)] ? 'false' : 'true');
        });
        writeFragment();
        schedule();
      });
    });
  }

  // Hides or shows entry `index` of `all` (a set of hidden positions); `solo`: that entry alone, or,
  // when it is already alone, every entry.
  function toggle(set, all, index, solo) {
    if (solo) {
      var alone = !set[index] && all.every(function (v, i) { return String(i) === index || set[i]; });
      all.forEach(function (v, i) { if (alone || String(i) === index) delete set[i]; else set[i] = true; });
    } else if (set[index]) delete set[index]; else set[index] = true;
  }

  // What one crosshair move costs: `moves` moves across the whole range, each timed from the update
  // of every chart to the end of the layout it causes (the page's own work; painting is the
  // browser's). Milliseconds, in order. Scripts/report-bench.sh reads them.
  function hoverTimes(moves) {
    // Which charts are on the screen, as the IntersectionObserver would say once it has run.
    charts.forEach(function (chart) {
      var box = chart.figure.getBoundingClientRect();
      chart.onscreen = box.bottom >= -200 && box.top <= window.innerHeight + 200;
    });
    var times = [];
    for (var i = 0; i < moves; i++) {
      var day = view.x0 + (view.x1 - view.x0) * (i + 0.5) / moves;
      var start = performance.now();
      view.cursor = day;
      showCursor(day);
      document.body.getBoundingClientRect();
      times.push(performance.now() - start);
    }
    view.cursor = null;
    showCursor(null);
    return times;
  }

  // What a frame costs after a real mouse move: from the move's handler to the end of the frame that
  // shows it (the script, style, layout and paint of that frame; rasterizing is the browser's threads'),
  // in ms, in the array returned. Scripts/report-frames.py moves the mouse and reads them.
  function recordFrames() {
    var pending = null, times = [], channel = new MessageChannel();
    // A message posted from an animation frame callback runs once that frame's rendering is done.
    channel.port1.onmessage = function (event) { times.push(performance.now() - event.data); };
    document.addEventListener('mousemove', function () { if (pending === null) pending = performance.now(); }, true);
    function tick() {
      if (pending !== null) {
        channel.port2.postMessage(pending);
        pending = null;
      }
      requestAnimationFrame(tick);
    }
    requestAnimationFrame(tick);
    return times;
  }

  try {
    init();
  } catch (e) {
    errors.push(String(e && e.stack || e));
    root.setAttribute('data-report-errors', errors.join('\n'));
  } finally {
    root.setAttribute('data-report-ready-ms', String(Math.round(performance.now())));
    root.setAttribute('data-report-ready', 'true');
  }
  // `#bench=hover`: time 300 crosshair moves and leave them in data-report-hover-ms.
  if (/(^#|&)bench=hover(&|$)/.test(location.hash) && window.metricsReport) {
    try {
      root.setAttribute('data-report-hover-ms', window.metricsReport.hoverTimes(300).map(function (t) {
        return t.toFixed(3);
      }).join(' '));
    } catch (e) {
      errors.push(String(e && e.stack || e));
      root.setAttribute('data-report-errors', errors.join('\n'));
    }
  }
})();
