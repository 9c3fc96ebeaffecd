// On a device, `import MetricKit` brings Foundation along (`Measurement`, `UnitDuration`, `Data`,
// `Date`…), and code written against MetricKit uses them without importing Foundation itself. This
// library does the same, so that such code compiles here with only its import changed.
@_exported import Foundation
