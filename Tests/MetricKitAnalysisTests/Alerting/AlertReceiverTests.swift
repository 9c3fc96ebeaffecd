import Alerting
import Foundation
import Testing

@testable import MetricKitAnalysis

/// The alert receivers' settings and the state file: secrets never in clear to another machine nor in
/// a message, a state file that cannot be read named with the key that is wrong.
@Suite("Alert receivers")
struct AlertReceiverTests {
  @Test func aReceiversLabelNeverShowsTheURLsPath() {
    let slack = AlertReceiver.slack(url: "https://hooks.slack.com/services/T000/B000/SECRETSECRET")
    #expect(slack.label == "slack (https://hooks.slack.com)")
    #expect(!slack.label.contains("SECRET"))
    #expect(AlertReceiver.alertmanager(url: "http://127.0.0.1:9093/").label == "alertmanager (http://127.0.0.1:9093)")
  }

  @Test func aSecretIsRefusedInClearToAnotherMachine() throws {
    #expect(throws: AlertError.self) {
      try AlertReceiver.pagerDuty(url: "http://events.example.com", routingKey: "key").validate()
    }
    #expect(throws: AlertError.self) {
      try AlertReceiver.github(api: "http://api.example.com", repository: "o/r", sha: "abc", token: "t").validate()
    }
    try AlertReceiver.pagerDuty(url: "http://127.0.0.1:8080", routingKey: "key").validate()
    // Alertmanager carries no secret: in clear inside a cluster is its usual setting.
    try AlertReceiver.alertmanager(url: "http://alertmanager.monitoring:9093").validate()
    #expect(throws: AlertError.self) { try AlertReceiver.webhook(url: "ftp://example.com/hook").validate() }
    #expect(throws: AlertError.self) {
      try AlertReceiver.github(api: "https://api.github.com", repository: "no-slash", sha: "abc", token: "t").validate()
    }
    #expect(throws: AlertError.self) {
      try AlertReceiver.github(api: "https://api.github.com", repository: "o/r", sha: "not hex", token: "t").validate()
    }
  }

  @Test func aBrokenStateFileIsNamedWithItsKey() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mr-state-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let path = dir.appendingPathComponent("watch-state.json").path
    // Absent: empty.
    #expect(try AlertState.load(path).firing.isEmpty)
    for (text, expected) in [
      ("{\"format\": 1, \"firing\": {\"slack\": {\"k\": {\"key\": 3}}}}", "firing.slack.k.key"),
      ("{\"format\": 2, \"firing\": {}}", "format 2"),
      ("not json", "the document"),
      ("{\"firing\": {}}", "format: missing"),
    ] {
      try Data(text.utf8).write(to: URL(fileURLWithPath: path))
      do {
        _ = try AlertState.load(path)
        Issue.record("\(text) was read")
      } catch {
        #expect(error.description.hasPrefix(path), "\(error)")
        #expect(error.description.contains(expected), "\(error)")
      }
    }
    // A state written is read back as it was.
    var state = AlertState()
    state.firing["webhook"] = [:]
    try state.save(path)
    #expect(try AlertState.load(path) == state)
  }
}
