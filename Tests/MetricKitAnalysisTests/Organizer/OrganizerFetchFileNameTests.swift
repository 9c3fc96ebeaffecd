import Testing

@testable import AppStoreConnect

/// The names `organizer fetch` writes its responses under: one per identifier, never shared.
@Suite("Organizer fetch file names")
struct OrganizerFetchFileNameTests {
  @Test func identifiersThatOnceSanitisedAlikeGetNamesOfTheirOwn() throws {
    var names: [String: String] = [:]
    let ids = ["a/b", "a_b", "a?b", "a_2Fb", "abc", "ab.c", "é"]
    let written = try ids.map {
      try OrganizerFetch.unique(OrganizerFetch.fileName("signature-", $0, "-logs.json"), of: $0, in: &names)
    }
    #expect(Set(written).count == ids.count, "\(written)")
    #expect(written.allSatisfy { !$0.contains("/") && $0.hasPrefix("signature-") })
    #expect(written[0] == "signature-a_2Fb-logs.json" && written[3] == "signature-a_5F2Fb-logs.json")
    // Names that differ only in case would be one file where case is ignored: refused.
    #expect(throws: AppStoreConnectError.self) {
      _ = try OrganizerFetch.unique(OrganizerFetch.fileName("signature-", "ABC", "-logs.json"), of: "ABC", in: &names)
    }
    #expect(throws: AppStoreConnectError.self) { _ = try OrganizerFetch.pathSegment("..", what: "an identifier") }
    #expect(try OrganizerFetch.pathSegment("a/b", what: "an identifier") == "a%2Fb")
  }
}
