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
    chart.svg.addEventListener('focus', function () {
      chart.focused = true;
      chart.readoutText.setAttribute('aria-live', 'polite');
      chart.readoutText.textContent = chart.readoutWords;
    });
    chart.svg.addEventListener('blur', function () {
      chart.focused = false;
      chart.readoutText.setAttribute('aria-live', 'off');
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

