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
  // gives more than 8 ticks, every multiple from 1 to 9 when it gives fewer than 4. Each tick's label
  // step is its own power of ten.
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
    // A narrow range (400 to 1,200 ms) would get two or three ticks: every whole multiple then.
    if (ticks.length < 4) ticks = candidates([1, 2, 3, 4, 5, 6, 7, 8, 9]);
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

