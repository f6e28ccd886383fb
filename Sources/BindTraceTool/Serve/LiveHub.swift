#if Serve
import NIOConcurrencyHelpers
import NIOCore

/// Hands every trace's newest state to every open page's stream.
///
/// It keeps one state per trace (the newest), so a page that connects late gets the current state of
/// every trace first; each page's stream keeps at most one unsent state per trace (``LiveStream``).
final class LiveHub: Sendable {
    private struct Clients {
        var streams: [ObjectIdentifier: NIOLoopBound<LiveStream>] = [:]
        var states: [Int: String] = [:]
    }
    private let clients = NIOLockedValueBox(Clients())

    /// A page's stream opened: it gets every trace's current state, then every change.
    func add(_ stream: NIOLoopBound<LiveStream>, id: ObjectIdentifier) {
        clients.withLockedValue { clients in
            clients.streams[id] = stream
            let states = clients.states
            // Delivered under the lock, so a newer state published meanwhile is queued after these.
            stream.eventLoop.execute { for (index, state) in states { stream.value.send(state, trace: index) } }
        }
    }

    func remove(id: ObjectIdentifier) {
        clients.withLockedValue { _ = $0.streams.removeValue(forKey: id) }
    }

    /// The states of the traces that changed, to every open stream.
    func publish(_ changed: [(index: Int, message: String)]) {
        guard !changed.isEmpty else { return }
        clients.withLockedValue { clients in
            for (index, message) in changed { clients.states[index] = message }
            for stream in clients.streams.values {
                stream.eventLoop.execute {
                    for (index, message) in changed { stream.value.send(message, trace: index) }
                }
            }
        }
    }

    var pageCount: Int { clients.withLockedValue { $0.streams.count } }
}
#endif
