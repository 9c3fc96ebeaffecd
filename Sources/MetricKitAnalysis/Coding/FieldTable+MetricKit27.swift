import Foundation

// The kinds of row that read MetricKit 27's values (``DecodingContext`` `…Object` readers). They are
// read-only: the library writes MetricKit's legacy JSON, never the 27 form.
extension FieldTable.Field {
  /// A duration measurement object, in seconds.
  static func secondsObject(
    _ keys: StaticString..., at path: WritableKeyPath<Root, Measurement<UnitDuration>?>
  ) -> Self {
    at(
      keys, path, read: { (value, context) throws(PayloadDecodingError) in try context.secondsObject(value) },
      write: nil)
  }

  /// An amount of data as a measurement object, in megabytes.
  static func megabytesObject(
    _ keys: StaticString..., at path: WritableKeyPath<Root, Measurement<UnitInformationStorage>?>
  ) -> Self {
    at(
      keys, path, read: { (value, context) throws(PayloadDecodingError) in try context.megabytesObject(value) },
      write: nil)
  }

  /// A measurement object of `kind` in its base unit, expressed in `unit`.
  static func measurementObject<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, at path: WritableKeyPath<Root, Measurement<U>?>
  ) -> Self {
    at(
      keys, path,
      read: { (value, context) throws(PayloadDecodingError) in
        Measurement(value: try context.measurementObject(value, kind), unit: unit)
      }, write: nil)
  }

  /// A whole number of `unit` written as a bare JSON number (`cpuInstructionsCount`), or as a
  /// measurement object.
  static func countObject<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, at path: WritableKeyPath<Root, Measurement<U>?>
  ) -> Self {
    at(
      keys, path,
      read: { (value, context) throws(PayloadDecodingError) in
        let n = value.kind == .object ? try context.measurementObject(value, kind) : Double(try context.count(value))
        return Measurement(value: n, unit: unit)
      }, write: nil)
  }

  /// A `Histogram<D>` whose edges are measurement objects of `kind`, in `unit`.
  static func histogramObject<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, at path: WritableKeyPath<Root, Histogram<U>?>
  ) -> Self {
    at(
      keys, path,
      read: { (value, context) throws(PayloadDecodingError) in
        try context.histogramObject(value, kind: kind, unit: unit)
      }, write: nil)
  }

  /// An `AverageStatistics<D>`, stored divided by `divisor`.
  static func averageObject<U: Dimension>(
    _ keys: StaticString..., kind: MeasurementUnit.Kind, unit: U, divisor: Double,
    at path: WritableKeyPath<Root, AverageMeasurement<U>?>
  ) -> Self {
    at(
      keys, path,
      read: { (value, context) throws(PayloadDecodingError) in
        try context.averageObject(value, kind: kind, unit: unit, divisor: divisor)
      }, write: nil)
  }

  /// A date (`JSONEncoder`'s forms).
  static func date(_ keys: StaticString..., at path: WritableKeyPath<Root, Date?>) -> Self {
    at(keys, path, read: { (value, context) throws(PayloadDecodingError) in try context.date(value) }, write: nil)
  }

  /// A key that is known and carries nothing the analysis uses (so it is not listed as unknown).
  static func known(_ keys: StaticString...) -> Self {
    Self(keys: keys, read: { (_, _, _) throws(PayloadDecodingError) in }, write: nil)
  }

  /// One case of an enumeration MetricKit writes as a one-member object named after the case
  /// (`{"cpuTimeMetric": {…}}`): the case's struct read with `table` into the root itself. Swift's
  /// synthesized form for a case with an unnamed value (`{"cpuTime": {"_0": {…}}}`) reads the same.
  static func enumCase(_ keys: StaticString..., with table: FieldTable<Root>) -> Self {
    Self(
      keys: keys,
      read: { (value, context, root) throws(PayloadDecodingError) in
        try context.decode(enumCase: value, with: table, into: &root)
      }, write: nil)
  }
}
