// Framing records and reading the common events straight into their compact form (the hot path).

extension TraceReader {
    /// Reads one record; appends the event it holds to `batch` and returns true, or returns false
    /// for metadata and at the end. Small on purpose: the optimiser inlines the update decoder only
    /// into a small enough caller, so every other record is read by ``readOtherRecord``.
    @inline(__always)
    func readRecord(into batch: inout EventBatch) throws(TraceReadError) -> Bool {
        let recordOffset = bufferOffset + position
        guard let frame = try readFrame(at: recordOffset) else { return false }
        position = frame.payload.upperBound
        // Hot path: an update or fire without a preview (`TraceRecord.decodeUpdate`, inlined here),
        // straight into its compact form. A malformed one takes the general path, which throws its error.
        let isUpdate = frame.tag == TraceFormat.Tag.update.rawValue
        if isUpdate || frame.tag == TraceFormat.Tag.fire.rawValue {
            var payload = PayloadDecoder(
                bytes: UnsafeRawBufferPointer(buffer), start: frame.payload.lowerBound, end: frame.payload.upperBound)
            if let update = payload.updateFields() {
                ticks &+= update.delta
                sequence += 1
                let cause = resolve(back: update.causeBack, subscription: update.causeSubscription)
                batch.events.append(
                    CompactEvent(
                        sequence: sequence, time: time(), thread: thread, offset: recordOffset,
                        tag: isUpdate ? .update : .fire,
                        kind: isUpdate
                            ? .updated(output: update.output, cause: cause)
                            : .fired(output: update.output, cause: cause)))
                return true
            }
        }
        return try readOtherRecord(tag: frame.tag, payload: frame.payload, at: recordOffset, into: &batch)
    }

