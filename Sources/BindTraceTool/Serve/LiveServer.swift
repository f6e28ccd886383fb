#if Serve
import BindLive
import BindText
import BindReport
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// `bind-trace serve`'s HTTP server: SwiftNIO's HTTP/1 codec (no parser of ours), one event loop for
/// the pages, one thread that reads the traces.
///
/// Routes, each refused with 403 without `?token=` equal to the printed one (or with a `Host` or
/// `Origin` naming another site): `/` the live page, `/events` its Server-Sent Events stream.
struct LiveServer {
    let source: String
    let follows: Bool
    let host: String
    let port: Int
    let token: String
    /// How often the traces are read (seconds): well under the 250 ms an event may take to reach a page.
    var pollInterval = 0.05

    /// Whether `host` only reaches this machine.
    static func isLoopback(_ host: String) -> Bool {
        ["127.0.0.1", "localhost", "::1", "[::1]"].contains(host) || host.hasPrefix("127.")
    }

    /// Listens, calls `started` with the page's URL, and serves until the process is stopped.
    func run(started: (String) -> Void) throws {
        let hub = LiveHub()
        let page = LivePage.html(source: source, follows: follows, toolVersion: ToolVersion.current)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let settings = LiveHTTPHandler.Settings(token: token, page: page, hub: hub, host: host)
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 64)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(LiveHTTPHandler(settings: settings))
                }
            }
        let channel: Channel
        do {
            channel = try bootstrap.bind(host: host, port: port).wait()
        } catch {
            throw ToolFailure("serve: cannot listen on \(host):\(port): \(error)")
        }
        let bound = channel.localAddress?.port ?? port
        let shownHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        started("http://\(shownHost):\(bound)/?token=\(token)")
        let reader = Thread { [source, follows, pollInterval] in
            let session = LiveSession(source: source, follows: follows)
            let start = DispatchTime.now().uptimeNanoseconds
            while true {
                let now = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                hub.publish(session.poll(now: now))
                Thread.sleep(forTimeInterval: pollInterval)
            }
        }
        reader.name = "bind-trace serve: reader"
        reader.start()
        try channel.closeFuture.wait()
    }
}

/// Answers one connection's requests: the page, the event stream, or a refusal.
final class LiveHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    struct Settings: Sendable {
        let token: String
        let page: String
        let hub: LiveHub
        /// The address listened on: with a loopback one, a `Host` naming anything else is refused.
        let host: String
    }

    private let settings: Settings
    private var head: HTTPRequestHead?
    private var stream: LiveStream?

    init(settings: Settings) { self.settings = settings }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request): head = request
        case .body: break
        case .end:
            if let head, stream == nil { respond(to: head, context: context) }
            head = nil
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { stream?.flush() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if stream != nil { settings.hub.remove(id: ObjectIdentifier(self)) }
        stream = nil
        context.fireChannelInactive()
    }

    private func respond(to request: HTTPRequestHead, context: ChannelHandlerContext) {
        let (path, query) = Self.split(request.uri)
        guard request.method == .GET || request.method == .HEAD else {
            return reply(.methodNotAllowed, "only GET\n", context: context)
        }
        guard allowed(request, query: query) else {
            return reply(
                .forbidden, "403: open the URL bind-trace serve printed (it holds the token)\n", context: context)
        }
        switch path {
        case "/", "/index.html":
            reply(.ok, settings.page, contentType: "text/html; charset=utf-8", context: context)
        case "/events":
            startStream(context: context)
        default:
            reply(.notFound, "404: not here\n", context: context)
        }
    }

    /// The token, and a `Host` and `Origin` of this server (a page of another site, or a DNS name rebound
    /// to 127.0.0.1, is refused even if it learnt the token).
    private func allowed(_ request: HTTPRequestHead, query: Substring) -> Bool {
        let token = query.split(separator: "&").first { $0.hasPrefix("token=") }?.dropFirst("token=".count)
        guard let token, ServeToken.matches(token, settings.token) else { return false }
        let host = request.headers["host"].first ?? ""
        if LiveServer.isLoopback(settings.host) {
            let name =
                host.hasPrefix("[") ? String(host.prefix { $0 != "]" }.dropFirst()) : String(host.prefix { $0 != ":" })
            guard LiveServer.isLoopback(name) else { return false }
        }
        if let origin = request.headers["origin"].first, origin != "http://\(host)" { return false }
        return true
    }

    private func startStream(context: ChannelHandlerContext) {
        var headers = Self.commonHeaders
        headers.add(name: "content-type", value: "text/event-stream; charset=utf-8")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        var hello = context.channel.allocator.buffer(capacity: 32)
        // Reconnect after a second when the connection drops (EventSource's own retry).
        hello.writeString("retry: 1000\n\n")
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(hello))), promise: nil)
        let stream = LiveStream(context: context)
        self.stream = stream
        settings.hub.add(NIOLoopBound(stream, eventLoop: context.eventLoop), id: ObjectIdentifier(self))
    }

    /// No CORS headers, ever; nothing cached; the page's policy as a header too.
    private static var commonHeaders: HTTPHeaders {
        HTTPHeaders([
            ("cache-control", "no-store"),
            ("x-content-type-options", "nosniff"),
            ("referrer-policy", "no-referrer"),
            ("content-security-policy", LivePage.contentSecurityPolicyHeader),
        ])
    }

    private func reply(
        _ status: HTTPResponseStatus, _ body: String, contentType: String = "text/plain; charset=utf-8",
        context: ChannelHandlerContext
    ) {
        var headers = Self.commonHeaders
        headers.add(name: "content-type", value: contentType)
        headers.add(name: "content-length", value: String(body.utf8.count))
        headers.add(name: "connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    private static func split(_ uri: String) -> (path: Substring, query: Substring) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri[...], "") }
        return (uri[..<mark], uri[uri.index(after: mark)...])
    }
}
#endif
