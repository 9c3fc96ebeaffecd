// SwiftPM links an executable's entry point as `<module>_main`; each harness defines that symbol and
// hands control to libFuzzer's driver through this function.

@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with `callback` as the test function.
public func runLibFuzzer(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ callback: @convention(c) (UnsafeRawPointer?, Int) -> CInt
) -> CInt {
  var argc = argc
  var argv = argv
  return llvmFuzzerRunDriver(&argc, &argv, callback)
}
