import Foundation
import MetricKitAnalysis

/// Sends the changes of a night to the receivers: each change once (Alertmanager: at every run while
/// it fires), each resolved once — when it reverted or is no longer found. A version's or group's
/// change that is part of a whole-app change is that change's alert, not one of its own. A receiver that refuses
/// keeps what it was not told for the next run; the others are told all the same.
public struct AlertDispatcher: Sendable {
  /// The receivers.
  public var receivers: [AlertReceiver]
  /// How requests are sent.
  public var transport = AlertTransport()
  /// A new change is alerted only when its first day is within this many days of the data's latest
  /// (older ones are history, not news).
  public var recentDays = 14
  /// How long a firing alert stays active in Alertmanager without another run.
  public var activeFor: TimeInterval = 2 * 86_400
  /// A link to the report page, when one is published.
  public var link: String?

  /// Creates a dispatcher.
  public init(receivers: [AlertReceiver]) { self.receivers = receivers }

  /// What one run sent.
  public struct Outcome: Sendable {
    /// Per receiver name, the keys sent firing and resolved.
    public var fired: [String: [String]] = [:]
    public var resolved: [String: [String]] = [:]
    /// The receivers that refused, and why.
    public var failures: [AlertError] = []
  }

  /// Sends what `changes` (found on data whose latest day is `latestDay`) mean for `state`, and
  /// updates it with what was delivered.
  public func dispatch(
    _ changes: [DetectedChange], latestDay: CalendarDay?, app: String, state: inout AlertState, now: Date = Date()
  ) -> Outcome {
    var outcome = Outcome()
    let current = Dictionary(
      changes.filter { $0.revertedOn == nil && $0.reverts == nil && $0.partOf == nil }.map {
        ($0.key, AlertRecord($0, app: app))
      },
      uniquingKeysWith: { a, _ in a })
    let recent = Set(
      changes.filter { change in
        latestDay.map { change.date.daysSinceEpoch > $0.daysSinceEpoch - recentDays } ?? true
      }.map(\.key))
    for receiver in receivers {
      let held = state.firing[receiver.name] ?? [:]
      let new = current.filter { held[$0.key] == nil && recent.contains($0.key) && receiver.takes($0.value) }
      let still = receiver.refreshesFiring ? current.filter { held[$0.key] != nil } : [:]
      let over = held.filter { current[$0.key] == nil }
      let firing = (new.values.sorted { $0.key < $1.key } + still.values.sorted { $0.key < $1.key }).map {
        AlertEvent(record: $0, resolved: false, now: now, activeFor: activeFor, link: link)
      }
      let resolving = over.values.sorted { $0.key < $1.key }.map {
        AlertEvent(record: $0, resolved: true, now: now, activeFor: activeFor, link: link)
      }
      let events = firing + resolving
      guard !events.isEmpty else { continue }
      // Alertmanager takes one request for all; the others one request per event, each recorded as
      // it is delivered.
      let requests = receiver.requests(events)
      let groups: [[AlertEvent]] = requests.count == events.count ? events.map { [$0] } : [events]
      for (request, delivered) in zip(requests, groups) {
        do {
          _ = try transport.post(request.url, headers: request.headers, body: request.body, receiver: receiver.label)
        } catch {
          outcome.failures.append(error)
          break
        }
        for event in delivered {
          if event.resolved {
            state.firing[receiver.name]?[event.record.key] = nil
            outcome.resolved[receiver.name, default: []].append(event.record.key)
          } else {
            let known = held[event.record.key] != nil
            state.firing[receiver.name, default: [:]][event.record.key] = event.record
            if !known { outcome.fired[receiver.name, default: []].append(event.record.key) }
          }
        }
      }
    }
    return outcome
  }
}
