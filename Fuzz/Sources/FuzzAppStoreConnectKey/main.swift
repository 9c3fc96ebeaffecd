// Fuzzes the reader of App Store Connect's `.p8` keys (PEM, PKCS #8 or SEC 1 DER): any bytes as a key
// file. A key it takes must sign a token of three parts; anything else must be a badKey error in the
// reader's own words.
import AppStoreConnect
import FuzzSupport

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAppStoreConnectKey(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
  let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
  do {
    let key = try AppStoreConnectKey(keyID: "KEY", issuerID: "ISSUER", pem: text)
    let token = try key.token()
    precondition(token.split(separator: ".").count == 3)
  } catch {
    // The reason is one of the reader's own sentences: it never quotes the text (a key's bytes).
    guard case .badKey(let reason) = error else { preconditionFailure("\(error)") }
    precondition(reason.hasPrefix("not a P-256 private key in PEM") || reason.hasPrefix("signing failed"))
  }
  return 0
}

@_cdecl("FuzzAppStoreConnectKey_main")
public func fuzzAppStoreConnectKeyMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?)
  -> CInt
{
  runLibFuzzer(argc, argv) { data, size in fuzzAppStoreConnectKey(data, size) }
}
