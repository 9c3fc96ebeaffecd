/// A gzip member header (RFC 1952 §2.3) read a byte at a time, as the bytes come: the fixed ten
/// bytes, then the optional extra field, file name, comment and header CRC its flags announce.
struct GzipHeaderProgress {
  private enum Field { case fixed, extraLength, extra, name, comment, headerCRC, done }
  private var field = Field.fixed
  private var flags: UInt8 = 0
  /// Bytes read of the current field (fixed, extra length, header CRC).
  private var position = 0
  /// Bytes of the extra field still to skip.
  private var extraRemaining = 0

  /// Whether the whole header was read.
  var isComplete: Bool { field == .done }

  /// Reads the next header byte; throws zlib's words for what zlib refuses.
  mutating func read(_ byte: UInt8) throws(InputError) {
    switch field {
    case .fixed:
      switch position {
      case 0, 1:
        guard byte == (position == 0 ? 0x1f : 0x8b) else { throw Self.corrupt("incorrect header check") }
      case 2:
        guard byte == 8 else { throw Self.corrupt("unknown compression method") }
      case 3:
        guard byte & 0xE0 == 0 else { throw Self.corrupt("unknown header flags set") }
        flags = byte
      default: break
      }
      position += 1
      if position == 10 { advance(from: .fixed) }
    case .extraLength:
      extraRemaining |= Int(byte) << (8 * position)
      position += 1
      if position == 2 {
        if extraRemaining == 0 { advance(from: .extra) } else { field = .extra }
      }
    case .extra:
      extraRemaining -= 1
      if extraRemaining == 0 { advance(from: .extra) }
    case .name, .comment:
      if byte == 0 { advance(from: field) }
    case .headerCRC:
      position += 1
      if position == 2 { advance(from: .headerCRC) }
    case .done:
      break
    }
  }

  /// Moves to the next field the flags announce, in the order RFC 1952 lays them out.
  private mutating func advance(from done: Field) {
    let order: [(Field, UInt8)] = [(.extraLength, 0x04), (.name, 0x08), (.comment, 0x10), (.headerCRC, 0x02)]
    let start: Int =
      switch done {
      case .fixed: 0
      case .extraLength, .extra: 1
      case .name: 2
      case .comment: 3
      case .headerCRC, .done: 4
      }
    position = 0
    field = order[start...].first { flags & $0.1 != 0 }?.0 ?? .done
  }

  private static func corrupt(_ words: String) -> InputError {
    InputError(reason: "corrupt gzip stream: \(words)")
  }
}
