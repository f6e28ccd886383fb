import BindText

/// Writes a timeline as a Perfetto trace: a `Trace` of `TracePacket`s holding `TrackDescriptor`s and
/// `TrackEvent`s (protos/perfetto/trace in google/perfetto), streamed to a file.
///
/// Every packet is on one sequence. Event names, categories and annotation names are interned:
/// each is written once, in the `interned_data` of the first packet that uses it, and referred to by
/// an id after that (most events repeat a name: an update of one Output from one line). At most
/// ``maximumInternedNames`` of each are interned; later new ones are written in full, so a trace of
/// endless distinct labels cannot grow the tables without bound. Field numbers are those of
/// Perfetto's published `.proto` files (docs/export.md lists them).
final class PerfettoTraceWriter: TimelineSink {
    private let output: AtomicFileStream
    private var isFirstPacket = true
    private var eventNames: [String: UInt64] = [:]
    private var categories: [String: UInt64] = [:]
    private var annotationNames: [String: UInt64] = [:]

    /// Bounds the memory of the event-name table (a name is at most a few hundred bytes).
    static let maximumInternedNames = 16_384

    /// The one packet sequence of the file.
    private static var sequenceID: UInt64 { 1 }

    init(output: AtomicFileStream) {
        self.output = output
    }

    private enum Field {
        // Trace
        static let packet: UInt64 = 1
        // TracePacket
        static let timestamp: UInt64 = 8
        static let trustedPacketSequenceID: UInt64 = 10
        static let trackEvent: UInt64 = 11
        static let internedData: UInt64 = 12
        static let sequenceFlags: UInt64 = 13
        static let trackDescriptor: UInt64 = 60
        // TrackDescriptor
        static let uuid: UInt64 = 1
        static let name: UInt64 = 2
        static let process: UInt64 = 3
        static let thread: UInt64 = 4
        static let parentUUID: UInt64 = 5
        // ProcessDescriptor
        static let processID: UInt64 = 1
        static let processName: UInt64 = 6
        // ThreadDescriptor
        static let threadProcessID: UInt64 = 1
        static let threadID: UInt64 = 2
        static let threadName: UInt64 = 5
        // InternedData, and the EventCategory, EventName and DebugAnnotationName it holds
        static let internedCategories: UInt64 = 1
        static let internedEventNames: UInt64 = 2
        static let internedAnnotationNames: UInt64 = 3
        static let internedID: UInt64 = 1
        static let internedName: UInt64 = 2
        // TrackEvent
        static let categoryIIDs: UInt64 = 3
        static let debugAnnotations: UInt64 = 4
        static let nameIID: UInt64 = 10
        static let type: UInt64 = 9
        static let trackUUID: UInt64 = 11
        static let categories: UInt64 = 22
        static let eventName: UInt64 = 23
        static let flowIDs: UInt64 = 47
        static let terminatingFlowIDs: UInt64 = 48
        // DebugAnnotation
        static let annotationNameIID: UInt64 = 1
        static let uintValue: UInt64 = 3
        static let stringValue: UInt64 = 6
        static let annotationName: UInt64 = 10
    }

    /// `TrackEvent.Type`.
    private static func type(_ phase: TimelineEvent.Phase) -> UInt64 {
        switch phase {
        case .begin: 1  // TYPE_SLICE_BEGIN
        case .end: 2  // TYPE_SLICE_END
        case .instant: 3  // TYPE_INSTANT
        }
    }

    /// The process id every track names (a trace is one process; its real id is not recorded).
    static let processID: UInt64 = 1

    func declare(_ declaration: TrackDeclaration) throws(TimelineWriteError) {
        var descriptor = ProtobufMessage()
        descriptor.varint(Field.uuid, declaration.track.uuid)
        descriptor.string(Field.name, declaration.name)
        switch declaration.role {
        case .process:
            var process = ProtobufMessage()
            process.varint(Field.processID, Self.processID)
            process.string(Field.processName, declaration.name)
            descriptor.message(Field.process, process)
        case .thread(let ordinal):
            var thread = ProtobufMessage()
            thread.varint(Field.threadProcessID, Self.processID)
            thread.varint(Field.threadID, UInt64(ordinal))
            thread.string(Field.threadName, declaration.name)
            descriptor.message(Field.thread, thread)
        case .scope(let parent):
            descriptor.varint(Field.parentUUID, parent.uuid)
        case .findings:
            descriptor.varint(Field.parentUUID, TimelineTrack.process.uuid)
        }
        var packet = packetHeader(usesInternedData: false)
        packet.message(Field.trackDescriptor, descriptor)
        try write(packet)
    }

