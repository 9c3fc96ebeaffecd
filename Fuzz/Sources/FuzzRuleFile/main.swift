// Fuzzes the rule-file parser (YAML and JSON).
import FuzzSupport
import MetricKitAnalysis

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRuleFile(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
  if let set = try? RuleFileParser.parse(text, file: "fuzz.yml") {
    // What parses prints and parses back to the same rules.
    let again = try? RuleFileParser.parse(RuleFileParser.yaml(set), file: "again.yml")
    precondition(again?.rules.count == set.rules.count, "printed rules read back")
  }
  return 0
}

@_cdecl("FuzzRuleFile_main")
public func fuzzRuleFileMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  runLibFuzzer(argc, argv) { data, size in fuzzRuleFile(data, size) }
}
