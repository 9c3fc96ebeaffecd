// The app of the symbolication tests: each function is where a frame of the generated diagnostics
// points. The markers name lines the tests expect; the build script finds them by text.
static int counter;

__attribute__((always_inline)) static inline int scaled(int x) {
  return x * 3 + counter;  // @scaled
}

__attribute__((noinline)) int reload_feed(int x) {  // @reload_feed.start
  counter += scaled(x);  // @reload_feed.inlined
  return counter;
}

__attribute__((noinline)) int render_row(int x) {  // @render_row.start
  int y = reload_feed(x);  // @render_row.call
  return y + 1;  // @render_row.after
}

