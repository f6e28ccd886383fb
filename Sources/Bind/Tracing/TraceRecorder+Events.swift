// The recorder's events: one entry point per probe, each deciding what the sinks must be told and
// encoding it under the recording lock.
import BindTraceFormat

#if Tracing
import CBindTrace

extension TraceRecorder {
    static func outputCreated(_ output: OutputTraceInfo) {
        let scope = BindTrace.currentScope
        let cause = bind_trace_cause_slot()!.pointee
        withLock { $0.announce(output, preexisting: false, scope: scope, cause: cause) }
    }

    /// Records a bind. `siblings` (every subscription of the Output, this one included) is read
    /// only when the Output must be announced or a Binder's target compared, so a traced closure
    /// bind to an announced Output never walks its subscribers.
    @usableFromInline
    static func bound(
        _ subscription: UnsafeMutablePointer<SubscriptionProbe>, of output: OutputTraceInfo, siblings: SubscriberProbes,
        captures: CaptureProbe
    ) -> UInt64 {
        let scope = BindTrace.currentScope
        let cause = bind_trace_cause_slot()!.pointee
        return withLock { state in
            guard state.streamOpen else { return 0 }
            if output.announcedEpoch != state.epoch {
                state.announce(output, subscribers: siblings, except: subscription)
            }
            if let identity = subscription.pointee.targetIdentity {
                // A new target at the address of a dead one is not the same target: say the old
                // one is gone before the bind, so readers never take the two for one.
                for sibling in siblings
                where sibling != subscription && sibling.pointee.targetIdentity == identity
                    && sibling.pointee.targetIsGone
                {
                    state.append(.dangling(subscription: sibling.pointee.recordedID()))
                }
            }
            let event = state.writeBound(
                &subscription.pointee, of: output, preexisting: false, scope: scope, cause: cause)
            if let facts = captures.facts { state.writeCaptured(subscription: subscription.pointee.id, facts) }
            return event
        }
    }

    /// Records an update (or a fire, for a Relay) with the recording lock: one with a preview, one
    /// of an Output this recording has not announced, or one the thread's ring had no room for.
    /// (The probe first tries the ring, without the lock: `bind_trace_record_update`.) `subscribers` is run
    /// only when the Output must be announced (its first event in this recording), so a traced
    /// update never walks them.
    @usableFromInline
    static func updated(
        _ output: OutputTraceInfo, preview: [UInt8]?, site: UpdateSite,
        subscribers: ((SubscriberProbes) -> Void) -> Void
    ) -> UInt64 {
        let fire = output.kind == .relay
        let cause = bind_trace_cause_slot()!.pointee
        return withLock { state in
            guard state.streamOpen else { return 0 }
            if output.announcedEpoch != state.epoch {
                subscribers { state.announce(output, subscribers: $0, except: nil) }
            }
            let event: UInt64
            if let preview {
                event = state.append(cause: cause) { field in
                    fire
                        ? .fire(output: output.id, cause: field, preview: preview)
                        : .update(output: output.id, cause: field, preview: preview)
                }
            } else {
                event = state.appendUpdate(of: output, fire: fire, cause: cause)
            }
            // A root update: no subscription's closure called it, so where the app did is the answer
            // to "why" for everything it causes. Written when the line differs from the Output's
            // last recorded one (readers carry a call site forward, per Output).
            if cause.event == 0 && !site.isLastCall(of: output) {
                state.appendCalledAt(event: event, file: site.file, line: site.line)
                output.lastCallFile = site.fileAddress
                output.lastCallLine = site.line
            }
            return event
        }
    }

    /// Records that a delivery Bind deferred past its nesting limit resumes on this thread, inside
    /// `enclosing` (the cause current where the deferred step is taken up). Rare: only steps past
    /// the depth limit (``Cascade``) come here, so the lock is no cost to the hot path.
    @usableFromInline
    static func resumed(_ delivery: bind_trace_cause, inside enclosing: bind_trace_cause) {
        withLock { state in
            guard state.streamOpen else { return }
            state.appendResumed(delivery, inside: enclosing)
        }
    }

    /// Records an unbind of a subscriber already taken off `output`'s list; `others` are the
    /// subscribers left.
    @usableFromInline
    static func unbound(
        _ subscription: inout SubscriptionProbe, of output: OutputTraceInfo, others: SubscriberProbes,
        reason: UnbindReason
    ) {
        let cause = bind_trace_cause_slot()!.pointee
        withLock { state in
            guard state.streamOpen else { return }
            // Tested here so the usual case (announced already) walks nothing; the subscription
            // itself is written as bound by `writeUnbound` when it was not.
            if output.announcedEpoch != state.epoch {
                state.announce(output, subscribers: others, except: nil)
            }
            state.writeUnbound(&subscription, of: output, reason: reason, cause: cause)
        }
    }

    @usableFromInline
    static func dangling(_ subscription: UInt64) {
        withLock { state in
            guard state.streamOpen else { return }
            state.append(.dangling(subscription: subscription))
        }
    }

    @usableFromInline
    static func outputReleased(_ output: OutputTraceInfo, subscribers: SubscriberProbes) {
        withLock { state in
            // Every sink that saw the Output gets its release, whatever captures began since: a
            // sink that joined later first gets it announced, so its trace stays consistent.
            guard state.streamOpen, state.wasSeenInStream(output.announcedEpoch) else { return }
            state.announce(output, subscribers: subscribers, except: nil)
            for subscription in subscribers {
                state.writeUnbound(
                    &subscription.pointee, of: output, reason: .outputReleased, cause: bind_trace_cause())
            }
            state.append(.released(output: output.id))
        }
    }

