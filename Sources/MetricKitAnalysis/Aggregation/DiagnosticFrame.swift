/// A frame as reports show it: its binary and offset, and, when symbolicated, its function, file and
/// line (an inlined function names the function it was inlined into).
public struct DiagnosticFrame: Sendable, Hashable {
  /// The binary's name (or the start of its UUID, or `???`).
  public var binary: String
  /// The binary's UUID.
  public var binaryUUID: String?
  /// The offset from the binary's `__TEXT` segment.
  public var offset: UInt64
  /// The symbol, when symbolicated.
  public var symbol: FrameSymbol?
  /// The function this one was inlined into (whole name), when it was.
  public var inlinedInto: String?

  /// Creates a frame.
  public init(binary: String, binaryUUID: String?, offset: UInt64, symbol: FrameSymbol?, inlinedInto: String?) {
    self.binary = binary
    self.binaryUUID = binaryUUID
    self.offset = offset
    self.symbol = symbol
    self.inlinedInto = inlinedInto
  }

  /// The shown frame of `frame` with one of its symbols.
  init(_ frame: CallStackTree.Frame, symbol: FrameSymbol?, inlinedInto: String?) {
    self.init(
      binary: frame.binaryLabel, binaryUUID: frame.binaryUUID, offset: frame.imageOffset, symbol: symbol,
      inlinedInto: inlinedInto)
  }

  /// A frame read from its label, `binary+0xoffset` (as snapshots of format 3 and earlier hold it).
  init(label: String) {
    if let plus = label.range(of: "+0x", options: .backwards),
      let offset = UInt64(label[plus.upperBound...], radix: 16)
    {
      self.init(
        binary: String(label[..<plus.lowerBound]), binaryUUID: nil, offset: offset, symbol: nil, inlinedInto: nil)
    } else {
      self.init(binary: label, binaryUUID: nil, offset: 0, symbol: nil, inlinedInto: nil)
    }
  }

  /// `binary+0xoffset`.
  public var label: String { "\(binary)+0x\(String(offset, radix: 16))" }

  /// `file:line` with the file's last path component, when known.
  public var location: String? {
    guard let file = symbol?.file else { return nil }
    let name = file.split(separator: "/").last.map(String.init) ?? file
    return symbol?.line.map { "\(name):\($0)" } ?? name
  }

  /// One line for people: `FeedViewController.reload() (FeedView.swift:88)`, or `MyApp+0x8a10`.
  public var text: String {
    guard let symbol else { return label }
    return symbol.shortFunction + (location.map { " (\($0))" } ?? "")
  }

  /// The frame in JSON: `binary`, `binaryUUID`, `offset`, `symbolicated`, and when symbolicated
  /// `function` (whole), `shortFunction`, `file`, `line`, `column`, `inlinedInto`.
  var json: JSONWriter.Value {
    var members: [(String, JSONWriter.Value)] = [
      ("binary", .string(binary)), ("binaryUUID", binaryUUID.map { .string($0) } ?? .null),
      ("offset", .integer(Int128(offset))), ("symbolicated", .bool(symbol != nil)),
    ]
    if let symbol {
      members += [("function", .string(symbol.function)), ("shortFunction", .string(symbol.shortFunction))]
      if let file = symbol.file { members.append(("file", .string(file))) }
      if let line = symbol.line { members.append(("line", .integer(Int128(line)))) }
      if let column = symbol.column { members.append(("column", .integer(Int128(column)))) }
      if let inlinedInto { members.append(("inlinedInto", .string(inlinedInto))) }
    }
    return .object(members)
  }

  /// Reads back ``json``.
  init(json v: JSONValue, keyPath: [String]) throws(PayloadDecodingError) {
    guard v.kind == .object, let binary = v.member("binary")?.string, let offset = v.member("offset")?.uint64 else {
      throw PayloadDecodingError(keyPath: keyPath, reason: "a frame needs its binary and offset")
    }
    var symbol: FrameSymbol?
    if let function = v.member("function")?.string {
      symbol = FrameSymbol(
        function: function, file: v.member("file")?.string, line: FrameSymbol.position(v.member("line")?.int64),
        column: FrameSymbol.position(v.member("column")?.int64))
    }
    self.init(
      binary: binary, binaryUUID: v.member("binaryUUID")?.string, offset: offset, symbol: symbol,
      inlinedInto: v.member("inlinedInto")?.string)
  }
}

extension CallStackTree.Frame {
  /// The frames people read: one per symbol, innermost first, each inlined one naming the function
  /// it is in; or the frame itself, unsymbolicated.
  public var shownFrames: [DiagnosticFrame] {
    guard !symbols.isEmpty else { return [DiagnosticFrame(self, symbol: nil, inlinedInto: nil)] }
    return symbols.indices.map { i in
      DiagnosticFrame(self, symbol: symbols[i], inlinedInto: i + 1 < symbols.count ? symbols[i + 1].function : nil)
    }
  }
}
