import Foundation
import TestSupport
import Testing

/// `organizer fetch` against a local HTTPS stand-in for App Store Connect that verifies every token
/// with PyJWT: responses written unchanged, pages followed, 429 and 5xx retried, 401 refused at once,
/// an untrusted certificate refused, and neither the key nor a token ever printed.
@Suite("Organizer fetch", .serialized)
struct OrganizerFetchTests {
  static let keyID = "TESTKEY001"
  static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
  static let build = "1a254ec1-8e3d-48e7-bbd6-6b9a30072b29"

  /// The App Store Connect stand-in.
  static func server(python: String) throws -> StandInServer {
    try StandInServer(
      python: python, script: "Tests/Fixtures/Organizer/app-store-connect-server.py",
      name: "the App Store Connect stand-in"
    ) { state in
      [
        "--fixtures", TestDirectories.packageRoot.appendingPathComponent("Tests/Fixtures/Organizer").path,
        "--state", state.path, "--key-id", OrganizerFetchTests.keyID, "--issuer", OrganizerFetchTests.issuer,
      ]
    }
  }

  /// The virtual environment's Python with PyJWT and cryptography, or nil with a notice.
  static func python() throws -> String? {
    let path = TestDirectories.packageRoot.appendingPathComponent(".build/venv/bin/python").path
    guard FileManager.default.isExecutableFile(atPath: path),
      try CLIRunner.program(path, ["-c", "import jwt, cryptography"]).status == 0
    else {
      print("skipped: .build/venv with PyJWT is missing (Scripts/bootstrap.sh --test creates it)")
      return nil
    }
    return path
  }

  func fetch(_ server: StandInServer, appID: String = "1613097210", _ extra: [String], output: URL) throws
    -> CLIRunner.Result
  {
    try CLIRunner.run(
      [
        "organizer", "fetch", "--app-id", appID, "--key-id", Self.keyID, "--issuer-id", Self.issuer,
        "--private-key", server.keyFile, "-o", output.path, "--base-url", server.base, "--retry-pause", "0",
      ] + extra)
  }

  /// What a run must never print: the key's lines and every token the server saw.
  func expectNoSecrets(_ result: CLIRunner.Result, _ server: StandInServer) throws {
    let printed = result.stdout + result.stderr
    let key = try String(contentsOfFile: server.keyFile, encoding: .utf8)
    for line in key.split(separator: "\n") where !line.hasPrefix("-----") {
      #expect(!printed.contains(line), "the private key was printed")
    }
    for request in try server.requests() {
      let token = request["token"] as? String ?? ""
      #expect(token.isEmpty || !printed.contains(token), "a token was printed")
    }
  }