    /// ``readRecord(into:)`` for every record but an update or fire without a preview.
    @inline(never)
    func readOtherRecord(
        tag tagByte: UInt8, payload range: Range<Int>, at recordOffset: Int, into batch: inout EventBatch
    ) throws(TraceReadError) -> Bool {
        guard let tag = TraceFormat.Tag.decoded(tagByte) else {
            if skippedTags.insert(tagByte).inserted {
                warnings.append(
                    TraceWarning(offset: recordOffset, message: "skipped records of unknown kind \(tagByte)"))
            }
            return false
        }
        var payload = PayloadDecoder(
            bytes: UnsafeRawBufferPointer(buffer), start: range.lowerBound, end: range.upperBound)
        // A switch, not `==`: the synthesised `==` of a tag is a generic call from this module.
        switch tag {
        case .clock, .string, .thread, .end, .lost, .site, .chunk, .continues, .writer, .signal, .window:
            let record: TraceRecord
            do {
                record = try TraceRecord.decode(tag, &payload)
            } catch {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: error.reason)
            }
            try apply(metadata: record, tag: tagByte, at: recordOffset)
            return false
        default: break
        }
        if let kind = try structuralKind(tag, payload, at: recordOffset, into: &batch) {
            batch.events.append(
                CompactEvent(
                    sequence: sequence, time: time(), thread: thread, offset: recordOffset, tag: tag, kind: kind))
            return true
        }
        let delta: UInt64
        let event: EventRecord
        do {
            // An event's fields straight from its payload, as `TraceRecord.decode` reads them (without
            // wrapping them in a record only to take them out again).
            delta = try payload.varint()
            event = try EventRecord.decodeFields(tag, &payload)
        } catch {
            throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: error.reason)
        }
        ticks &+= delta
        sequence += 1
        try append(event, at: recordOffset, to: &batch)
        return true
    }

    /// The common structural events (binds, unbinds, creations, releases, edges, scope ends) read
    /// straight into their compact form, as ``compactKind(of:at:into:)`` makes it from the general
    /// decoder's `EventRecord` (which costs an enum with an array payload per event). Counts the
    /// event (tick delta, sequence number) and returns its kind; `nil`, nothing counted, for
    /// another event or anything malformed, which the general path then reads and reports. Throws
    /// what the general path throws for a bad string id, in its order.
    @inline(__always)
    func structuralKind(
        _ tag: TraceFormat.Tag, _ payload: PayloadDecoder, at offset: Int, into batch: inout EventBatch
    ) throws(TraceReadError) -> CompactEvent.Kind? {
        var fields = payload
        guard let delta = fields.varintIfWhole() else { return nil }
        switch tag {
        case .bound:
            guard let subscription = fields.varintIfWhole(), let output = fields.varintIfWhole(),
                let file = fields.varintIfWhole(), let line = fields.varintIfWhole(),
                let flags = fields.varintIfWhole()
            else { return nil }
            var target: CompactBinding.Target?
            if flags & TraceFormat.BindFlag.binder != 0 {
                guard let type = fields.varintIfWhole(), let identity = fields.varintIfWhole() else { return nil }
                target = CompactBinding.Target(type: type, identity: identity)
            }
            guard let scope = fields.varintIfWhole(), let cause = fields.causeIfWhole() else { return nil }
            try checkString(file, at: offset)
            if let target { try checkString(target.type, at: offset) }
            takeEvent(delta: delta)
            batch.bindings.append(
                CompactBinding(
                    subscription: subscription, output: output, file: file, line: line,
                    isInternal: flags & TraceFormat.BindFlag.internal != 0,
                    preexisting: flags & TraceFormat.BindFlag.preexisting != 0, target: target, scope: scope,
                    cause: resolve(cause)))
            return .bound(batch.bindings.count - 1)
        case .unbound:
            guard let subscription = fields.varintIfWhole(), let rawReason = fields.varintIfWhole(),
                rawReason <= UInt64(UInt8.max), let reason = UnbindReason(rawValue: UInt8(rawReason)),
                let cause = fields.causeIfWhole()
            else { return nil }
            takeEvent(delta: delta)
            return .unbound(subscription: subscription, reason: reason, cause: resolve(cause))
        case .outputCreated:
            guard let output = fields.varintIfWhole(), let rawKind = fields.varintIfWhole(),
                rawKind <= UInt64(UInt8.max), let kind = OutputKind(rawValue: UInt8(rawKind)),
                let valueType = fields.varintIfWhole(), let file = fields.varintIfWhole(),
                let line = fields.varintIfWhole(), let label = fields.varintIfWhole(),
                let scope = fields.varintIfWhole(), let preexisting = fields.varintIfWhole(),
                let cause = fields.causeIfWhole()
            else { return nil }
            try checkString(valueType, at: offset)
            try checkString(file, at: offset)
            if label != 0 { try checkString(label, at: offset) }
            takeEvent(delta: delta)
            batch.creations.append(
                CompactCreation(
                    output: output, kind: kind, valueType: valueType, file: file, line: line, label: label,
                    scope: scope, preexisting: preexisting != 0, cause: resolve(cause)))
            return .outputCreated(batch.creations.count - 1)
        case .released:
            guard let output = fields.varintIfWhole() else { return nil }
            takeEvent(delta: delta)
            return .released(output: output)
        case .scopeEnd:
            guard let id = fields.varintIfWhole() else { return nil }
            takeEvent(delta: delta)
            return .scopeEnded(id: id)
        case .edge:
            guard let source = fields.varintIfWhole(), let derived = fields.varintIfWhole(),
                let rawOperation = fields.varintIfWhole(), rawOperation <= UInt64(UInt8.max),
                let operation = OutputKind(rawValue: UInt8(rawOperation))
            else { return nil }
            takeEvent(delta: delta)
            return .edge(source: source, derived: derived, operation: operation)
        default:
            return nil
        }
    }

    /// An event's tick delta and sequence number, taken once it is known to be whole.
    @inline(__always)
    func takeEvent(delta: UInt64) {
        ticks &+= delta
        sequence += 1
    }

    /// The next record's tag and where its payload lies in the buffer, made whole in it; nil at the end
    /// of the trace or when it is cut short inside this record.
    @inline(__always)
    func readFrame(at recordOffset: Int) throws(TraceReadError) -> (tag: UInt8, payload: Range<Int>)? {
        // Most records: a one-byte length, the whole record already in the buffer.
        if position + 1 < count {
            let length = Int(buffer[position + 1])
            if length < 0x80, position + 2 + length <= count {
                return (buffer[position], position + 2..<position + 2 + length)
            }
        }
        return try readFrameSlowly(at: recordOffset)
    }

    /// ``readFrame(at:)`` in general: reads more of the trace when the record is not whole in the buffer.
    func readFrameSlowly(at recordOffset: Int) throws(TraceReadError) -> (tag: UInt8, payload: Range<Int>)? {
        // A tag and a varint length: at most 1 + 10 bytes.
        try fill(atLeast: 11)
        guard position < count else {
            if follows { return waitForMore() }
            finish(at: recordOffset)
            return nil
        }
        let tagByte = buffer[position]
        var cursor = position + 1
        var claimed: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard cursor < count else {
                if follows { return waitForMore() }
                cutShort(at: recordOffset)
                return nil
            }
            let byte = buffer[cursor]
            cursor += 1
            if shift == 63 && byte & 0x7F > 1 {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: "record length does not fit 64 bits")
            }
            if shift < 64 { claimed |= UInt64(byte & 0x7F) << shift }
            if byte & 0x80 == 0 { break }
            shift += 7
            guard shift < 70 else {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: "record length does not end")
            }
        }
        guard claimed <= maximumRecordLength else {
            throw .recordTooLong(offset: recordOffset, length: Int(clamping: claimed))
        }
        let length = Int(claimed)
        let headerLength = cursor - position
        try fill(atLeast: headerLength + length)
        let payloadStart = position + headerLength
        guard payloadStart + length <= count else {
            if follows { return waitForMore() }
            cutShort(at: recordOffset)
            return nil
        }
        return (tagByte, payloadStart..<payloadStart + length)
    }
}
