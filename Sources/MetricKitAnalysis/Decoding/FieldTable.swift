import Foundation

/// How the members of one kind of JSON object reach a model value: one row per MetricKit key (and the
/// other spellings MetricKit versions used), each saying how its value is read (a measurement in which
/// unit, a histogram, a nested section…) and which field of `Root` it sets. ``DecodingContext``
/// walks an object's members once, finds each name in the table, and prefixes the name to the key
/// path of any error the row throws. Unknown keys are skipped, `null` values count as absent.
///
/// Adding a MetricKit field is one row: `.seconds("cumulativeGPUTime") { $0.cumulativeGPUTime = $1 }`.
struct FieldTable<Root>: @unchecked Sendable {
  /// Reads a member's value into the root value (the row's setter is captured inside).
  typealias Read = (JSONValue, inout DecodingContext, inout Root) throws(PayloadDecodingError) -> Void

  /// One row: the keys it answers to and how it reads. Rows are built once, in static tables, and
  /// never change; their readers capture only units and other tables.
  struct Field: @unchecked Sendable {
    let keys: [StaticString]
    let read: Read
  }

  /// The value decoding starts from (an empty section).
  let empty: Root
  private let keys: KeySet
  /// The row of each key of `keys`.
  private let rows: [Read]

  /// A table of `fields`, filling a copy of `empty`.
  init(empty: Root, _ fields: [Field]) {
    self.empty = empty
    keys = KeySet(fields.flatMap(\.keys))
    rows = fields.flatMap { field in field.keys.map { _ in field.read } }
  }

  /// The row for a member's name, nil when the table has none.
  @inline(__always)
  func row(for member: JSONValue) -> Read? {
    keys.index(of: member).map { rows[$0] }
  }
}

// The kinds of row. Each takes the keys, then the setter of the field it fills.
extension FieldTable.Field {
  /// A string.
  static func string(_ keys: StaticString..., set: @escaping (inout Root, String) -> Void) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in set(&root, try context.string(value)) }
  }

  /// A boolean, also from the strings and numbers collectors write.
  static func flag(_ keys: StaticString..., set: @escaping (inout Root, Bool) -> Void) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in set(&root, try context.flag(value)) }
  }

  /// A non-negative integer.
  static func count(_ keys: StaticString..., set: @escaping (inout Root, Int) -> Void) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in set(&root, try context.count(value)) }
  }

  /// A whole number written as a JSON number (exception codes can be large and unsigned).
  static func wholeNumber(_ keys: StaticString..., set: @escaping (inout Root, Int) -> Void) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in
      set(&root, try context.wholeNumber(value))
    }
  }

  /// Any value, read without failing (`signpostData` records are kept as found).
  static func lenient(_ keys: StaticString..., set: @escaping (inout Root, JSONValue) -> Void) -> Self {
    Self(keys: keys) { (value, _, root) throws(PayloadDecodingError) in set(&root, value) }
  }

  /// A timestamp.
  static func timestamp(_ keys: StaticString..., set: @escaping (inout Root, Date) -> Void) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in set(&root, try context.timestamp(value)) }
  }

  /// A duration measurement, in seconds.
  static func seconds(
    _ keys: StaticString..., set: @escaping (inout Root, Measurement<UnitDuration>) -> Void
  ) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in set(&root, try context.seconds(value)) }
  }

  /// An amount of data, in megabytes.
  static func megabytes(
    _ keys: StaticString..., set: @escaping (inout Root, Measurement<UnitInformationStorage>) -> Void
  ) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in
      set(&root, try context.megabytes(value))
    }
  }

  /// A measurement of `kind` in its base unit, expressed in `unit`.
  static func measurement<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, set: @escaping (inout Root, Measurement<U>) -> Void
  ) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in
      set(&root, Measurement(value: try context.measurement(value, kind), unit: unit))
    }
  }

  /// A histogram whose bucket edges are measurements of `kind`, in `unit`.
  static func histogram<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, set: @escaping (inout Root, Histogram<U>) -> Void
  ) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in
      set(&root, try context.histogram(value, kind: kind, unit: unit))
    }
  }

  /// An average with its standard deviation and sample count, stored divided by `divisor`.
  static func average<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, divisor: Double,
    set: @escaping (inout Root, AverageMeasurement<U>) -> Void
  ) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in
      set(&root, try context.average(value, kind: kind, unit: unit, divisor: divisor))
    }
  }

  /// A nested object, decoded with its own table.
  static func section<Section>(
    _ keys: StaticString..., with table: FieldTable<Section>, set: @escaping (inout Root, Section) -> Void
  ) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in
      set(&root, try context.decode(value, with: table))
    }
  }

  /// A nested object whose members are fields of the root itself (`diagnosticMetaData`).
  static func inline(_ keys: StaticString..., with table: FieldTable<Root>) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in
      try context.decode(value, with: table, into: &root)
    }
  }

  /// The rows of another table, reading into the part of the root at `path` (the metadata fields a
  /// diagnostic shares with a metric payload).
  static func lifting<Part>(_ rows: [FieldTable<Part>.Field], at path: WritableKeyPath<Root, Part>) -> [Self] {
    rows.map { row in
      Self(keys: row.keys) { (value, context, root) throws(PayloadDecodingError) in
        try row.read(value, &context, &root[keyPath: path])
      }
    }
  }

  /// An array of objects, each decoded with `table`, then checked and finished by `finish`.
  static func array<Element, Draft>(
    _ keys: StaticString..., of table: FieldTable<Draft>,
    finish: @escaping (Draft) throws(PayloadDecodingError) -> Element,
    set: @escaping (inout Root, [Element]) -> Void
  ) -> Self {
    Self(keys: keys) { (value, context, root) throws(PayloadDecodingError) in
      guard value.kind == .array else { throw context.failure("expected an array, found \(value.kindName)") }
      var elements: [Element] = []
      elements.reserveCapacity(value.count)
      for (i, element) in value.children.enumerated() {
        do throws(PayloadDecodingError) {
          elements.append(try finish(try context.decode(element, with: table)))
        } catch {
          throw error.nested(under: String(i))
        }
      }
      set(&root, elements)
    }
  }

  /// An array of objects, each decoded with `table` and kept as decoded.
  static func array<Element>(
    _ keys: StaticString..., of table: FieldTable<Element>, set: @escaping (inout Root, [Element]) -> Void
  ) -> Self {
    Self(keys: keys, read: array(of: table, finish: { $0 }, set: set).read)
  }

  /// Anything else: a reader written out.
  static func custom(_ keys: StaticString..., read: @escaping FieldTable.Read) -> Self {
    Self(keys: keys, read: read)
  }
}
