/// One answer of `llvm-symbolizer --output-style=JSON --inlining`: the file and address it echoes, and
/// the symbols at that address, innermost first (empty where it resolves to nothing, or the file could
/// not be read). Function and file names longer than ``maximumNameLength`` bytes are cut, with an
/// ellipsis, so that no answer holds more than its line's bytes.
public struct SymbolizerAnswer: Sendable, Hashable {
  /// The file asked (`FILE:ARCH`), as the symbolizer echoes it.
  public var file: String?
  /// The address asked, as the symbolizer echoes it.
  public var address: UInt64?
  /// The symbols, innermost first.
  public var symbols: [FrameSymbol]

  /// The longest function or file name kept.
  public static let maximumNameLength = 16 << 10

  /// Reads one line (`{"Address": "0x…", "ModuleName": "FILE:ARCH", "Symbol": [{"FunctionName",
  /// "FileName", "Line", "Column"…}…]}`, or `{…, "Error": …}`).
  public init(line: some Collection<UInt8>) throws(SymbolizerAnswerError) {
    let bytes = Array(line)
    guard let parser = JSONParser(maximumDepth: 16) else { throw SymbolizerAnswerError(description: "out of memory") }
    let copied = bytes.withUnsafeBytes { all in Result { () throws(InputError) in try PaddedBuffer(copying: all) } }
    guard case .success(let buffer) = copied else { throw SymbolizerAnswerError(description: "out of memory") }
    try self.init(buffer.bytes, parser: parser)
  }

  /// Reads one line followed by the parser's padding, with the thread's parser.
  init(_ line: UnsafeRawBufferPointer, parser: JSONParser) throws(SymbolizerAnswerError) {
    do {
      self = try parser.parse(line) { root throws(PayloadDecodingError) in
        let address = root.member("Address")?.string.flatMap { text -> UInt64? in
          guard text.hasPrefix("0x"), text.utf8.count <= 18 else { return nil }
          return UInt64(text.dropFirst(2), radix: 16)
        }
        var symbols: [FrameSymbol] = []
        if let list = root.member("Symbol"), list.kind == .array {
          for s in list.children {
            guard let name = s.member("FunctionName")?.string, !name.isEmpty, name != "??" else { continue }
            var file: String? = s.member("FileName")?.string
            if file == "" || file == "??" { file = nil }
            let line = FrameSymbol.position(s.member("Line")?.int64)
            let column = FrameSymbol.position(s.member("Column")?.int64)
            symbols.append(
              FrameSymbol(function: Self.bounded(name), file: file.map(Self.bounded), line: line, column: column))
          }
        }
        return SymbolizerAnswer(file: root.member("ModuleName")?.string, address: address, symbols: symbols)
      }
    } catch {
      throw SymbolizerAnswerError(
        description: "not an answer: \(TextEscaping.terminal(String(decoding: line.prefix(200), as: UTF8.self)))")
    }
  }

  private init(file: String?, address: UInt64?, symbols: [FrameSymbol]) {
    self.file = file
    self.address = address
    self.symbols = symbols
  }

  /// `name`, cut to ``maximumNameLength`` bytes (before a character) with an ellipsis when longer.
  static func bounded(_ name: String) -> String {
    guard name.utf8.count > maximumNameLength else { return name }
    let bytes = Array(name.utf8)
    var cut = maximumNameLength
    while cut > 0 && bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
    return String(decoding: bytes[..<cut], as: UTF8.self) + "…"
  }
}

/// Why a line is not an answer.
public struct SymbolizerAnswerError: Error, Sendable, CustomStringConvertible {
  /// What the line held instead (its first 200 bytes, terminal-safe).
  public var description: String
}
