  // ---- The shared view: {x0, x1, cursor} and its subscribers ----
  function schedule() {
    if (scheduled) return;
    scheduled = true;
    (window.requestAnimationFrame || function (f) { return setTimeout(f, 16); })(flush);
  }
  // The preset matching the view, pressed; the others not.
  function markPreset() {
    Array.prototype.forEach.call(document.querySelectorAll('.presets button'), function (button) {
      var days = button.getAttribute('data-days');
      var full = view.x0 === data.x0 && view.x1 === data.x1;
      // A preset reaching past the data's first day shows everything: All is the one pressed then.
      var on = days === 'all' ? full : !full && view.x1 === data.x1 && view.x0 === data.x1 - Number(days) + 1;
      button.setAttribute('aria-pressed', on ? 'true' : 'false');
      button.className = on ? 'active' : '';
    });
  }
  // The custom range's inputs show the view's first and last day.
  function markRange() {
    var from = document.querySelector('.range input[name=from]'), to = document.querySelector('.range input[name=to]');
    if (!from || !to) return;
    if (document.activeElement !== from) from.value = isoDay(Math.round(view.x0));
    if (document.activeElement !== to) to.value = isoDay(Math.round(view.x1));
  }
  function flush() {
    scheduled = false;
    markPreset();
    markRange();
    charts.forEach(function (chart) { chart.render(false); });
    showCursor(view.cursor);
    root.setAttribute('data-report-renders', String(Number(root.getAttribute('data-report-renders') || 0) + 1));
  }
  function showCursor(day) {
    charts.forEach(function (chart) { chart.showCursor(day); });
  }
  function setRange(x0, x1) {
    var full = [data.x0, data.x1];
    x0 = Math.max(full[0], x0);
    x1 = Math.min(full[1], x1);
    if (!(x1 - x0 >= 1)) { var middle = (x0 + x1) / 2; x0 = middle - 0.5; x1 = middle + 0.5; }
    view.x0 = x0;
    view.x1 = x1;
    writeFragment();
    schedule();
  }
  function writeFragment() {
    var parts = [];
    if (view.x0 !== data.x0 || view.x1 !== data.x1) {
      parts.push('from=' + isoDay(Math.round(view.x0)), 'to=' + isoDay(Math.round(view.x1)));
    }
    var names = Object.keys(hidden).map(function (i) { return encodeURIComponent(data.versions[i].name); });
    if (names.length) parts.push('hide=' + names.join(','));
    var groups = Object.keys(hiddenGroups).map(function (i) { return encodeURIComponent(data.groups[i]); });
    if (groups.length) parts.push('hideGroup=' + groups.join(','));
    if (logScale) parts.push('scale=log');
    var fragment = parts.length ? '#' + parts.join('&') : ' ';
    try {
      history.replaceState(null, '', fragment === ' ' ? location.pathname + location.search : fragment);
    } catch (e) {
      location.hash = parts.join('&');
    }
  }
  function readFragment() {
    var from = null, to = null;
    location.hash.replace(/^#/, '').split('&').forEach(function (part) {
      var eq = part.indexOf('='), key = part.slice(0, eq), value = part.slice(eq + 1);
      if (eq < 0) return;
      if (key === 'from' || key === 'to') {
        var day = Date.parse(value + 'T00:00:00Z') / DAY_MS;
        if (isFinite(day)) { if (key === 'from') from = day; else to = day; }
      } else if (key === 'hide' || key === 'hideGroup') {
        value.split(',').forEach(function (name) {
          var decoded;
          try { decoded = decodeURIComponent(name); } catch (e) { return; }
          if (key === 'hide') data.versions.forEach(function (v, i) { if (v.name === decoded) hidden[i] = true; });
          else data.groups.forEach(function (g, i) { if (g === decoded) hiddenGroups[i] = true; });
        });
      } else if (key === 'scale') {
        logScale = value === 'log';
      }
    });
    if (from !== null || to !== null) {
      view.x0 = Math.max(data.x0, from === null ? data.x0 : from);
      view.x1 = Math.min(data.x1, to === null ? data.x1 : to);
      if (!(view.x1 - view.x0 >= 1)) { view.x0 = data.x0; view.x1 = data.x1; }
    }
  }

