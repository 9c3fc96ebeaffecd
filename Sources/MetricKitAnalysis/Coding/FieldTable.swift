import Foundation

/// How the members of one kind of JSON object reach a model value, and back: one row per MetricKit key
/// (and the other spellings MetricKit versions used), each saying how its value is read (a measurement
/// in which unit, a histogram, a nested section…), which field of `Root` it fills, and how that field
/// is written as MetricKit writes it. ``DecodingContext`` walks an object's members once, finds each
/// name in the table, and prefixes the name to the key path of any error the row throws; unknown keys
/// are counted under the table's name (``DecodingContext/unknownKeys``), `null` values count as absent. ``encode(_:)`` writes the fields that are present,
/// under each row's first key, in the table's order.
///
/// Adding a MetricKit field is one row, read and written:
/// `.seconds("cumulativeGPUTime", at: \.cumulativeGPUTime)`.
struct FieldTable<Root>: @unchecked Sendable {
  /// Reads a member's value into the root value (the row's field is captured inside).
  typealias Read = (JSONValue, inout DecodingContext, inout Root) throws(PayloadDecodingError) -> Void
  /// Writes the row's field of a root value, nil when it is absent.
  typealias Write = (Root) -> JSONWriter.Value?

  /// One row: the keys it answers to, how it reads, and how it writes (nil for a spelling that is
  /// read but never written). Rows are built once, in static tables, and never change; their
  /// closures capture only key paths, units and other tables.
  struct Field: @unchecked Sendable {
    let keys: [StaticString]
    let read: Read
    var write: Write?

    /// The same row, read but not written (a key MetricKit also accepted in another place).
    var readOnly: Self { Self(keys: keys, read: read, write: nil) }
  }

  /// The JSON object the table reads, as unknown keys are named (`cpuMetrics`, `signpostMetrics[]`; ""
  /// for a document's top level).
  let name: String
  /// The value decoding starts from (an empty section).
  let empty: Root
  private let keys: KeySet
  /// The row of each key of `keys`.
  private let rows: [Row]
  /// The written rows, in the table's order, each under its first key.
  private let writers: [(key: String, write: Write)]

  /// A table named `name` of `fields`, filling a copy of `empty`.
  init(_ name: String, empty: Root, _ fields: [Field]) {
    self.name = name
    self.empty = empty
    keys = KeySet(fields.flatMap(\.keys))
    rows = fields.flatMap { field in
      let row = Row(field.read)
      return field.keys.map { _ in row }
    }
    writers = fields.compactMap { field in field.write.map { (field.keys[0].description, $0) } }
  }

  /// How an unknown member is named: the table's name and the member's key.
  func unknownKeyName(_ member: JSONValue) -> String { name.isEmpty ? member.key : "\(name).\(member.key)" }

  /// The row for a member's name, nil when the table has none.
  @inline(__always)
  func row(for member: JSONValue) -> Int? {
    keys.index(of: member)
  }

