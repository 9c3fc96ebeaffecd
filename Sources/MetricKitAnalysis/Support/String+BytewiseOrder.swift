#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension String {
  /// Whether this string sorts before `other` by their UTF-8 bytes, a string before any longer one it
  /// begins: the order reports and cache files list names in, the same on every platform and in every
  /// locale. Compared as memory (names such as metric identifiers share long prefixes, and a cache
  /// entry sorts them for every aggregate it writes).
  func precedesBytewise(_ other: String) -> Bool {
    var (a, b) = (self, other)
    return a.withUTF8 { a in
      b.withUTF8 { b in
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : memcmp(a.baseAddress!, b.baseAddress!, common)
        return order != 0 ? order < 0 : a.count < b.count
      }
    }
  }
}
