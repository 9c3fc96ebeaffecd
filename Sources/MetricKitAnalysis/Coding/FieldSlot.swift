/// Where a field-table row stores what it reads: a writable key path into the root value, and the
/// field's offset in the root's memory when the path names a stored property (a computed one is
/// stored through the key path).
///
/// Why not the key path alone: storing through a key path goes through the runtime
/// (`swift_setAtWritableKeyPath`, then a projection and a value-witness assignment) once per member
/// of every decoded object. Through the offset, the store is an ordinary assignment of a `Value`,
/// which releases the old value and keeps the new one as the key path would (`MemoryLayout.offset(of:)`
/// is documented for this use).
struct FieldSlot<Root, Value> {
  private let path: WritableKeyPath<Root, Value>
  /// The field's byte offset within `Root`; nil for a computed property.
  private let offset: Int?

  init(_ path: WritableKeyPath<Root, Value>) {
    self.path = path
    offset = MemoryLayout<Root>.offset(of: path)
  }

  /// Stores `value` in `root`'s field.
  @inline(__always)
  func set(_ value: Value, in root: inout Root) {
    guard let offset else {
      root[keyPath: path] = value
      return
    }
    withUnsafeMutableBytes(of: &root) { bytes in
      bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee = value
    }
  }
}
