// The Tracing build's `BindSite`; the plain build's, with empty bodies, is in UntracedProbes.swift.

#if Tracing
/// Who bound a subscription and where, kept inline with the subscriber (as its probe).
@usableFromInline
struct BindSite {
    @usableFromInline let origin: BindOrigin
    @usableFromInline let line: UInt
    @usableFromInline let file: StaticString

    @inlinable
    init(origin: BindOrigin, file: StaticString, line: UInt) {
        self.origin = origin
        self.line = line
        self.file = file
    }

    @inlinable static func closure(file: StaticString, line: UInt) -> BindSite {
        BindSite(origin: .closure, file: file, line: line)
    }
    @inlinable static func `operator`(file: StaticString, line: UInt) -> BindSite {
        BindSite(origin: .operator, file: file, line: line)
    }
    /// The Binder's delivery closure keeps its target alive (see ``BindOrigin``).
    @inlinable static func binder(_ probe: BinderProbe, file: StaticString, line: UInt) -> BindSite {
        BindSite(origin: .binder(.passUnretained(probe.target)), file: file, line: line)
    }
}
#endif