    static func edge(
        from source: OutputTraceInfo, to derived: OutputTraceInfo, kind: OutputKind, sourceSubscribers: SubscriberProbes
    ) {
        withLock { state in
            guard state.streamOpen else { return }
            state.announce(source, subscribers: sourceSubscribers, except: nil)
            // Announced with its subscribers just before, under its own lock; again here only if a
            // sink joined in between (then without them: this thread holds only the source's lock).
            state.announce(derived, preexisting: true, scope: 0, cause: bind_trace_cause())
            state.append(.edge(source: source.id, derived: derived.id, operation: kind))
        }
    }

    static func innerSwitch(flatMap: OutputTraceInfo, inner: OutputTraceInfo, innerSubscribers: SubscriberProbes) {
        withLock { state in
            guard state.streamOpen else { return }
            state.announce(flatMap, preexisting: true, scope: 0, cause: bind_trace_cause())
            state.announce(inner, subscribers: innerSubscribers, except: nil)
            state.append(.innerSwitch(flatMap: flatMap.id, inner: inner.id))
        }
    }

    /// Announces `output` and its subscribers to the sinks that have not seen it.
    static func announce(_ output: OutputTraceInfo, subscribers: SubscriberProbes) {
        withLock { state in
            guard state.streamOpen else { return }
            state.announce(output, subscribers: subscribers, except: nil)
        }
    }

    static func labelChanged(_ output: OutputTraceInfo, to label: String, subscribers: SubscriberProbes) {
        withLock { state in
            output.label = label
            guard state.streamOpen, state.wasSeenInStream(output.announcedEpoch) else { return }
            if output.announcedEpoch != state.epoch {
                // Announcing it writes the new label with it.
                state.announce(output, subscribers: subscribers, except: nil)
                return
            }
            let labelID = state.intern(label)
            state.append(.label(output: output.id, label: labelID))
        }
    }

    /// The Subscription of `subscription`, still bound to `output`, was added to a container. An
    /// Output this recording has not announced is announced first, with its subscriptions, so the id
    /// names a binding the trace knows (one bound before the recording started). Output's lock held.
    @usableFromInline
    static func subscriptionContained(
        _ subscription: UnsafeMutablePointer<SubscriptionProbe>, of output: OutputTraceInfo,
        subscribers: SubscriberProbes, containerID: UInt64
    ) {
        withLock { state in
            guard state.streamOpen else { return }
            state.announce(output, subscribers: subscribers, except: nil)
            state.append(.contained(subscription: subscription.pointee.recordedID(), container: containerID))
        }
    }

    /// The combine `derived` stopped for good: its source `source` was released (just before).
    static func stopped(_ derived: OutputTraceInfo, source: OutputTraceInfo) {
        withLock { state in
            guard state.streamOpen, state.wasSeenInStream(derived.announcedEpoch),
                state.wasSeenInStream(source.announcedEpoch)
            else { return }
            state.append(.stopped(derived: derived.id, source: source.id))
        }
    }

    /// The handle of `subscription`, still bound to `output`, was released. An Output this recording
    /// has not announced is announced first, with its subscriptions, so the id names a binding the
    /// trace knows (one bound before the recording started). Output's lock held.
    @usableFromInline
    static func handleReleased(
        _ subscription: UnsafeMutablePointer<SubscriptionProbe>, of output: OutputTraceInfo,
        subscribers: SubscriberProbes
    ) {
        withLock { state in
            guard state.streamOpen else { return }
            state.announce(output, subscribers: subscribers, except: nil)
            state.append(.handleReleased(subscription: subscription.pointee.recordedID()))
        }
    }

    static func scopeBegan(id: UInt64, parent: UInt64, name: String, file: BindTrace.ScopeFile, line: UInt) {
        withLock { state in
            guard state.streamOpen else { return }
            let nameID = state.intern(name)
            let fileID =
                switch file {
                case .literal(let file): state.intern(file)
                case .text(let file): state.intern(file)
                }
            state.append(.scopeBegin(id: id, parent: parent, name: nameID, file: fileID, line: UInt64(line)))
        }
    }

    static func scopeEnded(id: UInt64) {
        record(.scopeEnd(id: id))
    }

    /// Records `event` as it is, when a recording is open: for an event that names nothing the
    /// recording must announce first (a scope's end, a container's id). A probe of a new kind of that
    /// sort calls this and needs no entry point of its own (docs/architecture.md, "Adding a new event
    /// kind").
    static func record(_ event: EventRecord) {
        withLock { state in
            guard state.streamOpen else { return }
            state.append(event)
        }
    }

    static func mark(_ name: String) {
        let scope = BindTrace.currentScope
        withLock { state in
            guard state.streamOpen else { return }
            let nameID = state.intern(name)
            state.append(.mark(name: nameID, scope: scope))
        }
    }

    /// A bounded `String(describing:)` of `value`, cut at a character boundary.
    @usableFromInline
    static func preview<Value>(of value: Value) -> [UInt8] {
        TraceFormat.truncated(String(describing: value), to: TraceFormat.maximumPreviewLength)
    }
}
#endif
