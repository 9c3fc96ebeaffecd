import Foundation

/// A saved App Store Connect response, as ``OrganizerReader`` reads it.
public struct OrganizerFile: Sendable, Hashable {
  /// The file, as given.
  public var path: String
  /// What it holds.
  public var document: Document
  /// Keys not known, by shape (`productData[].metricCategories[].metrics[].newKey`), with how many
  /// times each was seen: kept out of the numbers, counted and shown.
  public var unknownKeys: [String: Int]

  /// The kinds of response read.
  public enum Document: Sendable, Hashable {
    /// Power and performance metrics (`perfPowerMetrics`, app or build).
    case metrics(OrganizerMetrics)
    /// A page of diagnostic signatures (`diagnosticSignatures`).
    case signatures(OrganizerSignatures)
    /// Diagnostic signatures' logs (`diagnosticSignatures/{id}/logs`).
    case logs(OrganizerLogs)
  }

  /// Creates a file's reading.
  public init(path: String, document: Document, unknownKeys: [String: Int] = [:]) {
    self.path = path
    self.document = document
    self.unknownKeys = unknownKeys
  }
}

/// Reads responses saved from App Store Connect's power and performance endpoints (by
/// `metrics-report organizer fetch`, Apple's sample scripts or any client): which endpoint a file
/// came from is told by its shape.
public enum OrganizerReader {
  /// The largest response read, in bytes.
  public static let maximumFileSize = 64 << 20
  /// The deepest nesting read: log call stacks nest two levels a frame.
  static let maximumDepth = 4096

  /// Reads and decodes a saved response.
  /// - Throws: ``OrganizerError`` naming the file, the key path and the offending text.
  public static func read(path: String) throws(OrganizerError) -> OrganizerFile {
    let buffer: PaddedBuffer
    do {
      buffer = try InputFileReader(limits: InputLimits(maximumFileSize: maximumFileSize)).read(path: InputPath(path))
    } catch {
      throw OrganizerError(path: path, keyPath: [], reason: "cannot read the file (\(error.reason))")
    }
    return try decode(buffer, path: path)
  }

  /// Decodes a response held in memory (`path` names it in errors).
  public static func decode(_ bytes: [UInt8], path: String) throws(OrganizerError) -> OrganizerFile {
    let result: Result<PaddedBuffer, InputError> = bytes.withUnsafeBytes { raw in
      do throws(InputError) { return .success(try PaddedBuffer(copying: raw)) } catch { return .failure(error) }
    }
    let buffer: PaddedBuffer
    switch result {
    case .success(let b): buffer = b
    case .failure(let error):
      throw OrganizerError(path: path, keyPath: [], reason: "cannot hold \(bytes.count) bytes (\(error.reason))")
    }
    return try decode(buffer, path: path)
  }

  static func decode(_ buffer: PaddedBuffer, path: String) throws(OrganizerError) -> OrganizerFile {
    guard let parser = JSONParser(maximumDepth: maximumDepth) else {
      throw OrganizerError(path: path, keyPath: [], reason: "out of memory")
    }
    var decoder = OrganizerDecoder()
    let document: OrganizerFile.Document
    do throws(PayloadDecodingError) {
      document = try parser.parse(buffer.bytes) {
        (root: JSONValue) throws(PayloadDecodingError) -> OrganizerFile.Document in
        do throws(OrganizerDecoder.Failure) {
          return try decoder.document(root)
        } catch {
          throw PayloadDecodingError(keyPath: error.keyPath, reason: error.reason)
        }
      }
    } catch {
      throw OrganizerError(path: path, keyPath: error.keyPath, reason: error.reason)
    }
    return OrganizerFile(path: path, document: document, unknownKeys: decoder.unknownKeys)
  }
}