    func write(_ event: TimelineEvent) throws(TimelineWriteError) {
        var interned = ProtobufMessage()
        var trackEvent = ProtobufMessage()
        for annotation in event.annotations {
            var debug = ProtobufMessage()
            if let id = intern(
                annotation.name, in: &annotationNames, field: Field.internedAnnotationNames, into: &interned)
            {
                debug.varint(Field.annotationNameIID, id)
            } else {
                debug.string(Field.annotationName, annotation.name)
            }
            switch annotation.value {
            case .text(let text): debug.string(Field.stringValue, text)
            case .number(let number): debug.varint(Field.uintValue, number)
            }
            trackEvent.message(Field.debugAnnotations, debug)
        }
        trackEvent.varint(Field.type, Self.type(event.phase))
        trackEvent.varint(Field.trackUUID, event.track.uuid)
        if !event.category.isEmpty {
            if let id = intern(event.category, in: &categories, field: Field.internedCategories, into: &interned) {
                trackEvent.varint(Field.categoryIIDs, id)
            } else {
                trackEvent.string(Field.categories, event.category)
            }
        }
        if event.phase != .end {
            if let id = intern(event.name, in: &eventNames, field: Field.internedEventNames, into: &interned) {
                trackEvent.varint(Field.nameIID, id)
            } else {
                trackEvent.string(Field.eventName, event.name)
            }
        }
        for flow in event.flowsOut { trackEvent.fixed64(Field.flowIDs, flow) }
        for flow in event.flowsIn { trackEvent.fixed64(Field.terminatingFlowIDs, flow) }
        var packet = packetHeader(usesInternedData: true)
        packet.varint(Field.timestamp, event.time)
        packet.message(Field.trackEvent, trackEvent)
        if !interned.bytes.isEmpty { packet.message(Field.internedData, interned) }
        try write(packet)
    }

    func finish() throws(TimelineWriteError) {
        do {
            try output.commit()
        } catch {
            throw .unwritableOutput(error)
        }
    }

    /// The id of `text` in `table`, adding it (to the table and to `interned`, the packet's new
    /// entries) when new; `nil` when the table is full (write the text in full instead). Ids start at 1.
    private func intern(
        _ text: String, in table: inout [String: UInt64], field: UInt64, into interned: inout ProtobufMessage
    ) -> UInt64? {
        if let id = table[text] { return id }
        guard table.count < Self.maximumInternedNames else { return nil }
        let id = UInt64(table.count + 1)
        table[text] = id
        var entry = ProtobufMessage()
        entry.varint(Field.internedID, id)
        entry.string(Field.internedName, text)
        interned.message(field, entry)
        return id
    }

    private func packetHeader(usesInternedData: Bool) -> ProtobufMessage {
        var packet = ProtobufMessage()
        packet.varint(Field.trustedPacketSequenceID, Self.sequenceID)
        // SEQ_INCREMENTAL_STATE_CLEARED (1) on the first packet: the interning starts there;
        // SEQ_NEEDS_INCREMENTAL_STATE (2) on every packet that refers to interned names.
        let flags: UInt64 = (isFirstPacket ? 1 : 0) | (usesInternedData ? 2 : 0)
        if flags != 0 { packet.varint(Field.sequenceFlags, flags) }
        isFirstPacket = false
        return packet
    }

    private func write(_ packet: ProtobufMessage) throws(TimelineWriteError) {
        var framed = ProtobufMessage()
        framed.message(Field.packet, packet)
        do {
            try output.write(framed.bytes)
        } catch {
            throw .unwritableOutput(error)
        }
    }
}
