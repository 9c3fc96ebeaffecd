/// What a frame's address is in the source: a function, and where in it. A frame in code the compiler
/// inlined resolves to several symbols, innermost first: the inlined functions, then the function the
/// code was compiled into.
public struct FrameSymbol: Sendable, Hashable {
  /// The function's name, demangled and whole (`MyApp.FeedViewController.reload() -> Swift.Int`).
  public var function: String
  /// The function's name as people read it (`FeedViewController.reload()`): no module, no result type.
  public var shortFunction: String
  /// The source file, as the compiler was given it.
  public var file: String?
  /// The line, from 1.
  public var line: Int?
  /// The column, from 1.
  public var column: Int?

  /// A symbol of `function` (demangled or not) at `file`:`line`:`column`.
  public init(function: String, file: String? = nil, line: Int? = nil, column: Int? = nil) {
    self.function = SwiftDemangler.demangled(function) ?? function
    shortFunction = SwiftDemangler.shortName(self.function)
    self.file = file
    self.line = line
    self.column = column
  }

  /// A line or column read as a whole number: positive, else unknown (0 is what DWARF and
  /// `llvm-symbolizer` say for unknown).
  static func position(_ value: Int64?) -> Int? {
    guard let value, value > 0, value <= Int64(Int32.max) else { return nil }
    return Int(value)
  }
}
