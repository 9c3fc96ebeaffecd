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

