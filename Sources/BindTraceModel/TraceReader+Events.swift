// The other events: decoded whole, causes made absolute, string ids checked or looked up.

extension TraceReader {
    /// Appends the event, its cause made absolute, to `batch`.
    // Not inlined, and the kind built here rather than returned: a kind handed back through memory
    // was written field by field and read back whole, which stalls the load on every event.
    @inline(never)
    func append(_ event: EventRecord, at offset: Int, to batch: inout EventBatch) throws(TraceReadError) {
        let kind = try compactKind(of: event, at: offset, into: &batch)
        batch.events.append(
            CompactEvent(sequence: sequence, time: time(), thread: thread, offset: offset, tag: event.tag, kind: kind))
    }

    /// The event with its cause made absolute. A bind or creation goes to the batch's `bindings` or
    /// `creations`, its string ids checked (not looked up); a kind with no compact form (one with
    /// other strings, or a rare one) goes to `details`, strings looked up.
    @inline(__always)
    func compactKind(of event: EventRecord, at offset: Int, into batch: inout EventBatch)
        throws(TraceReadError) -> CompactEvent.Kind
    {
        switch event {
        case .bound(let subscription, let output, let file, let line, let flags, let target, let scope, let cause):
            // The checks `kind(of:at:)` makes, in its order: the same error for a bad id.
            try checkString(file, at: offset)
            if let target { try checkString(target.type, at: offset) }
            batch.bindings.append(
                CompactBinding(
                    subscription: subscription, output: output, file: file, line: line,
                    isInternal: flags & TraceFormat.BindFlag.internal != 0,
                    preexisting: flags & TraceFormat.BindFlag.preexisting != 0,
                    target: target.map { CompactBinding.Target(type: $0.type, identity: $0.identity) }, scope: scope,
                    cause: resolve(cause)))
            return .bound(batch.bindings.count - 1)
        case .outputCreated(
            let output, let kind, let valueType, let file, let line, let label, let scope, let preexisting, let cause):
            try checkString(valueType, at: offset)
            try checkString(file, at: offset)
            if label != 0 { try checkString(label, at: offset) }
            batch.creations.append(
                CompactCreation(
                    output: output, kind: kind, valueType: valueType, file: file, line: line, label: label,
                    scope: scope, preexisting: preexisting, cause: resolve(cause)))
            return .outputCreated(batch.creations.count - 1)
        case .update(let output, let cause, nil): return .updated(output: output, cause: resolve(cause))
        case .fire(let output, let cause, nil): return .fired(output: output, cause: resolve(cause))
        case .unbound(let subscription, let reason, let cause):
            return .unbound(subscription: subscription, reason: reason, cause: resolve(cause))
        case .released(let output): return .released(output: output)
        case .edge(let source, let derived, let operation):
            return .edge(source: source, derived: derived, operation: operation)
        case .innerSwitch(let flatMap, let inner): return .innerSwitch(flatMap: flatMap, inner: inner)
        case .scopeEnd(let id): return .scopeEnded(id: id)
        case .contained(let subscription, let container):
            return .subscriptionContained(subscription: subscription, container: container)
        case .handleReleased(let subscription): return .handleReleased(subscription: subscription)
        default:
            // An update or fire with a preview, an event with other strings, or a rare kind: whole.
            batch.details.append(try kind(of: event, at: offset))
            return .detailed(batch.details.count - 1)
        }
    }

    /// A bind's kind (EventKinds.toml, `custom`): its flags say whether it is internal, preexisting
    /// and a Binder's.
    func boundKind(_ event: EventRecord, at offset: Int) throws(TraceReadError) -> TraceEvent.Kind {
        guard
            case .bound(let subscription, let output, let file, let line, let flags, let target, let scope, let cause) =
                event
        else { throw .malformedRecord(offset: offset, tag: event.tag.rawValue, reason: "not a bind") }
        return .bound(
            TraceEvent.Binding(
                subscription: subscription, output: output, site: try site(file, line, at: offset),
                isInternal: flags & TraceFormat.BindFlag.internal != 0,
                target: try target.map { target throws(TraceReadError) in
                    BinderTarget(type: try string(target.type, at: offset), identity: target.identity)
                },
                scope: scope, preexisting: flags & TraceFormat.BindFlag.preexisting != 0, cause: resolve(cause)))
    }

