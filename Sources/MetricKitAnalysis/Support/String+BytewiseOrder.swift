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
    return a.withUTF8 { a in b.withUTF8 { b in UnsafeRawBufferPointer(a).precedesBytewise(UnsafeRawBufferPointer(b)) } }
  }
}

extension UnsafeRawBufferPointer {
  /// Whether these bytes sort before `other`, byte by byte, before any longer bytes they begin (file
  /// names as a folder's listing holds them, and strings' UTF-8).
  func precedesBytewise(_ other: UnsafeRawBufferPointer) -> Bool {
    let common = Swift.min(count, other.count)
    let order = common == 0 ? 0 : memcmp(baseAddress!, other.baseAddress!, common)
    return order != 0 ? order < 0 : count < other.count
  }
}
