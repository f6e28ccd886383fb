// The Tracing build's `UpdateSite`; the plain build's, with empty bodies, is in UntracedProbes.swift.

#if Tracing
/// Where `update(withValue:)` or `fire()` was called. Recorded only for a root update (no
/// subscription's closure running): the one deeper updates are caused by.
@usableFromInline
struct UpdateSite {
    @usableFromInline let file: StaticString
    @usableFromInline let line: UInt

    @inlinable
    init(file: StaticString, line: UInt) {
        self.file = file
        self.line = line
    }

    @inlinable static func call(file: StaticString, line: UInt) -> UpdateSite { UpdateSite(file: file, line: line) }

    /// The file's address, which identifies it (0 for a string without one, never `#fileID`).
    @inlinable var fileAddress: UInt {
        file.hasPointerRepresentation ? UInt(bitPattern: file.utf8Start) : 0
    }

    /// Whether `info`'s last recorded root update was called here: then this one needs no record.
    @inlinable func isLastCall(of info: OutputTraceInfo) -> Bool {
        info.lastCallLine == line && info.lastCallFile == fileAddress && fileAddress != 0
    }
}
#endif
