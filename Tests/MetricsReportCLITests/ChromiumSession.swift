import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `close(2)`, by a name a type with its own `close()` can call.
private func closeDescriptor(_ fd: Int32) { _ = close(fd) }

/// A headless Chromium driven through the DevTools protocol over a pipe (`--remote-debugging-pipe`:
/// JSON messages separated by NUL bytes, on the browser's file descriptors 3 and 4), so the tests need
/// no WebSocket client and no port. One page, attached in flat mode; events are kept for inspection.
/// The browser is always stopped by `close()` (call it in a `defer`).
final class ChromiumSession {
  enum Failure: Error, CustomStringConvertible {
    case spawn(Int32)
    case timeout(String)
    case closed
    case protocolError(String)

    var description: String {
      switch self {
      case .spawn(let code): "cannot start chromium (posix_spawn: \(code))"
      case .timeout(let what): "timed out waiting for \(what)"
      case .closed: "chromium closed the pipe"
      case .protocolError(let message): "DevTools error: \(message)"
      }
    }
  }

  /// The browser executable: `$CHROMIUM`, else `chromium`, `chromium-browser`, `google-chrome` on the
  /// path; nil when none is installed.
  static var executable: String? {
    if let path = ProcessInfo.processInfo.environment["CHROMIUM"], FileManager.default.isExecutableFile(atPath: path) {
      return path
    }
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    for name in ["chromium", "chromium-browser", "google-chrome"] {
      for directory in directories where FileManager.default.isExecutableFile(atPath: "\(directory)/\(name)") {
        return "\(directory)/\(name)"
      }
    }
    return nil
  }

  private let pid: pid_t
  private let toBrowser: Int32
  private let fromBrowser: Int32
  private let profile: URL
  private var buffer: [UInt8] = []
  private var nextID = 1
  private var sessionID: String?
  private var closed = false
  /// Every event received: method and params.
  private(set) var events: [(method: String, params: [String: Any])] = []

  /// Starts the browser with a fresh profile and opens one blank page.
  init(executable: String, width: Int = 1280, height: Int = 2000) throws {
    profile = FileManager.default.temporaryDirectory.appendingPathComponent("mr-chromium-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
    var input: [Int32] = [0, 0]
    var output: [Int32] = [0, 0]
    guard pipe(&input) == 0, pipe(&output) == 0 else { throw Failure.spawn(errno) }
    let arguments = [
      executable, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe", "--no-first-run",
      "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
      "--disable-component-update", "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)",
      "about:blank",
    ]
    #if canImport(Glibc)
      var actions = posix_spawn_file_actions_t()
    #else
      var actions: posix_spawn_file_actions_t?
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, input[0], 3)
    posix_spawn_file_actions_adddup2(&actions, output[1], 4)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var child: pid_t = 0
    let argv = arguments.map { strdup($0) } + [nil]
    defer { for p in argv { free(p) } }
    let status = posix_spawn(&child, executable, &actions, nil, argv, environ)
    closeDescriptor(input[0])
    closeDescriptor(output[1])
    guard status == 0 else {
      closeDescriptor(input[1])
      closeDescriptor(output[0])
      throw Failure.spawn(status)
    }
    pid = child
    toBrowser = input[1]
    fromBrowser = output[0]
    do {
      let target = try send("Target.createTarget", ["url": "about:blank"], inSession: false)
      guard let targetID = target["targetId"] as? String else { throw Failure.protocolError("no targetId") }
      let attached = try send("Target.attachToTarget", ["targetId": targetID, "flatten": true], inSession: false)
      sessionID = attached["sessionId"] as? String
      for domain in ["Page", "Runtime", "Network", "Log"] { _ = try send("\(domain).enable") }
    } catch {
      close()
      throw error
    }
  }

  deinit { close() }

  /// Stops the browser (politely, then by signal) and removes its profile.
  func close() {
    guard !closed else { return }
    closed = true
    _ = try? send("Browser.close", inSession: false, timeout: 5)
    closeDescriptor(toBrowser)
    closeDescriptor(fromBrowser)
    var status: Int32 = 0
    for _ in 0..<50 {
      if waitpid(pid, &status, WNOHANG) == pid { break }
      usleep(100_000)
    }
    if kill(pid, 0) == 0 {
      kill(pid, SIGKILL)
      waitpid(pid, &status, 0)
    }
    try? FileManager.default.removeItem(at: profile)
  }