  /// Reads `member` into `root` with `row`, found by ``row(for:)``.
  ///
  /// The row is called through an unretained reference, which the table keeps alive as long as it
  /// lives: a closure taken out of an array is retained and released around its call, an atomic
  /// operation each, for every member of every payload.
  @inline(__always)
  func read(
    _ member: JSONValue, row: Int, _ context: inout DecodingContext, into root: inout Root
  ) throws(PayloadDecodingError) {
    var failure: PayloadDecodingError?
    Unmanaged.passUnretained(rows[row])._withUnsafeGuaranteedRef { row in
      do throws(PayloadDecodingError) { try row.read(member, &context, &root) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  /// A row's reader, held by reference so that ``read(_:row:_:into:)`` can call it unretained.
  private final class Row {
    let read: Read
    init(_ read: @escaping Read) { self.read = read }
  }

  /// `root` as a JSON object of its present fields.
  func encode(_ root: Root) -> JSONWriter.Value {
    .object(members(of: root))
  }

  /// The present fields of `root`, keyed as MetricKit writes them.
  func members(of root: Root) -> [(String, JSONWriter.Value)] {
    writers.compactMap { key, write in write(root).map { (key, $0) } }
  }
}

// The kinds of row. Each takes the keys, then the key path of the field it reads and writes.
extension FieldTable.Field {
  /// A row reading with `read` into the field at `path` (nil reads as absent), writing a present value
  /// with `write` (nil for a row that is read only). Each member it reads makes two calls through
  /// closures, the row's and `read`: the kinds of row MetricKit 27 reports use it, the legacy payload's
  /// kinds store their value themselves (``stored(_:_:write:reading:)``).
  static func at<Value>(
    _ keys: [StaticString], _ path: WritableKeyPath<Root, Value?>,
    read: @escaping (JSONValue, inout DecodingContext) throws(PayloadDecodingError) -> Value?,
    write: ((Value) -> JSONWriter.Value)?
  ) -> Self {
    stored(keys, path, write: write) { slot in
      { (value, context, root) throws(PayloadDecodingError) in slot.set(try read(value, &context), in: &root) }
    }
  }

  /// A row whose read stores into the field at `path` itself, through the ``FieldSlot`` of `path` that
  /// `reading` is given as the row is made, writing a present value with `write` (nil for a row that
  /// is read only). One closure a member: decoding a payload calls a row for each of its hundred-odd
  /// members, and a reading closure called from the row's doubled the calls and the code they run
  /// (`Docs/performance.md` measures both).
  private static func stored<Value>(
    _ keys: [StaticString], _ path: WritableKeyPath<Root, Value?>, write: ((Value) -> JSONWriter.Value)?,
    reading: (FieldSlot<Root, Value?>) -> FieldTable.Read
  ) -> Self {
    Self(
      keys: keys, read: reading(FieldSlot(path)),
      write: write.map { write in { root in root[keyPath: path].map(write) } })
  }

  /// A string.
  static func string(_ keys: StaticString..., at path: WritableKeyPath<Root, String?>) -> Self {
    stored(keys, path, write: JSONWriter.Value.string) { slot in
      { (value, context, root) throws(PayloadDecodingError) in slot.set(try context.string(value), in: &root) }
    }
  }

  /// A boolean, also from the strings and numbers collectors write.
  static func flag(_ keys: StaticString..., at path: WritableKeyPath<Root, Bool?>) -> Self {
    stored(keys, path, write: JSONWriter.Value.bool) { slot in
      { (value, context, root) throws(PayloadDecodingError) in slot.set(try context.flag(value), in: &root) }
    }
  }

  /// A non-negative integer.
  static func count(_ keys: StaticString..., at path: WritableKeyPath<Root, Int?>) -> Self {
    stored(
      keys, path, write: { .integer(Int128($0)) },
      reading: { slot in
        { (value, context, root) throws(PayloadDecodingError) in slot.set(try context.count(value), in: &root) }
      })
  }

  /// A whole number written as a JSON number (exception codes can be large and unsigned).
  static func wholeNumber(_ keys: StaticString..., at path: WritableKeyPath<Root, Int?>) -> Self {
    stored(
      keys, path, write: { .integer(Int128($0)) },
      reading: { slot in
        { (value, context, root) throws(PayloadDecodingError) in slot.set(try context.wholeNumber(value), in: &root) }
      })
  }

  /// A string kept as found: a value of another type reads as absent (`signpostData` records).
  static func lenientString(_ keys: StaticString..., at path: WritableKeyPath<Root, String?>) -> Self {
    stored(keys, path, write: JSONWriter.Value.string) { slot in
      { (value, _, root) in slot.set(value.string, in: &root) }
    }
  }

  /// A boolean kept as found: a value of another type reads as absent.
  static func lenientFlag(_ keys: StaticString..., at path: WritableKeyPath<Root, Bool?>) -> Self {
    stored(keys, path, write: JSONWriter.Value.bool) { slot in
      { (value, _, root) in slot.set(value.bool, in: &root) }
    }
  }

  /// A timestamp, written in UTC: with its zone, or zone-less when the root says its zone was assumed.
  static func timestamp(
    _ keys: StaticString..., at path: WritableKeyPath<Root, Date?>, zoneAssumed: KeyPath<Root, Bool>? = nil
  ) -> Self {
    let slot = FieldSlot(path)
    return Self(
      keys: keys,
      read: { (value, context, root) throws(PayloadDecodingError) in slot.set(try context.timestamp(value), in: &root)
      },
      write: { root in
        root[keyPath: path].map {
          MetricPayloadEncoder.timestamp($0, zone: !(zoneAssumed.map { root[keyPath: $0] } ?? false))
        }
      })
  }

  /// A duration measurement, in seconds.
  static func seconds(_ keys: StaticString..., at path: WritableKeyPath<Root, Measurement<UnitDuration>?>) -> Self {
    stored(keys, path, write: MetricPayloadEncoder.measurement) { slot in
      { (value, context, root) throws(PayloadDecodingError) in slot.set(try context.seconds(value), in: &root) }
    }
  }

  /// An amount of data, in megabytes.
  static func megabytes(
    _ keys: StaticString..., at path: WritableKeyPath<Root, Measurement<UnitInformationStorage>?>
  ) -> Self {
    stored(keys, path, write: MetricPayloadEncoder.measurement) { slot in
      { (value, context, root) throws(PayloadDecodingError) in slot.set(try context.megabytes(value), in: &root) }
    }
  }

  /// A measurement of `kind` in its base unit, expressed in `unit`.
  static func measurement<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, at path: WritableKeyPath<Root, Measurement<U>?>
  ) -> Self {
    stored(keys, path, write: MetricPayloadEncoder.measurement) { slot in
      { (value, context, root) throws(PayloadDecodingError) in
        slot.set(Measurement(value: try context.measurement(value, kind), unit: unit), in: &root)
      }
    }
  }

  /// A histogram whose bucket edges are measurements of `kind`, in `unit`.
  static func histogram<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, at path: WritableKeyPath<Root, Histogram<U>?>
  ) -> Self {
    stored(keys, path, write: MetricPayloadEncoder.histogram) { slot in
      { (value, context, root) throws(PayloadDecodingError) in
        slot.set(try context.histogram(value, kind: kind, unit: unit), in: &root)
      }
    }
  }

  /// An average with its standard deviation and sample count, stored divided by `divisor`.
  static func average<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, divisor: Double,
    at path: WritableKeyPath<Root, AverageMeasurement<U>?>
  ) -> Self {
    stored(
      keys, path, write: { MetricPayloadEncoder.average($0, divisor: divisor) },
      reading: { slot in
        { (value, context, root) throws(PayloadDecodingError) in
          slot.set(try context.average(value, kind: kind, unit: unit, divisor: divisor), in: &root)
        }
      })
  }

