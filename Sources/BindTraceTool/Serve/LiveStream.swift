#if Serve
import NIOCore
import NIOHTTP1

/// One page's Server-Sent Events stream. Lives on its channel's event loop.
///
/// A slow page never makes the server queue without bound: a state is written only while the channel
/// is writable (below its high water mark); otherwise it waits as the trace's one pending state, which a
/// newer state replaces. When the page catches up it gets the newest state of each trace it missed —
/// the summary of what happened meanwhile — and counts the states it skipped.
final class LiveStream {
    private let context: ChannelHandlerContext
    private var pending: [Int: String] = [:]
    /// States replaced before this page could take them (it was slow).
    private(set) var skipped = 0

    init(context: ChannelHandlerContext) { self.context = context }

    func send(_ message: String, trace: Int) {
        if pending.updateValue(message, forKey: trace) != nil { skipped += 1 }
        if context.channel.isWritable { flush() }
    }

    /// Writes the pending states while the channel takes them.
    func flush() {
        guard !pending.isEmpty else { return }
        for trace in pending.keys.sorted() {
            guard context.channel.isWritable, let message = pending.removeValue(forKey: trace) else { break }
            var frame = context.channel.allocator.buffer(capacity: message.utf8.count + 32)
            frame.writeString("event: state\ndata: ")
            frame.writeString(message)
            frame.writeString("\n\n")
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(frame))), promise: nil)
            context.flush()
        }
    }
}
#endif