  @Test func fetchesEveryEndpointUnchangedWithVerifiedTokens() throws {
    guard let python = try Self.python() else { return }
    let server = try Self.server(python: python)
    defer { server.stop() }
    try withTemporaryDirectory { output in

      let result = try fetch(
        server,
        ["--build", Self.build, "--logs", "1", "--ca-file", server.certificate, "--device-type", "all_iphones"],
        output: output)
      #expect(result.status == 0, "\(result.stderr)")
      try expectNoSecrets(result, server)

      let requests = try server.requests()
      // Every request carried a token PyJWT verified (ES256, kid, iss, aud, at most 20 minutes) and
      // the xcode-metrics media type.
      #expect(requests.allSatisfy { $0["verified"] as? Bool == true }, "\(requests.map { $0["reason"] ?? "" })")
      let statuses = requests.map { "\($0["path"] ?? "") \($0["status"] ?? "")" }
      #expect(
        statuses == [
          "/v1/apps/1613097210/perfPowerMetrics 429", "/v1/apps/1613097210/perfPowerMetrics 200",
          "/v1/builds/\(Self.build)/perfPowerMetrics 503", "/v1/builds/\(Self.build)/perfPowerMetrics 200",
          "/v1/builds/\(Self.build)/diagnosticSignatures 200",
          "/v1/diagnosticSignatures/35fd8da9ea3dd8d2a64cb3d458fa59b2b41e66115f7ca5fa34df25a9419c5216dd/logs 200",
          "/v1/diagnosticSignatures/351c486f96912d7520ef0ceea8efe19aca98f41e3b111a77e64f6923d6eba0e2c7/logs 200",
          "/v1/builds/\(Self.build)/diagnosticSignatures 200",
        ])
      #expect((requests[0]["query"] as? String)?.contains("filter%5BdeviceType%5D=all_iphones") == true)
      #expect((requests[7]["query"] as? String)?.contains("cursor=2") == true)
      #expect((requests[5]["query"] as? String) == "limit=1")

      // Each file holds exactly the bytes served with 200.
      let served = Set(requests.filter { $0["status"] as? Int == 200 }.compactMap { $0["sha256"] as? String })
      let files = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
      #expect(files.count == 6)
      var written: Set<String> = []
      for name in files {
        let data = try Data(contentsOf: output.appendingPathComponent(name))
        written.insert(try Self.sha256(data, python: python))
      }
      #expect(written.isSubset(of: served) && served.isSubset(of: written))
      #expect(files.contains("app-1613097210-perfPowerMetrics.json"))
      #expect(files.contains("build-\(Self.build)-diagnosticSignatures-2.json"))

      // What was fetched reads back, as Apple's numbers beside a dump and on its own.
      let show = try CLIRunner.run(["organizer", "show", output.path])
      #expect(show.status == 0, "\(show.stderr)")
      #expect(show.stdout.contains("2 of 4 diagnostic signatures; more on the next page"))
      #expect(show.stdout.contains("blamed: -[ResultSet nextWithError:]"))
    }
  }

  @Test func refusalsAndFailuresAreClearErrors() throws {
    guard let python = try Self.python() else { return }
    let server = try Self.server(python: python)
    defer { server.stop() }
    try withTemporaryDirectory { output in

      // A server whose certificate is not trusted gets no request at all.
      let untrusted = try fetch(server, [], output: output)
      #expect(untrusted.status == 2)
      #expect(untrusted.stderr.lowercased().contains("certificate"), "\(untrusted.stderr)")
      #expect(try server.requests().isEmpty)

      // 401: at once, with Apple's words, no retry.
      let refused = try fetch(server, appID: "999", ["--ca-file", server.certificate], output: output)
      #expect(refused.status == 2)
      #expect(refused.stderr.contains("HTTP 401 (unauthorized"), "\(refused.stderr)")
      #expect(refused.stderr.contains("NOT_AUTHORIZED: The API key in use does not allow this request"))
      #expect(try server.requests().count == 1)

      // 500: retried, then an error.
      let failing = try fetch(
        server, appID: "500", ["--ca-file", server.certificate, "--attempts", "3"], output: output)
      #expect(failing.status == 2)
      #expect(failing.stderr.contains("HTTP 500 (server error; retried)"))
      #expect(failing.stderr.contains("attempt 3 of 3"))
      #expect(try server.requests().count == 4)
      try expectNoSecrets(failing, server)
      #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).isEmpty)

      // A key file that holds no key is named, and its text is not.
      let bad = output.appendingPathComponent("AuthKey_BAD.p8")
      try Data("-----BEGIN PRIVATE KEY-----\nc2VjcmV0LW5vdC1hLWtleQ==\n-----END PRIVATE KEY-----\n".utf8).write(to: bad)
      let badKey = try CLIRunner.run([
        "organizer", "fetch", "--app-id", "1", "--key-id", "K", "--issuer-id", "I", "--private-key", bad.path, "-o",
        output.path, "--base-url", server.base,
      ])
      #expect(badKey.status == 2)
      #expect(badKey.stderr.contains("AuthKey_BAD.p8: not a P-256 private key"))
      #expect(!badKey.stderr.contains("c2VjcmV0"))

      let usage = try CLIRunner.run([
        "organizer", "fetch", "--app-id", "1", "--key-id", "K", "--issuer-id", "I", "--private-key", bad.path, "-o",
        output.path, "--base-url", "http://127.0.0.1:1",
      ])
      #expect(usage.status == 64 && usage.stderr.contains("must be https"))
    }
  }

  @Test func identifiersPagesAndFileNamesCannotBeTurnedAgainstTheFetch() throws {
    guard let python = try Self.python() else { return }
    let server = try Self.server(python: python)
    defer { server.stop() }
    try withTemporaryDirectory { output in
      let trusted = ["--ca-file", server.certificate]

      // A build identifier `..` would change the request's path (the token with it): refused before
      // any request about builds.
      for id in ["..", "."] {
        let dots = try fetch(server, trusted + ["--build", id], output: output)
        #expect(
          dots.status == 2 && dots.stderr.contains("a build identifier '\(id)' cannot name a resource"),
          "\(dots.stderr)")
      }
      #expect(try server.requests().allSatisfy { ($0["path"] as? String)?.hasPrefix("/v1/apps/") == true })

      // More pages than allowed is an error, not a silent cut.
      let cut = try fetch(server, trusted + ["--build", Self.build, "--max-pages", "1"], output: output)
      #expect(cut.status == 2 && cut.stderr.contains("more than 1 pages of signatures"), "\(cut.stderr)")

      // Pages an earlier fetch left past the server's last are removed, and said.
      let stale = output.appendingPathComponent("build-\(Self.build)-diagnosticSignatures-3.json")
      try Data("{}".utf8).write(to: stale)
      let fresh = try fetch(server, trusted + ["--build", Self.build], output: output)
      #expect(fresh.status == 0, "\(fresh.stderr)")
      #expect(!FileManager.default.fileExists(atPath: stale.path))
      #expect(fresh.stderr.contains("an earlier fetch's page 3; build \(Self.build) has 2 now"), "\(fresh.stderr)")
      #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).count == 4)
    }
  }

  /// The SHA-256 of `data` in hex, by Python's hashlib (as the server computed its side).
  static func sha256(_ data: Data, python: String) throws -> String {
    let script = "import hashlib, sys; print(hashlib.sha256(sys.stdin.buffer.read()).hexdigest())"
    return try CLIRunner.program(python, ["-c", script], input: data).stdout.trimmingCharacters(
      in: .whitespacesAndNewlines)
  }
}

extension StandInServer {
  /// The App Store Connect stand-in's key, certificate authority and root.
  var keyFile: String { state.appendingPathComponent("AuthKey_\(OrganizerFetchTests.keyID).p8").path }
  var certificate: String { state.appendingPathComponent("ca.pem").path }
  var base: String { "https://127.0.0.1:\(port)" }
}
