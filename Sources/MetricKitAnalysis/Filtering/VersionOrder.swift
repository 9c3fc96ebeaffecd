/// Orders app versions as people read them: numeric components compared as numbers
/// (`3.10.0` after `3.9.1`), other text byte-wise, the empty version first.
public enum VersionOrder {
  /// Whether `a` sorts before `b`.
  public static func precedes(_ a: String, _ b: String) -> Bool {
    let x = components(a)
    let y = components(b)
    for (p, q) in zip(x, y) where p != q {
      switch (p, q) {
      case (.number(let m), .number(let n)): return m < n
      case (.number, .text): return true
      case (.text, .number): return false
      case (.text(let s), .text(let t)): return s.precedesBytewise(t)
      }
    }
    if x.count != y.count { return x.count < y.count }
    return a.precedesBytewise(b)
  }

  private enum Component: Equatable {
    case number(UInt64)
    case text(String)
  }

  private static func components(_ version: String) -> [Component] {
    version.split(whereSeparator: { $0 == "." || $0 == "-" || $0 == " " }).map { part in
      if let n = UInt64(part) { .number(n) } else { .text(String(part)) }
    }
  }
}
