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

  /// The versions of `held` someone asking for `asked` most likely meant: those it is the start of
  /// (`6.6` → `6.6.0`, `6.6.1`), or that read the same with trailing zeros dropped; else the nearest
  /// one before it and after it in this order. Empty when `held` is.
  public static func nearest(to asked: String, among held: some Collection<String>) -> [String] {
    let sorted = held.sorted(by: precedes)
    func trimmed(_ v: String) -> [Component] {
      var parts = components(v)
      while parts.count > 1, parts.last == .number(0) { parts.removeLast() }
      return parts
    }
    let askedParts = trimmed(asked)
    let completions = sorted.filter {
      $0 != asked && ($0.hasPrefix(asked + ".") || $0.hasPrefix(asked + "-") || trimmed($0) == askedParts)
    }
    if !completions.isEmpty { return Array(completions.prefix(3)) }
    let after = sorted.firstIndex { precedes(asked, $0) } ?? sorted.endIndex
    return [after > sorted.startIndex ? sorted[after - 1] : nil, after < sorted.endIndex ? sorted[after] : nil]
      .compactMap { $0 }
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
