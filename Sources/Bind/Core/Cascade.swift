import CBindCore

/// Keeps cascades of derived updates and of Output releases off the deep end of the stack.
///
/// A derived Output updates from inside its source's delivery, and is released from inside its
/// source's release, so a chain *n* deep nests *n* calls. Past ``depthLimit`` nested steps on one
/// thread, the next step is deferred to the outermost one, which runs the deferred steps in order
/// before it returns. So `update(withValue:)` still returns only when every derived Output has its
/// value, and chains up to the limit deliver exactly as written (depth first); past it, the stages
/// of a fan-out are delivered one after the other instead of depth first.
@usableFromInline
enum Cascade {
    /// Nested steps on one thread before the next is deferred: far deeper than any chain written by
    /// hand, shallow enough for a 512 KB thread stack.
    @usableFromInline static let depthLimit: UInt32 = 128

    /// Updates `output` with `value` as one step of a cascade of derived updates.
    @inlinable
    static func update<Value>(_ output: Output<Value>, with value: Value) {
        let slot = bind_core_cascade_slot()!
        let depth = slot.pointee.depth
        if depth >= depthLimit {
            let cause = CauseProbe.current
            return deferStep { cause.restore { output.update(withValue: value) } }
        }
        slot.pointee.depth = depth &+ 1
        output.update(withValue: value)
        slot.pointee.depth = depth
        if depth == 0, slot.pointee.deferred != nil { drain(slot) }
    }

    /// Releases `value` (an Output's subscribers, which may hold derived Outputs) as one step.
    @inlinable
    static func release<Value>(_ value: consuming Value) {
        let slot = bind_core_cascade_slot()!
        let depth = slot.pointee.depth
        if depth >= depthLimit {
            let kept = consume value
            return deferStep { withExtendedLifetime(kept) {} }
        }
        slot.pointee.depth = depth &+ 1
        _ = consume value
        slot.pointee.depth = depth
        if depth == 0, slot.pointee.deferred != nil { drain(slot) }
    }

    @usableFromInline
    static func deferStep(_ step: @escaping () -> Void) {
        let slot = bind_core_cascade_slot()!
        if let deferred = slot.pointee.deferred {
            Unmanaged<DeferredSteps>.fromOpaque(deferred).takeUnretainedValue().steps.append(step)
        } else {
            let steps = DeferredSteps()
            steps.steps.append(step)
            slot.pointee.deferred = Unmanaged.passRetained(steps).toOpaque()
        }
    }

    /// Runs every deferred step, and those they defer, from the outermost step of this thread.
    @usableFromInline
    static func drain(_ slot: UnsafeMutablePointer<bind_core_cascade_state>) {
        let steps = Unmanaged<DeferredSteps>.fromOpaque(slot.pointee.deferred!)
        let queue = steps.takeUnretainedValue()
        var next = 0
        while next < queue.steps.count {
            var step: (() -> Void)? = queue.steps[next]
            queue.steps[next] = {}
            next += 1
            // The step is run and dropped as one step: what it holds may be a whole chain.
            slot.pointee.depth = 1
            step!()
            step = nil
            slot.pointee.depth = 0
        }
        slot.pointee.deferred = nil
        steps.release()
    }
}

/// The steps a thread deferred past the depth limit, in the order they were deferred.
@usableFromInline
final class DeferredSteps {
    var steps: [() -> Void] = []
    @usableFromInline init() {}
}
