import HTTPTypes
import NIOCore
import NIOHTTPTypes
import Synchronization

/// The connections being served, against a cap below the process's descriptor limit.
final class ConnectionCount: Sendable {
  private let open = Atomic<Int>(0)
  let limit: Int

  init(limit: Int) { self.limit = limit }

  /// Counts a new connection; false when the cap is reached (it is not counted then).
  func enter() -> Bool {
    if open.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue <= limit { return true }
    open.subtract(1, ordering: .acquiringAndReleasing)
    return false
  }

  func leave() { open.subtract(1, ordering: .acquiringAndReleasing) }
}

/// One connection's guard, between the HTTP codec and the server's handlers:
///
/// - past the connection cap, the first request is answered `503` with `Retry-After` and the
///   connection closed, so a flood of idle connections cannot take every descriptor;
/// - a request that says `Expect: 100-continue` is told `100 Continue` at once (a client otherwise
///   waits a second before sending its body);
/// - once the stop has begun, every answer says `Connection: close`, so a keep-alive client opens its
///   next request elsewhere instead of meeting a closed socket.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPRequestPart
  typealias InboundOut = HTTPRequestPart
  typealias OutboundIn = HTTPResponsePart
  typealias OutboundOut = HTTPResponsePart

  private let connections: ConnectionCount
  private let stopping: StopClock
  private var counted = false
  private var refused = false

  init(connections: ConnectionCount, stopping: StopClock) {
    self.connections = connections
    self.stopping = stopping
  }

  func handlerAdded(context: ChannelHandlerContext) {
    counted = connections.enter()
    refused = !counted
  }

  func handlerRemoved(context: ChannelHandlerContext) {
    if counted { connections.leave() }
    counted = false
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    if refused {
      if case .head = part {
        var head = HTTPResponse(status: .serviceUnavailable)
        head.headerFields = [.contentType: "application/json", .retryAfter: "1", .connection: "close"]
        let body = ByteBuffer(string: "{\"error\":\"the collector serves \(connections.limit) connections at most\"}\n")
        head.headerFields[.contentLength] = String(body.readableBytes)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
      }
      return
    }
    if case .head(let request) = part, request.headerFields[.expect]?.lowercased() == "100-continue" {
      context.writeAndFlush(wrapOutboundOut(.head(HTTPResponse(status: .continue))), promise: nil)
    }
    context.fireChannelRead(data)
  }

  func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
    if stopping.since != nil, case .head(var response) = unwrapOutboundIn(data), response.status.kind != .informational
    {
      response.headerFields[.connection] = "close"
      context.write(wrapOutboundOut(.head(response)), promise: promise)
      return
    }
    context.write(data, promise: promise)
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if event is ChannelShouldQuiesceEvent { stopping.stop() }
    context.fireUserInboundEventTriggered(event)
  }
}
