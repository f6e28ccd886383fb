@_spi(Harness) import BindTraceModel

// The open frames of each thread: an event closes those its cause says have finished.

extension Replay {
    /// Closes the frames of the event's thread that have finished, checking that its cause is open.
    @inline(__always)
    func enter(_ cause: TraceCause?, event: CompactEvent) {
        let thread = event.thread
        guard let cause else {
            if frameStacks.count(thread) > 0 { closeAll(thread) }
            lastDepth = 0
            return
        }
        let depth = frameStacks.close(thread, downTo: cause.event) { close($0) }
        if depth == 0 {
            record(
                .causeNotOpen, event,
                "its cause, event #\(cause.event) (delivering to subscription \(cause.subscription)), "
                    + "is not an update, fire or bind still running on thread \(event.thread)")
        }
        lastDepth = depth
    }

    /// Opens again the frame of a delivery Bind deferred past its nesting limit (a `resumed` event),
    /// inside the frames its own cause left open: what it causes next names it as its cause. The frame
    /// is the subscription's bind when that is the delivery, else an update of the Output it is bound to.
    func resume(_ delivery: TraceCause, thread: UInt32) {
        let node = subscriptionTable.reference(delivery.subscription)
        let output = node?._withUnsafeGuaranteedRef { $0.outputReference }
        let outputID = node?._withUnsafeGuaranteedRef { $0.output } ?? 0
        let isBind = node?._withUnsafeGuaranteedRef { $0.boundAt == delivery.event } ?? false
        push(
            Frame(
                sequence: delivery.event, kind: isBind ? .bind : .update, outputReference: output,
                outputID: outputID, causeSubscription: 0, boundSubscription: isBind ? delivery.subscription : 0),
            thread: thread)
    }

    func closeAll(_ thread: UInt32) {
        frameStacks.removeAll(thread) { close($0) }
    }

    @inline(__always)
    func close(_ frame: Frame) {
        guard let output = frame.outputReference else { return }
        let isLast = output._withUnsafeGuaranteedRef { output in
            if frame.kind == .update { output.openFrames -= 1 }
            output.frameReferences -= 1
            return output.frameReferences == 0 && output.releasedAt != nil
        }
        if isLast { releasedWithOpenFrames[ObjectIdentifier(output.takeUnretainedValue())] = nil }
    }

    @inline(__always)
    func push(_ frame: Frame, thread: UInt32) {
        frame.outputReference?._withUnsafeGuaranteedRef { output in
            if frame.kind == .update { output.openFrames += 1 }
            output.frameReferences += 1
        }
        frameStacks.push(frame, thread: thread)
    }
}