  /// Sends a command and waits for its result; events that arrive meanwhile are kept.
  @discardableResult
  func send(_ method: String, _ params: [String: Any] = [:], inSession: Bool = true, timeout: Double = 30) throws
    -> [String: Any]
  {
    let id = nextID
    nextID += 1
    var message: [String: Any] = ["id": id, "method": method, "params": params]
    if inSession, let sessionID { message["sessionId"] = sessionID }
    var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
    bytes.append(0)
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeBytes { write(toBrowser, $0.baseAddress! + offset, bytes.count - offset) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw Failure.closed }
      offset += n
    }
    let deadline = Date().addingTimeInterval(timeout)
    while true {
      let reply = try readMessage(until: deadline, what: method)
      if let replyID = reply["id"] as? Int, replyID == id {
        if let error = reply["error"] as? [String: Any] {
          throw Failure.protocolError("\(method): \(error["message"] ?? error)")
        }
        return reply["result"] as? [String: Any] ?? [:]
      }
      if let event = reply["method"] as? String { events.append((event, reply["params"] as? [String: Any] ?? [:])) }
    }
  }

  private func readMessage(until deadline: Date, what: String) throws -> [String: Any] {
    while true {
      if let end = buffer.firstIndex(of: 0) {
        let message = Data(buffer[..<end])
        buffer.removeSubrange(...end)
        return try JSONSerialization.jsonObject(with: message) as? [String: Any] ?? [:]
      }
      let remaining = deadline.timeIntervalSinceNow
      guard remaining > 0 else { throw Failure.timeout(what) }
      var descriptor = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(min(remaining, 1) * 1000))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else { continue }
      var chunk = [UInt8](repeating: 0, count: 1 << 16)
      let n = chunk.withUnsafeMutableBytes { read(fromBrowser, $0.baseAddress!, $0.count) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw Failure.closed }
      buffer += chunk[..<n]
    }
  }

  /// Evaluates `expression` in the page (awaiting a promise) and returns its JSON value.
  func evaluate(_ expression: String) throws -> Any? {
    let result = try send(
      "Runtime.evaluate", ["expression": expression, "returnByValue": true, "awaitPromise": true])
    if let exception = result["exceptionDetails"] as? [String: Any] {
      throw Failure.protocolError(
        "evaluate: \((exception["exception"] as? [String: Any])?["description"] ?? exception)")
    }
    return (result["result"] as? [String: Any])?["value"]
  }

  /// Polls `expression` until it is true.
  func wait(for expression: String, timeout: Double = 20) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
      if try evaluate(expression) as? Bool == true { return }
      usleep(50_000)
    }
    throw Failure.timeout(expression)
  }

  /// Navigates and waits for the page to load and, unless told otherwise, for the report's ready hook.
  func open(_ url: URL, waitForReport: Bool = true) throws {
    try send("Page.navigate", ["url": url.absoluteString])
    try wait(
      for: "document.readyState === 'complete' && location.href === \(Self.quoted(url.absoluteString))"
        + (waitForReport ? " && document.documentElement.dataset.reportReady === 'true'" : ""))
  }

  private static func quoted(_ s: String) -> String {
    let data = (try? JSONSerialization.data(withJSONObject: [s])) ?? Data("[\"\"]".utf8)
    return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
  }

  /// A real mouse event at viewport coordinates.
  func mouse(_ type: String, x: Double, y: Double, clickCount: Int = 1, modifiers: Int = 0) throws {
    var params: [String: Any] = ["type": type, "x": x, "y": y, "modifiers": modifiers]
    if type != "mouseMoved" {
      params["button"] = "left"
      params["clickCount"] = clickCount
    } else {
      params["button"] = "none"
    }
    try send("Input.dispatchMouseEvent", params)
  }

  /// A real mouse wheel turn at viewport coordinates (`modifiers`: 2 ctrl, 8 shift).
  func wheel(x: Double, y: Double, deltaX: Double = 0, deltaY: Double, modifiers: Int = 0) throws {
    try send(
      "Input.dispatchMouseEvent",
      ["type": "mouseWheel", "x": x, "y": y, "deltaX": deltaX, "deltaY": deltaY, "modifiers": modifiers])
  }

  /// A real key press and release on the focused element: `key` as the DOM names it (`ArrowLeft`,
  /// `End`, `=`), its Windows virtual key code, and the text it types, if any.
  func press(_ key: String, code: Int, text: String? = nil, modifiers: Int = 0) throws {
    var down: [String: Any] = [
      "type": text == nil ? "rawKeyDown" : "keyDown", "key": key, "windowsVirtualKeyCode": code,
      "modifiers": modifiers,
    ]
    if let text { down["text"] = text }
    try send("Input.dispatchKeyEvent", down)
    try send(
      "Input.dispatchKeyEvent", ["type": "keyUp", "key": key, "windowsVirtualKeyCode": code, "modifiers": modifiers])
  }

  /// A PNG of the whole page.
  /// The page as a PNG; with a size, only the top `width`×`height` (the first screen).
  func screenshot(width: Int? = nil, height: Int? = nil) throws -> Data {
    var params: [String: Any] = ["format": "png", "captureBeyondViewport": true]
    if let width, let height {
      params["clip"] = ["x": 0, "y": 0, "width": width, "height": height, "scale": 1]
    }
    let result = try send("Page.captureScreenshot", params)
    return Data(base64Encoded: result["data"] as? String ?? "") ?? Data()
  }
}
