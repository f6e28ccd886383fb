// Records that are not events: clock, strings, threads, sites, losses, chunks, writers.

extension TraceReader {
    /// Takes in a record that is not an event: the clock, a string, the thread, the end, a loss.
    func apply(metadata record: TraceRecord, tag tagByte: UInt8, at recordOffset: Int)
        throws(TraceReadError)
    {
        switch record {
        case .clock(let clockTicks, let nanoseconds, let rate):
            guard rate > 0 else {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: "clock rate is zero")
            }
            clock = (clockTicks, nanoseconds, rate)
            if startNanoseconds == nil { startNanoseconds = nanoseconds }
            clockNanoseconds = Double(nanoseconds)
            clockRate = Double(rate)
            start = Double(startNanoseconds ?? 0)
            ticks = clockTicks
        case .string(let id, let utf8):
            guard id == UInt64(strings.count) else {
                if id < UInt64(strings.count) { throw .stringDefinedTwice(offset: recordOffset, id: id) }
                throw .malformedRecord(
                    offset: recordOffset, tag: tagByte,
                    reason: "string \(id) defined out of order (expected \(strings.count))")
            }
            guard utf8.count <= TraceFormat.maximumReadableStringLength else {
                throw .malformedRecord(
                    offset: recordOffset, tag: tagByte,
                    reason: "string of \(utf8.count) bytes (at most \(TraceFormat.maximumReadableStringLength))")
            }
            defineString(String(decoding: utf8, as: UTF8.self))
        case .thread(let index, let nameID):
            guard index <= UInt64(UInt32.max) else {
                throw .malformedRecord(offset: recordOffset, tag: tagByte, reason: "thread number too large")
            }
            thread = UInt32(index)
            let name = try string(nameID, at: recordOffset)
            if !name.isEmpty { threadNames[thread] = name }
        case .site(let id, let file, let line):
            // Increasing, not dense: a failed write may have lost the records of some sites.
            guard id > lastSiteID else {
                throw .malformedRecord(
                    offset: recordOffset, tag: tagByte,
                    reason: "site \(id) defined out of order (after site \(lastSiteID))")
            }
            lastSiteID = id
            // Its file's string may have been lost with a failed write (the trace has said so).
            if file >= UInt64(strings.count) && lostEvents > 0 {
                sites[id] = SourceSite(file: "?", line: UInt(truncatingIfNeeded: line))
            } else {
                sites[id] = try site(file, line, at: recordOffset)
            }
        case .end:
            isComplete = true
        case .signal(let number):
            endSignal = Int32(clamping: number)
        case .window(let eventsBefore, let inPrevious, let windowStart, let segment):
            try flightWindow(
                eventsBefore, inPrevious: inPrevious, start: windowStart, segment: segment, at: recordOffset)
        case .lost(let count):
            try skipNumbers(count, at: recordOffset, tag: tagByte)
            lost(count, at: recordOffset)
        case .chunk(let number, let firstEvent, let bytes):
            try chunk(number, firstEvent: firstEvent, bytes: bytes, at: recordOffset)
        case .continues(let rawReason, let writtenEvents, let lostBetween, let utf8):
            let how = TraceFormat.FileLoss(rawValue: rawReason)?.description ?? "lost"
            let path = String(decoding: utf8.prefix(TraceFormat.maximumReadableStringLength), as: UTF8.self)
            continuedFrom = (path, how)
            lostEvents &+= writtenEvents &+ lostBetween
            warnings.append(
                TraceWarning(
                    offset: recordOffset,
                    message:
                        "this trace continues \(path), which was \(how) while it was written: its \(writtenEvents) "
                        + "events are not here, and \(lostBetween) more reached neither file"))
        case .writer(let process, let group, let session):
            writer = (process, group, session)
        case .event:
            break
        }
    }

    /// A `window` record (a flight recording's later segment): the events before the file are not
    /// in it. Those the segment before holds are named; those dropped for good count as lost, so a
    /// gate knows the trace is not the program's whole history. Nothing earlier is invented: what
    /// this file uses from before it is announced in it as preexisting.
    func flightWindow(_ eventsBefore: UInt64, inPrevious: UInt64, start: UInt64, segment: UInt64, at offset: Int)
        throws(TraceReadError)
    {
        guard inPrevious <= eventsBefore, eventsBefore <= TraceFormat.maximumSequence else {
            throw .malformedRecord(
                offset: offset, tag: TraceFormat.Tag.window.rawValue,
                reason: "a window of \(eventsBefore) events before it, \(inPrevious) of them in the segment before")
        }
        let dropped = eventsBefore - inPrevious
        window = (dropped, inPrevious, start, segment)
        lostEvents &+= dropped
        let before =
            "the last \(inPrevious) are in the segment before it, \(previousSegmentName) while that is kept; "
            + "\(dropped) were dropped"
        warnings.append(
            TraceWarning(
                offset: offset,
                message:
                    "this is segment \(segment) of a flight recording (BIND_TRACE_LIMIT): the \(eventsBefore) events "
                    + "before it are not here (\(before)); Outputs and subscriptions made before it are announced "
                    + "as preexisting, and findings say so"))
    }

    /// Where the recorder kept the segment before this one (`FlightRecorder`'s naming): beside the newest
    /// segment `run.trace`, `run.previous.trace`. Read from memory, or from a file named otherwise (a copy,
    /// or the previous segment itself, whose own predecessor is gone), the rule is given instead.
    var previousSegmentName: String {
        guard let fileName, fileName.hasSuffix(".trace"), !fileName.hasSuffix(".previous.trace") else {
            return "<name>.previous.trace beside the newest segment <name>.trace"
        }
        return "\(fileName.dropLast(".trace".count)).previous.trace beside it"
    }

    /// A `lost` record: its events are counted, the event numbers go on past them, and one warning
    /// per trace sums every such record.
    func lost(_ count: UInt64, at offset: Int) {
        lostEvents &+= count
        guard var summary = lostRecords else {
            lostRecords = (1, count, warnings.count)
            warnings.append(TraceWarning(offset: offset, message: "the recorder lost \(count) events here"))
            return
        }
        summary.count += 1
        summary.events &+= count
        lostRecords = summary
        warnings[summary.warning].message =
            "the recorder lost \(summary.events) events in \(summary.count) places (the first here)"
    }

    /// A `chunk` record. A chunk numbered like one read before is a second copy: its records are
    /// skipped, so no event is counted twice. A chunk whose first event is past the next number
    /// means events went missing with nothing to say so: they are counted as lost.
    func chunk(_ number: UInt64, firstEvent: UInt64, bytes: UInt64, at offset: Int) throws(TraceReadError) {
        guard number > lastChunk else {
            repeatedChunks += 1
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "chunk \(number) is written again here (\(bytes) bytes); its events were read once"))
            try skip(bytes: bytes, chunkAt: offset)
            return
        }
        lastChunk = number
        let expected = sequence &+ 1
        if firstEvent > expected {
            let missing = firstEvent - expected
            try skipNumbers(missing, at: offset, tag: TraceFormat.Tag.chunk.rawValue)
            lostEvents &+= missing
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "\(missing) events are missing before chunk \(number), and no lost record says so"))
        } else if firstEvent < expected {
            warnings.append(
                TraceWarning(
                    offset: offset,
                    message: "chunk \(number) starts at event \(firstEvent), but \(expected - 1) events came before it")
            )
        }
    }

    /// The next event's number is `count` past the last one's; a trace never numbers more than
    /// ``TraceFormat/maximumSequence`` events.
    func skipNumbers(_ count: UInt64, at offset: Int, tag: UInt8) throws(TraceReadError) {
        guard count <= TraceFormat.maximumSequence - min(sequence, TraceFormat.maximumSequence) else {
            throw .malformedRecord(offset: offset, tag: tag, reason: "\(count) lost events: more than a trace numbers")
        }
        sequence += count
        skippedSequenceNumbers += count
    }

    /// Skips the records of a repeated chunk: `bytes` bytes of whole records after its `chunk` record.
    func skip(bytes: UInt64, chunkAt offset: Int) throws(TraceReadError) {
        let end = UInt64(bufferOffset + position) &+ bytes
        while UInt64(bufferOffset + position) < end {
            guard let frame = try readFrame(at: bufferOffset + position) else { return }
            position = frame.payload.upperBound
        }
        guard UInt64(bufferOffset + position) == end else {
            throw .malformedRecord(
                offset: offset, tag: TraceFormat.Tag.chunk.rawValue, reason: "its records end past its length")
        }
    }
}