  /// A nested object, decoded and encoded with its own table.
  static func section<Section>(
    _ keys: StaticString..., with table: FieldTable<Section>, at path: WritableKeyPath<Root, Section?>
  ) -> Self {
    stored(keys, path, write: table.encode) { slot in
      { (value, context, root) throws(PayloadDecodingError) in
        slot.set(try context.decode(value, with: table), in: &root)
      }
    }
  }

  /// A nested object whose members are fields of the root itself (`diagnosticMetaData`).
  static func inline(_ keys: StaticString..., with table: FieldTable<Root>) -> Self {
    Self(
      keys: keys,
      read: { (value, context, root) throws(PayloadDecodingError) in
        try context.decode(value, with: table, into: &root)
      }, write: table.encode)
  }

  /// The rows of another table, reading into and writing from the part of the root at `path` (the
  /// metadata fields a diagnostic shares with a metric payload).
  static func lifting<Part>(_ rows: [FieldTable<Part>.Field], at path: WritableKeyPath<Root, Part>) -> [Self] {
    rows.map { row in
      Self(
        keys: row.keys,
        read: { (value, context, root) throws(PayloadDecodingError) in
          try row.read(value, &context, &root[keyPath: path])
        }, write: row.write.map { write in { root in write(root[keyPath: path]) } })
    }
  }

  /// An array of objects, each decoded with `table`, then checked and finished by `finish`; written
  /// back through `draft`, the inverse of `finish`. An empty array is not written.
  static func array<Element, Draft>(
    _ keys: StaticString..., of table: FieldTable<Draft>,
    finish: @escaping (consuming Draft) throws(PayloadDecodingError) -> Element, draft: @escaping (Element) -> Draft,
    at path: WritableKeyPath<Root, [Element]>
  ) -> Self {
    array(keys, of: table, finish: finish, draft: draft, at: path)
  }

  /// An array of objects, each decoded with `table` and kept as decoded.
  static func array<Element>(
    _ keys: StaticString..., of table: FieldTable<Element>, at path: WritableKeyPath<Root, [Element]>
  ) -> Self {
    array(keys, of: table, finish: { $0 }, draft: { $0 }, at: path)
  }

  private static func array<Element, Draft>(
    _ keys: [StaticString], of table: FieldTable<Draft>,
    finish: @escaping (consuming Draft) throws(PayloadDecodingError) -> Element, draft: @escaping (Element) -> Draft,
    at path: WritableKeyPath<Root, [Element]>
  ) -> Self {
    let slot = FieldSlot(path)
    return Self(
      keys: keys,
      read: { (value, context, root) throws(PayloadDecodingError) in
        slot.set(try context.array(value, of: table, finish: finish), in: &root)
      },
      write: { root in
        let elements = root[keyPath: path]
        return elements.isEmpty ? nil : .array(elements.map { table.encode(draft($0)) })
      })
  }

  /// Anything else: a reader and a writer written out.
  static func custom(_ keys: StaticString..., read: @escaping FieldTable.Read, write: FieldTable.Write?) -> Self {
    Self(keys: keys, read: read, write: write)
  }
}

extension DecodingContext {
  /// An array of objects, each decoded with `table` and finished by `finish`; an element's error is
  /// prefixed with its index.
  mutating func array<Element, Draft>(
    _ value: JSONValue, of table: FieldTable<Draft>, finish: (consuming Draft) throws(PayloadDecodingError) -> Element
  ) throws(PayloadDecodingError) -> [Element] {
    guard value.kind == .array else { throw failure("expected an array, found \(value.kindName)") }
    var elements: [Element] = []
    elements.reserveCapacity(value.count)
    for (i, element) in value.children.enumerated() {
      do throws(PayloadDecodingError) {
        // Filled in place and moved on to `finish` (a draft returned by `decode` was copied once more).
        var draft = table.empty
        try decode(element, with: table, into: &draft)
        elements.append(try finish(consume draft))
      } catch {
        throw error.nested(under: String(i))
      }
    }
    return elements
  }
}
