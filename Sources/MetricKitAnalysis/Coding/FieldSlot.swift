/// Where a field-table row stores what it reads: a writable key path into the root value, and the
/// field's offset in the root's memory when the path names a stored property (a computed one is
/// stored through the key path).
///
/// Why not the key path alone: storing through a key path goes through the runtime
/// (`swift_setAtWritableKeyPath`, then a projection and a value-witness assignment) once per member
/// of every decoded object. Through the offset, the value is swapped into the field, which keeps the
/// new value and releases the old one as the key path would (`MemoryLayout.offset(of:)` is documented
/// for this use).
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
  func set(_ value: consuming Value, in root: inout Root) {
    guard let offset else {
      root[keyPath: path] = value
      return
    }
    // Swapped in, not assigned: the value moves into the field (an assignment from the closure would
    // copy it, a retain of every reference it holds), and the field's old value leaves with `value`.
    var value = value
    withUnsafeMutableBytes(of: &root) { bytes in
      swap(&bytes.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Value.self).pointee, &value)
    }
  }
}
