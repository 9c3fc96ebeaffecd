/// Which payloads a watched series reads.
public enum WatchScope: Sendable, Hashable {
  /// The whole app: every version, standardized to one device × OS mix.
  case app
  /// One app version (standardized to its own mix).
  case version(String)
  /// One `--by` group, every version (standardized to the group's mix).
  case group(key: GroupingKey, value: String)

  /// `app`, `version` or `group`, as JSON and alert labels name it.
  public var kind: String {
    switch self {
    case .app: "app"
    case .version: "version"
    case .group: "group"
    }
  }

  /// The scope in words: `whole app`, `version 2.1`, `deviceType iPhone14,2`.
  public var description: String {
    switch self {
    case .app: "whole app"
    case .version(let v): "version \(v)"
    case .group(let key, let value): "\(key) \(value)"
    }
  }
}
