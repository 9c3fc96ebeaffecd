// A framework of the symbolication tests, linked as a dylib (its __TEXT starts at 0) and shipped
// universal (arm64 and x86_64).
__attribute__((noinline)) int decode_item(int x) {
  return x * 7 + 1;  // @decode_item.body
}
