import Logging
import ServiceLifecycle
import UnixSignals

/// Reads the tokens file again on SIGHUP; a file that does not read is logged and the tokens stay.
struct TokenReloader: Service {
  let tokens: TokenRegistry
  let logger: Logger

  func run() async throws {
    let signals = await UnixSignalsSequence(trapping: .sighup)
    await withGracefulShutdownHandler {
      for await _ in signals.cancelOnGracefulShutdown() {
        do {
          let count = try tokens.reload()
          logger.notice("tokens read again", metadata: ["tokens": "\(count)"])
        } catch {
          logger.error("tokens file refused; the tokens stay as they were", metadata: ["error": "\(error)"])
        }
      }
    } onGracefulShutdown: {
    }
  }
}
