// metrics-report: the report page's interaction. The charts are already drawn as static SVG; this adds
// synced zoom and pan (drag, presets, a custom range, ctrl-wheel, keys), a crosshair on every chart (by
// mouse or keys), a legend that hides versions and groups, a log value axis, saving a chart as SVG, PNG
// or CSV, and a URL fragment that reopens the same view. No network, no framework. The geometry, ticks and path
// reduction below mirror ChartScale.swift and SeriesPath.swift operation for operation.
(function () {
  'use strict';
  var root = document.documentElement;
  var errors = [];
  window.onerror = function (message, source, line, column) {
    errors.push(String(message) + ' (' + line + ':' + column + ')');
    root.setAttribute('data-report-errors', errors.join('\n'));
  };

  var SVG = 'http://www.w3.org/2000/svg';
  var DAY_MS = 86400000;
  var data, G, PW, PH, charts = [], view, hidden = {}, hiddenGroups = {}, logScale = false, scheduled = false;

  // ---- Scales (ChartScale.swift) ----
  function coordinate(v) {
    var bounded = isNaN(v) ? 0 : Math.min(Math.max(v, -1e6), 1e6);
    var tenths = Math.floor(bounded * 10 + 0.5);
    if (tenths % 10 === 0) return String(tenths / 10);
    var magnitude = Math.abs(tenths);
    return (tenths < 0 ? '-' : '') + Math.floor(magnitude / 10) + '.' + (magnitude % 10);
  }
  function powerOfTen(n) {
    var p = 1;
    for (var i = 0; i < Math.abs(n); i++) p *= 10;
    return n < 0 ? 1 / p : p;
  }
  function niceStep(span, count) {
    var raw = span / count;
    var magnitude = powerOfTen(Math.floor(Math.log10(raw)));
    var normalized = raw / magnitude;
    var factor = normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 2.5 ? 2.5 : normalized <= 5 ? 5 : 10;
    return factor * magnitude;
  }
  function axisTicks(bottom, top, step) {
    var ticks = [];
    for (var i = 0; bottom + i * step <= top * (1 + 1e-9); i++) ticks.push(bottom + i * step);
    return ticks;
  }
  // As ChartScale.valueAxis(minimum:maximum:fromZero:), operation for operation.
  function valueAxis(minimum, maximum, fromZero) {
    if (!(maximum >= 1e-290 && maximum <= 1e290)) return { bottom: 0, top: 1, step: 0.25, ticks: [0, 0.25, 0.5, 0.75, 1] };
    if (fromZero || !(minimum > maximum / 3)) {
      var reach = maximum * 1.1;
      var step = niceStep(reach, 4);
      var top = Math.ceil(reach / step) * step;
      return { bottom: 0, top: top, step: step, ticks: axisTicks(0, top, step) };
    }
    var span = maximum - minimum > 0 ? maximum - minimum : maximum / 10;
    var fitted = niceStep(span * 1.2, 4);
    var bottom = Math.max(0, Math.floor((minimum - span / 10) / fitted) * fitted);
    var high = Math.ceil((maximum + span / 10) / fitted) * fitted;
    return { bottom: bottom, top: high, step: fitted, ticks: axisTicks(bottom, high, fitted) };
  }
  // A logarithmic value axis over positive `minimum…maximum`: from the largest tick of 1, 2 or 5 times
  // a power of ten below the data (with 5% room) to the smallest above; only powers of ten when that
  // gives more than 8 ticks. Each tick's label step is its own power of ten.
  function logAxis(minimum, maximum) {
    var low = minimum / 1.05, high = maximum * 1.05;
    var e0 = Math.floor(Math.log10(low)), e1 = Math.ceil(Math.log10(high));
    function candidates(multiples) {
      var all = [];
      for (var e = e0; e <= e1; e++) multiples.forEach(function (m) { all.push(m * powerOfTen(e)); });
      var bottom = all[0], top = all[all.length - 1];
      all.forEach(function (t) { if (t <= low) bottom = t; });
      for (var i = all.length - 1; i >= 0; i--) if (all[i] >= high) top = all[i];
      return all.filter(function (t) { return t >= bottom && t <= top; });
    }
    var ticks = candidates([1, 2, 5]);
    if (ticks.length > 8) ticks = candidates([1]);
    return { bottom: ticks[0], top: ticks[ticks.length - 1], ticks: ticks, log: true };
  }
  function valueLabel(v, step) {
    var value = v, scaledStep = step, suffix = '';
    var units = [[1e9, 'G'], [1e6, 'M'], [1e3, 'k']];
    for (var u = 0; u < units.length; u++) {
      if (step >= units[u][0]) { value = v / units[u][0]; scaledStep = step / units[u][0]; suffix = units[u][1]; break; }
    }
    var decimals = 0;
    while (decimals < 6) {
      var scaled = scaledStep * powerOfTen(decimals);
      if (Math.abs(scaled - Math.round(scaled)) < 1e-6) break;
      decimals++;
    }
    return value.toFixed(decimals) + suffix;
  }
  function isoDay(day) { return new Date(day * DAY_MS).toISOString().slice(0, 10); }
  // The interval holding `day`, as the page's points speak of it: a day, the ISO week from its
  // Monday, or the month.
  function intervalLabel(day) {
    var d = Math.floor(day);
    if (data.interval === 'week') return 'week of ' + isoDay(d - ((d + 3) % 7 + 7) % 7);
    if (data.interval === 'month') return isoDay(d).slice(0, 7);
    return isoDay(d);
  }
  function dayTicks(a, b) {
    var span = b - a, first = Math.ceil(a), last = Math.floor(b), ticks = [], d;
    var steps = [1, 2, 7, 14];
    for (var s = 0; s < steps.length; s++) {
      var step = steps[s];
      if (span / step > 6) continue;
      for (d = first; d <= last; d++) {
        var phase = step >= 7 ? (((d - 4) % step) + step) % step : ((d % step) + step) % step;
        if (phase === 0) ticks.push([d, isoDay(d)]);
      }
      return ticks;
    }
    var monthSteps = [1, 2, 3, 6, 12, 24, 60];
    for (var m = 0; m < monthSteps.length; m++) {
      var months = monthSteps[m];
      if (!(span / (30.4375 * months) <= 6 || months === 60)) continue;
      var start = new Date(first * DAY_MS);
      var index = start.getUTCFullYear() * 12 + start.getUTCMonth();
      for (;;) {
        d = Date.UTC(Math.floor(index / 12), index % 12, 1) / DAY_MS;
        if (d > last) break;
        if (d >= first && index % months === 0) ticks.push([d, isoDay(d).slice(0, 7)]);
        index++;
      }
      return ticks;
    }
    return ticks;
  }
  function Scale(x0, x1, y0, y1, log) {
    this.y0 = y0;
    this.y1 = y1;
    this.x = function (v) { return G.left + (v - x0) / (x1 - x0) * PW; };
    var l0 = Math.log(y0), l1 = Math.log(y1);
    this.y = log
      ? function (v) { return G.top + PH - (Math.log(v) - l0) / (l1 - l0) * PH; }
      : function (v) { return G.top + PH - (v - y0) / (y1 - y0) * PH; };
    this.day = function (px) { return x0 + (px - G.left) / PW * (x1 - x0); };
  }
  function number(v) {
    if (!isFinite(v)) return '–';
    var m = Math.abs(v);
    return v.toFixed(m >= 100 ? 0 : m >= 10 ? 1 : m >= 1 ? 2 : v === 0 ? 0 : 4);
  }

  // ---- Paths (SeriesPath.swift) ----
  function segments(breaks, i0, i1) {
    var out = [], start = i0;
    for (var i = i0 + 1; i <= i1 + 1; i++) {
      if (i === i1 + 1 || breaks[i]) { out.push([start, i]); start = i; }
    }
    return i1 < i0 ? [] : out;
  }
  function kept(xs, values, segment) {
    var out = [], i = segment[0];
    while (i < segment[1]) {
      var column = Math.floor(xs[i]), low = i, high = i, j = i;
      while (j + 1 < segment[1] && Math.floor(xs[j + 1]) === column) {
        j++;
        if (values[j] < values[low]) low = j;
        if (values[j] > values[high]) high = j;
      }
      var picks = [i, low, high, j].sort(function (a, b) { return a - b; });
      for (var k = 0; k < picks.length; k++) if (k === 0 || picks[k] !== picks[k - 1]) out.push(picks[k]);
      i = j + 1;
    }
    return out;
  }
  function linePath(xs, ys, segs) {
    var d = '';
    for (var s = 0; s < segs.length; s++) {
      var points = kept(xs, ys, segs[s]);
      for (var n = 0; n < points.length; n++) {
        var k = points[n];
        d += (n === 0 ? 'M' : n === 1 ? 'L' : ' ') + coordinate(xs[k]) + ' ' + coordinate(ys[k]);
      }
      if (points.length === 1) d += 'h0';
    }
    return d;
  }
  function bandPath(xs, upper, lower, segs) {
    var d = '';
    for (var s = 0; s < segs.length; s++) {
      if (segs[s][1] - segs[s][0] < 2) continue;
      var columns = [];
      for (var i = segs[s][0]; i < segs[s][1]; i++) {
        var last = columns[columns.length - 1];
        if (last && Math.floor(last[0]) === Math.floor(xs[i])) {
          last[1] = Math.min(last[1], upper[i]);
          last[2] = Math.max(last[2], lower[i]);
        } else {
          columns.push([xs[i], upper[i], lower[i]]);
        }
      }
      for (var n = 0; n < columns.length; n++) {
        d += (n === 0 ? 'M' : n === 1 ? 'L' : ' ') + coordinate(columns[n][0]) + ' ' + coordinate(columns[n][1]);
      }
      for (n = columns.length - 1; n >= 0; n--) d += ' ' + coordinate(columns[n][0]) + ' ' + coordinate(columns[n][2]);
      d += 'Z';
    }
    return d;
  }
  function markerPath(xs, ys, marked) {
    var d = '', lastColumn = null;
    for (var m = 0; m < marked.length; m++) {
      var i = marked[m], column = Math.floor(xs[i]);
      if (column === lastColumn) continue;
      lastColumn = column;
      d += 'M' + coordinate(xs[i]) + ' ' + coordinate(ys[i]) + 'h0';
    }
    return d;
  }
  function lowerBound(days, v) {
    var lo = 0, hi = days.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (days[mid] < v) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // ---- Charts ----
  function make(name, attributes, parent) {
    var el = document.createElementNS(SVG, name);
    for (var key in attributes) el.setAttribute(key, attributes[key]);
    if (parent) parent.appendChild(el);
    return el;
  }
  function visible(series) { return !hidden[series.v] && !(series.g !== undefined && hiddenGroups[series.g]); }
  function hiddenKey() { return Object.keys(hidden).join(',') + '/' + Object.keys(hiddenGroups).join(','); }

  function Chart(spec, figure) {
    var self = this;
    this.spec = spec;
    this.figure = figure;
    this.svg = figure.querySelector('svg.plot');
    this.readout = figure.querySelector('.readout');
    this.yAxis = this.svg.querySelector('.axis.y');
    this.xAxis = this.svg.querySelector('.axis.x');
    this.crosshair = this.svg.querySelector('.crosshair');
    this.selection = this.svg.querySelector('.selection');
    this.releases = Array.prototype.slice.call(this.svg.querySelectorAll('.release'));
    this.paths = {};
    ['band', 'line', 'marker', 'area', 'offscale'].forEach(function (kind) {
      self.paths[kind] = {};
      Array.prototype.forEach.call(self.svg.querySelectorAll('path.' + kind), function (p) {
        self.paths[kind][p.getAttribute('data-series')] = p;
      });
    });
    spec.series.forEach(function (s) {
      s.breakAt = {};
      s.b.forEach(function (i) { s.breakAt[i] = true; });
    });
    // Apple's Organizer values (a level per version) and goal bands, when the page has them.
    this.apple = Array.prototype.slice.call(this.svg.querySelectorAll('path.apple'));
    this.goals = Array.prototype.slice.call(this.svg.querySelectorAll('rect.goal'));
    this.key = null;
    this.scale = null;
    this.onscreen = true;  // until an IntersectionObserver says otherwise
  }

  // The scale of the current view: the value axis fitted to the visible series in range, their sparse
  // points left out while a denser one is there (as ChartData.extent).
  Chart.prototype.fit = function () {
    var spec = this.spec, x0 = view.x0, x1 = view.x1, axis;
    if (spec.kind === 'stack') {
      axis = { bottom: 0, top: 1, step: 0.25, ticks: [0, 0.25, 0.5, 0.75, 1] };
    } else {
      var dense = null, all = null;
      var include = function (range, v) { return range ? [Math.min(range[0], v), Math.max(range[1], v)] : [v, v]; };
      spec.series.forEach(function (s) {
        if (!visible(s)) return;
        for (var i = 0; i < s.d.length; i++) {
          if (s.d[i] < x0 || s.d[i] > x1) continue;
          all = include(all, s.y[i]);
          if (s.n[i] >= data.minPayloads) dense = include(dense, s.y[i]);
        }
      });
      var range = dense || all;
      (spec.apple || []).forEach(function (a) {
        if (!hidden[a.v] && a.d1 >= x0 && a.d0 <= x1) range = include(range, a.y);
      });
      // Log only where it means something: durations and sizes, every value in view above 0.
      var positive = range && range[0] > 0 && isFinite(range[1]) && (!all || all[0] > 0);
      axis = logScale && !spec.zero && positive ? logAxis(range[0], range[1])
        : range ? valueAxis(range[0], range[1], spec.zero) : valueAxis(0, 0, spec.zero);
    }
    this.figure.setAttribute('data-scale', axis.log ? 'log' : 'linear');
    this.scale = new Scale(x0, x1, axis.bottom, axis.top, axis.log);
    return axis;
  };

  Chart.prototype.viewKey = function () { return view.x0 + '|' + view.x1 + '|' + hiddenKey() + '|' + logScale; };

  Chart.prototype.render = function (force) {
    var key = this.viewKey();
    if (!force && key === this.key) return false;
    this.key = key;
    var x0 = view.x0, x1 = view.x1;
    var axis = this.fit();
    var scale = this.scale;
    this.drawAxes(scale, axis);
    if (this.spec.kind === 'stack') this.drawStack(scale); else this.drawLines(scale);
    this.drawOrganizer(scale, axis);
    // Release labels in rows, as SVGChart.labelRows: the first row whose last label ends before this
    // one, among four; a label with no room is hidden (its marker stays). Hidden versions take none.
    var ends = [-Infinity, -Infinity, -Infinity, -Infinity];
    var ordered = this.releases.map(function (g, i) { return [Number(g.getAttribute('data-day')), i, g]; });
    ordered.sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    ordered.forEach(function (entry) {
      var day = entry[0], g = entry[2], x = scale.x(day);
      var shown = day >= x0 && day <= x1 && !hidden[g.getAttribute('data-version-index')];
      g.setAttribute('visibility', shown ? 'visible' : 'hidden');
      var line = g.querySelector('line'), text = g.querySelector('text');
      line.setAttribute('x1', coordinate(x));
      line.setAttribute('x2', coordinate(x));
      text.setAttribute('x', coordinate(x + 3));
      var row = -1;
      if (shown && x >= G.left && x <= G.width - G.right) {
        for (var r = 0; r < ends.length; r++) if (ends[r] <= x) { row = r; break; }
      }
      if (row >= 0) {
        ends[row] = x + 3 + text.textContent.length * 6 + 6;
        text.setAttribute('y', coordinate(G.top + 9 + row * 12));
      }
      text.setAttribute('visibility', row >= 0 ? 'inherit' : 'hidden');
    });
    this.figure.setAttribute('data-x0', coordinate(x0));
    this.figure.setAttribute('data-x1', coordinate(x1));
    return true;
  };

  Chart.prototype.drawAxes = function (scale, axis) {
    var y = this.yAxis, x = this.xAxis, percent = this.spec.kind === 'stack';
    while (y.firstChild) y.removeChild(y.firstChild);
    while (x.firstChild) x.removeChild(x.firstChild);
    axis.ticks.forEach(function (t) {
      var ty = coordinate(scale.y(t));
      make('line', { 'class': 'grid', x1: coordinate(G.left), x2: coordinate(G.width - G.right), y1: ty, y2: ty }, y);
      make('text', { x: coordinate(G.left - 6), y: ty, dy: '4' }, y).textContent =
        percent ? Math.round(t * 100) + '%' : valueLabel(t, axis.log ? powerOfTen(Math.floor(Math.log10(t) + 1e-9)) : axis.step);
    });
    var base = coordinate(G.top + PH), tickEnd = coordinate(G.top + PH + 4), labelY = coordinate(G.height - 6);
    dayTicks(view.x0, view.x1).forEach(function (tick) {
      var px = scale.x(tick[0]), tx = coordinate(px);
      make('line', { 'class': 'tick', x1: tx, x2: tx, y1: base, y2: tickEnd }, x);
      // As ChartScale.labelPlacement: a label that would pass the right edge ends inside it.
      var end = px + tick[1].length * 3.3 > G.width - 1;
      var attributes = { x: end ? coordinate(G.width - 1) : tx, y: labelY };
      if (end) attributes['class'] = 'end';
      make('text', attributes, x).textContent = tick[1];
    });
  };

  Chart.prototype.drawLines = function (scale) {
    var self = this, x0 = view.x0, x1 = view.x1, minPayloads = data.minPayloads;
    this.spec.series.forEach(function (s, index) {
      var line = self.paths.line[index], band = self.paths.band[index], marker = self.paths.marker[index];
      var offscale = self.paths.offscale[index];
      if (!visible(s)) {
        [line, band, marker, offscale].forEach(function (p) { if (p) p.setAttribute('d', ''); });
        return;
      }
      // The points in range, and one beyond each side so that lines reach the edges.
      var i0 = Math.max(0, lowerBound(s.d, x0) - 1);
      var i1 = Math.min(s.d.length - 1, lowerBound(s.d, x1 + 1e-9));
      var xs = [], ys = [], up = [], low = [], marked = [];
      for (var i = 0; i < s.d.length; i++) {
        if (i < i0 || i > i1) continue;
        xs[i] = scale.x(s.d[i]);
        ys[i] = scale.y(s.y[i]);
        if (s.lo) { up[i] = scale.y(s.hi[i]); low[i] = scale.y(s.lo[i]); }
        if (s.n[i] < minPayloads) marked.push(i);
      }
      var segs = segments(s.breakAt, i0, i1);
      line.setAttribute('d', linePath(xs, ys, segs));
      if (band) band.setAttribute('d', s.lo ? bandPath(xs, up, low, segs) : '');
      if (marker) marker.setAttribute('d', markerPath(xs, ys, marked));
      if (offscale) offscale.setAttribute('d', offscalePath(s, scale));
    });
  };

  // As SVGChart.offscalePath: a notch at the plot's edge for each point beyond the value axis.
  function offscalePath(s, scale) {
    var d = '', c = coordinate, top = G.top, bottom = G.top + PH;
    for (var i = 0; i < s.d.length; i++) {
      var v = s.y[i];
      if (!(v > scale.y1 || v < scale.y0)) continue;
      var x = scale.x(s.d[i]);
      if (x < G.left || x > G.width - G.right) continue;
      var edge = v > scale.y1 ? top : bottom, base = v > scale.y1 ? edge + 6 : edge - 6;
      d += 'M' + c(x - 4) + ' ' + c(base) + 'L' + c(x) + ' ' + c(edge) + 'L' + c(x + 4) + ' ' + c(base) + 'Z';
    }
    return d;
  }

  // Apple's goal bands across the plot, and each version's Apple value as a level over its intervals.
  Chart.prototype.drawOrganizer = function (scale, axis) {
    var spec = this.spec, x0 = view.x0, x1 = view.x1;
    var left = G.left, right = G.width - G.right;
    this.goals.forEach(function (rect) {
      var goal = spec.goals[Number(rect.getAttribute('data-goal'))];
      var top = scale.y(Math.min(goal.hi === null ? axis.top : goal.hi, axis.top));
      var bottom = scale.y(Math.max(goal.lo === null ? axis.bottom : goal.lo, axis.bottom));
      rect.setAttribute('y', coordinate(Math.min(top, bottom)));
      rect.setAttribute('height', coordinate(Math.max(0, bottom - top)));
    });
    this.apple.forEach(function (path) {
      var a = spec.apple[Number(path.getAttribute('data-apple'))];
      var shown = !hidden[a.v] && a.d1 >= x0 && a.d0 <= x1;
      path.setAttribute('visibility', shown ? 'visible' : 'hidden');
      if (!shown) return;
      var xa = Math.min(Math.max(scale.x(a.d0), left), right), xb = Math.min(Math.max(scale.x(a.d1), left), right);
      var y = scale.y(a.y), c = coordinate;
      path.setAttribute('d', 'M' + c(xa) + ' ' + c(y) + 'H' + c(xb) + 'M' + c(xb - 6) + ' ' + c(y) + 'L' + c(xb) + ' ' +
        c(y - 6) + 'L' + c(xb + 6) + ' ' + c(y) + 'L' + c(xb) + ' ' + c(y + 6) + 'Z');
    });
  };

  Chart.prototype.drawStack = function (scale) {
    var self = this, x0 = view.x0, x1 = view.x1, seen = {}, days = [];
    this.spec.series.forEach(function (s) {
      if (!visible(s)) return;
      s.d.forEach(function (d) { if (!seen[d] && d >= x0 - 40 && d <= x1 + 40) { seen[d] = true; days.push(d); } });
    });
    days.sort(function (a, b) { return a - b; });
    var position = {};
    days.forEach(function (d, i) { position[d] = i; });
    var cumulative = days.map(function () { return 0; });
    this.spec.series.forEach(function (s, index) {
      var path = self.paths.area[index];
      if (!path) return;
      if (!visible(s) || !days.length) { path.setAttribute('d', ''); return; }
      var first = lowerBound(days, s.d[0]), last = lowerBound(days, s.d[s.d.length - 1] + 1e-9) - 1;
      if (first > last) { path.setAttribute('d', ''); return; }
      first = Math.max(0, first - 1);
      last = Math.min(days.length - 1, last + 1);
      var share = days.map(function () { return 0; });
      for (var k = 0; k < s.d.length; k++) if (position[s.d[k]] !== undefined) share[position[s.d[k]]] = s.y[k];
      var top = [], bottom = [], lastColumn = null;
      for (var i = first; i <= last; i++) {
        var lower = cumulative[i];
        cumulative[i] += share[i];
        var x = scale.x(days[i]);
        if (Math.floor(x) === lastColumn) continue;
        lastColumn = Math.floor(x);
        top.push([x, scale.y(cumulative[i])]);
        bottom.push([x, scale.y(lower)]);
      }
      var d = '';
      for (var n = 0; n < top.length; n++) {
        d += (n === 0 ? 'M' : n === 1 ? 'L' : ' ') + coordinate(top[n][0]) + ' ' + coordinate(top[n][1]);
      }
      for (n = bottom.length - 1; n >= 0; n--) d += ' ' + coordinate(bottom[n][0]) + ' ' + coordinate(bottom[n][1]);
      path.setAttribute('d', d + 'Z');
    });
  };

  var intervalDays = { day: 1, week: 7, month: 31 };

  // The point of a series whose interval holds `day`.
  function pointAt(s, day) {
    var i = lowerBound(s.d, day + 1e-9) - 1;
    if (i < 0 || day - s.d[i] >= intervalDays[data.interval]) return -1;
    if (data.interval === 'month' && i + 1 < s.d.length && s.d[i + 1] <= day) return -1;
    return i;
  }

  Chart.prototype.showCursor = function (day) {
    var readout = this.readout;
    if (day === null || !this.scale) {
      this.crosshair.setAttribute('visibility', 'hidden');
      if (readout) readout.textContent = '';
      this.readoutKey = null;
      return;
    }
    var x = this.scale.x(day);
    this.crosshair.setAttribute('x1', coordinate(x));
    this.crosshair.setAttribute('x2', coordinate(x));
    this.crosshair.setAttribute('visibility', x >= G.left && x <= G.width - G.right ? 'visible' : 'hidden');
    if (!readout) return;
    // The values change only when the cursor enters another interval (or versions are hidden):
    // moves within one interval only move the crosshair and, at most, the box.
    // A chart off the screen keeps its old values until it is seen: filling a readout nobody sees
    // would cost as much as filling the ones in view.
    if (!this.onscreen) {
      this.readoutKey = null;
      return;
    }
    var key = intervalLabel(day) + '|' + hiddenKey();
    if (key !== this.readoutKey) {
      this.readoutKey = key;
      this.fillReadout(day);
    }
    // Over the plot's top, on the side away from the cursor: placed in percent of the plot area, so
    // that nothing is measured (a move reads no layout).
    var side = x > G.left + PW / 2 ? 'left' : 'right';
    if (side !== this.readoutSide) {
      this.readoutSide = side;
      readout.style.left = side === 'left' ? coordinate((G.left + 4) / G.width * 100) + '%' : '';
      readout.style.right = side === 'right' ? coordinate((G.right + 4) / G.width * 100) + '%' : '';
    }
  };

  // The readout's values at `day`: the interval, then each visible series' value there.
  Chart.prototype.fillReadout = function (day) {
    var readout = this.readout, spec = this.spec;
    while (readout.firstChild) readout.removeChild(readout.firstChild);
    readout.appendChild(document.createTextNode(intervalLabel(day)));
    var unit = spec.unit === 'count' || spec.unit === 'share' ? '' : ' ' + spec.unit;
    spec.series.forEach(function (s) {
      if (!visible(s)) return;
      var i = pointAt(s, day);
      if (i < 0) return;
      var dot = document.createElement('span');
      dot.className = 'swatch-dot';
      dot.style.background = s.color;
      readout.appendChild(dot);
      var text = s.label + ' ';
      if (spec.kind === 'stack') {
        text += number(s.y[i] * 100) + '% (' + s.n[i] + ' payloads)';
      } else {
        text += number(s.y[i]) + unit;
        if (s.lo) text += ' [' + number(s.lo[i]) + '–' + number(s.hi[i]) + ']';
        text += ' n=' + s.n[i] + (s.n[i] < data.minPayloads ? ' (sparse)' : '');
      }
      readout.appendChild(document.createTextNode(text));
    });
  };

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

  // ---- Pointer: drag to zoom (shift-drag to pan), double-click to reset, hover for the crosshair ----
  function pixel(svg, event) {
    var rect = svg.getBoundingClientRect();
    return (event.clientX - rect.left) * G.width / rect.width;
  }
  function attach(chart) {
    var overlay = chart.svg.querySelector('.overlay'), drag = null;
    overlay.addEventListener('mousedown', function (event) {
      event.preventDefault();
      drag = { start: pixel(chart.svg, event), pan: event.shiftKey, x0: view.x0, x1: view.x1 };
    });
    overlay.addEventListener('mousemove', function (event) {
      var px = pixel(chart.svg, event);
      var day = Math.round(chart.scale.day(Math.min(Math.max(px, G.left), G.width - G.right)));
      if (drag && drag.pan) {
        var shift = (drag.start - px) / PW * (drag.x1 - drag.x0);
        shift = Math.max(data.x0 - drag.x0, Math.min(data.x1 - drag.x1, shift));
        view.x0 = drag.x0 + shift;
        view.x1 = drag.x1 + shift;
        schedule();
      } else if (drag) {
        var a = Math.max(G.left, Math.min(drag.start, px)), b = Math.min(G.width - G.right, Math.max(drag.start, px));
        chart.selection.setAttribute('x', coordinate(a));
        chart.selection.setAttribute('width', coordinate(b - a));
        chart.selection.setAttribute('visibility', 'visible');
      }
      if (view.cursor !== day) {
        view.cursor = day;
        showCursor(day);
      }
    });
    function end(event) {
      if (!drag) return;
      var px = pixel(chart.svg, event), started = drag;
      drag = null;
      chart.selection.setAttribute('visibility', 'hidden');
      if (started.pan) { writeFragment(); return; }
      if (Math.abs(px - started.start) < 4) return;
      var a = chart.scale.day(Math.max(G.left, Math.min(started.start, px)));
      var b = chart.scale.day(Math.min(G.width - G.right, Math.max(started.start, px)));
      setRange(a, b);
    }
    overlay.addEventListener('mouseup', end);
    overlay.addEventListener('mouseleave', function (event) {
      end(event);
      view.cursor = null;
      showCursor(null);
    });
    overlay.addEventListener('dblclick', function () { setRange(data.x0, data.x1); });
    // Ctrl- (or ⌘-) wheel and pinch zoom around the pointer; shift-wheel or a sideways wheel pans. A
    // plain wheel scrolls the page.
    overlay.addEventListener('wheel', function (event) {
      var unit = event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1;
      var dx = event.deltaX * unit, dy = event.deltaY * unit;
      if (event.ctrlKey || event.metaKey) {
        event.preventDefault();
        zoom(Math.exp(dy * 0.002), chart.scale.day(Math.min(Math.max(pixel(chart.svg, event), G.left), G.width - G.right)));
      } else if (event.shiftKey || Math.abs(dx) > Math.abs(dy)) {
        event.preventDefault();
        pan((event.shiftKey && !dx ? dy : dx) / PW);
      }
    }, { passive: false });
    chart.svg.addEventListener('keydown', function (event) { key(chart, event); });
    chart.svg.addEventListener('focus', function () { if (chart.readout) chart.readout.setAttribute('aria-live', 'polite'); });
    chart.svg.addEventListener('blur', function () {
      if (chart.readout) chart.readout.setAttribute('aria-live', 'off');
      view.cursor = null;
      showCursor(null);
    });
  }

  // Zoom by `factor` (below 1: in) keeping `day` where it is; pan by `share` of the view.
  function zoom(factor, day) {
    var span = Math.min(Math.max((view.x1 - view.x0) * factor, 1), data.x1 - data.x0);
    var at = (day - view.x0) / (view.x1 - view.x0);
    var x0 = Math.min(Math.max(day - at * span, data.x0), data.x1 - span);
    setRange(x0, x0 + span);
  }
  function pan(share) {
    var span = view.x1 - view.x0, shift = share * span;
    shift = Math.max(data.x0 - view.x0, Math.min(data.x1 - view.x1, shift));
    setRange(view.x0 + shift, view.x1 + shift);
  }
  // The start of the interval after (or before) the one holding `day`.
  function stepInterval(day, direction) {
    if (data.interval !== 'month') return day + direction * intervalDays[data.interval];
    var date = new Date(Math.floor(day) * DAY_MS);
    return Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + direction, 1) / DAY_MS;
  }
  // Keys on a focused chart: ←/→ move the crosshair an interval, Home/End to the view's ends; shift
  // with ←/→ pans; + and − zoom around the crosshair (or the middle); 0 shows everything; Escape hides
  // the crosshair.
  function key(chart, event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var cursor = view.cursor, next = null, k = event.key;
    if ((k === 'ArrowLeft' || k === 'ArrowRight') && event.shiftKey) pan(k === 'ArrowLeft' ? -0.25 : 0.25);
    else if (k === 'ArrowLeft' || k === 'ArrowRight') {
      var direction = k === 'ArrowLeft' ? -1 : 1;
      next = cursor === null ? (direction < 0 ? view.x1 : view.x0) : stepInterval(cursor, direction);
    } else if (k === 'Home') next = view.x0;
    else if (k === 'End') next = view.x1;
    else if (k === '+' || k === '=') zoom(0.5, cursor === null ? (view.x0 + view.x1) / 2 : cursor);
    else if (k === '-' || k === '_') zoom(2, cursor === null ? (view.x0 + view.x1) / 2 : cursor);
    else if (k === '0') setRange(data.x0, data.x1);
    else if (k === 'Escape') { view.cursor = null; showCursor(null); }
    else return;
    event.preventDefault();
    if (next !== null) {
      view.cursor = Math.round(Math.min(Math.max(next, view.x0), view.x1));
      showCursor(view.cursor);
    }
  }

  // ---- Saving a chart: its drawing as SVG or PNG, its points as CSV ----
  // The properties the page's style sheet gives the chart's elements, written on a copy as attributes:
  // the copy stands alone.
  var drawn = ['fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'stroke-dasharray',
    'stroke-linecap', 'stroke-linejoin', 'opacity', 'font-size', 'font-family', 'text-anchor', 'paint-order',
    'visibility', 'display'];
  function chartSVG(figure) {
    var svg = figure.querySelector('svg.plot'), copy = svg.cloneNode(true);
    var originals = svg.querySelectorAll('*'), copies = copy.querySelectorAll('*'), dropped = [];
    for (var i = 0; i < originals.length; i++) {
      var style = getComputedStyle(originals[i]);
      // What only the page uses (the pointer's overlay, the selection, the crosshair) and what is hidden.
      if (originals[i].matches('.overlay, .selection, .crosshair') || style.visibility === 'hidden') {
        dropped.push(copies[i]);
        continue;
      }
      drawn.forEach(function (name) {
        var value = style.getPropertyValue(name);
        if (value && !copies[i].hasAttribute(name)) copies[i].setAttribute(name, value);
      });
      copies[i].removeAttribute('class');
    }
    dropped.forEach(function (e) { if (e.parentNode) e.parentNode.removeChild(e); });
    copy.removeAttribute('class');
    copy.removeAttribute('tabindex');
    copy.setAttribute('xmlns', SVG);
    copy.setAttribute('width', String(G.width));
    copy.setAttribute('height', String(G.height));
    var paper = make('rect', { width: String(G.width), height: String(G.height),
      fill: getComputedStyle(document.body).backgroundColor });
    copy.insertBefore(paper, copy.firstChild);
    return new XMLSerializer().serializeToString(copy);
  }
  // The PNG at twice the chart's size.
  function chartPNG(figure) {
    return new Promise(function (resolve, reject) {
      var url = URL.createObjectURL(new Blob([chartSVG(figure)], { type: 'image/svg+xml' }));
      var image = new Image();
      image.onload = function () {
        var canvas = document.createElement('canvas');
        canvas.width = G.width * 2;
        canvas.height = G.height * 2;
        var context = canvas.getContext('2d');
        context.scale(2, 2);
        context.drawImage(image, 0, 0, G.width, G.height);
        URL.revokeObjectURL(url);
        canvas.toBlob(function (blob) { if (blob) resolve(blob); else reject(new Error('no PNG')); }, 'image/png');
      };
      image.onerror = function () { URL.revokeObjectURL(url); reject(new Error('the chart did not draw')); };
      image.src = url;
    });
  }
  // A CSV cell: quoted when it must be; text that a spreadsheet would run as a formula starts with '.
  function cell(value) {
    var text = String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = "'" + text;
    return /[",\n\r]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }
  // Every point of the chart: one row per series and interval, every series, hidden or not.
  function chartCSV(spec) {
    var share = spec.kind === 'stack';
    var rows = [['series', 'version', 'group', 'interval_start', share ? 'share' : 'value', 'lower', 'upper', 'payloads']];
    spec.series.forEach(function (s) {
      for (var i = 0; i < s.d.length; i++) {
        rows.push([s.label, data.versions[s.v].name, s.g === undefined ? '' : data.groups[s.g], isoDay(s.d[i]),
          s.y[i], s.lo ? s.lo[i] : '', s.hi ? s.hi[i] : '', s.n[i]].map(cell));
      }
    });
    return rows.map(function (r) { return r.join(','); }).join('\n') + '\n';
  }
  // What a save button gives: a string (SVG, CSV) or a promise of a PNG blob.
  function exportChart(id, format) {
    var figure = document.getElementById(id);
    if (!figure) throw new Error('no chart ' + id);
    if (format === 'svg') return chartSVG(figure);
    if (format === 'png') return chartPNG(figure);
    var chart = charts.filter(function (c) { return c.spec.id === id; })[0];
    if (format === 'csv' && chart) return chartCSV(chart.spec);
    throw new Error('cannot save ' + id + ' as ' + format);
  }
  function download(name, blob) {
    var link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = name;
    link.click();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 10000);
  }
  function save(figure, format) {
    var name = (figure.getAttribute('data-chart') || figure.getAttribute('data-distribution') || figure.id) +
      (figure.getAttribute('data-statistic') ? '-' + figure.getAttribute('data-statistic') : '');
    name = name.replace(/[^A-Za-z0-9._-]+/g, '_') + '.' + format;
    var result = exportChart(figure.id, format);
    if (format === 'png') result.then(function (blob) { download(name, blob); });
    else download(name, new Blob([result], { type: format === 'svg' ? 'image/svg+xml' : 'text/csv' }));
  }

  function init() {
    data = JSON.parse(document.getElementById('report-data').textContent);
    G = data.geometry;
    PW = G.width - G.left - G.right;
    PH = G.height - G.top - G.bottom;
    if (data.x0 === null) return;
    view = { x0: data.x0, x1: data.x1, cursor: null };
    data.charts.forEach(function (spec) {
      var figure = document.getElementById(spec.id);
      if (!figure) return;
      var chart = new Chart(spec, figure);
      // As drawn in the file: the whole range, every version.
      chart.fit();
      chart.key = chart.viewKey();
      charts.push(chart);
    });
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
