// The app's entry point: calls into the C (and, when built, Embedded Swift) code so the linker keeps
// it all.
int render_row(int x);
#ifndef NO_SWIFT
extern long start_feed(long) __asm__("_$e4Feed05startA0yS2iF");
#endif

#ifdef SHIFTED
// A second build of the same code: this function moves everything after it.
__attribute__((noinline, used)) int shift_everything(int x) { return x * x * x + x * 5 - 3; }
#endif

int main(void) {
#ifdef NO_SWIFT
  return render_row(2);
#else
  return render_row(2) + (int)start_feed(4);
#endif
}