    /// The number of the event `back` events before this one, which a record of `tag` names (a
    /// `calledAt`'s update): one before the trace's first event is malformed.
    func event(back: UInt64, of tag: TraceFormat.Tag, at offset: Int) throws(TraceReadError) -> UInt64 {
        guard back != 0, back < sequence else {
            throw .malformedRecord(
                offset: offset, tag: tag.rawValue,
                reason: "call site of event \(back) back, before the trace's first event")
        }
        return sequence - back
    }

    /// The call site `id` defined by a `site` record; "?" for one whose definition was lost with a
    /// failed write (the trace has said so).
    func callSite(_ id: UInt64, at offset: Int) throws(TraceReadError) -> SourceSite {
        if let known = sites[id] { return known }
        guard lostEvents > 0, id <= lastSiteID else {
            throw .malformedRecord(
                offset: offset, tag: TraceFormat.Tag.calledAt.rawValue, reason: "undefined call site \(id)")
        }
        return SourceSite(file: "?", line: 0)
    }

    /// A `captured` event's list, its strings looked up.
    func captures(_ captures: [CaptureField], at offset: Int) throws(TraceReadError) -> [TraceEvent.Capture] {
        var read: [TraceEvent.Capture] = []
        read.reserveCapacity(captures.count)
        for capture in captures {
            var holds: [TraceEvent.Capture.HeldOutput] = []
            for held in capture.holds {
                let path = held.path == 0 ? "" : try string(held.path, at: offset)
                holds.append(.init(path: path, output: held.output))
            }
            read.append(
                TraceEvent.Capture(
                    strength: capture.strength.readable, type: try string(capture.type, at: offset),
                    identity: capture.identity, holds: holds))
        }
        return read
    }

    /// The cause, or nil; a cause from before the trace's first event (a recording that started
    /// during a delivery) is dropped and counted in ``causesBeforeStart``.
    func resolve(_ cause: CauseField) -> TraceCause? {
        resolve(back: cause.back, subscription: cause.subscription)
    }

    @inline(__always)
    func resolve(back: UInt64, subscription: UInt64) -> TraceCause? {
        guard back != 0 else { return nil }
        guard back < sequence else {
            causesBeforeStart += 1
            if eventsCausedBeforeStart.count < Self.maximumEventsCausedBeforeStart {
                eventsCausedBeforeStart.insert(sequence)
            }
            return nil
        }
        return TraceCause(subscription: subscription, event: sequence - back)
    }

    func defineString(_ text: String) {
        if let index = distinctStrings[text] {
            strings.append(strings[index])
        } else {
            distinctStrings[text] = strings.count
            strings.append(text)
        }
    }

    @inline(__always)
    func checkString(_ id: UInt64, at offset: Int) throws(TraceReadError) {
        guard id < UInt64(strings.count) else { throw .unknownString(offset: offset, id: id) }
    }

    func string(_ id: UInt64, at offset: Int) throws(TraceReadError) -> String {
        guard id < UInt64(strings.count) else { throw .unknownString(offset: offset, id: id) }
        return strings[Int(id)]
    }

    func site(_ file: UInt64, _ line: UInt64, at offset: Int) throws(TraceReadError) -> SourceSite {
        SourceSite(file: try string(file, at: offset), line: UInt(truncatingIfNeeded: line))
    }

    /// Nanoseconds since the first clock record, from the latest clock record's anchor and rate.
    @inline(__always)
    func time() -> UInt64 {
        guard let clock else { return 0 }
        let elapsedTicks = Double(Int64(bitPattern: ticks &- clock.ticks))
        let nanoseconds = clockNanoseconds + elapsedTicks * 1e9 / clockRate
        return nanoseconds > start ? UInt64(min(nanoseconds - start, 1.8e19)) : 0
    }
}

extension CaptureField.Strength {
    var readable: TraceEvent.Capture.Strength {
        switch self {
        case .strong: .strong
        case .weak: .weak
        case .unowned: .unowned
        case .unknown: .unknown
        }
    }
}
