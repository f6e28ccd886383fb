#if Tracing
/// The capture layouts worked out so far, by context metadata address, and the names of classes met through
/// existentials. Metadata is never freed, so neither key goes stale. One lock; a hit takes it once.
final class CaptureLayoutCache: @unchecked Sendable {
    static let shared = CaptureLayoutCache()

    private let lock = Lock()
    private var layouts: [UnsafeRawPointer: CaptureLayout] = [:]
    private var classNames: [UnsafeRawPointer: String] = [:]
    private var existentialContents: [UnsafeRawPointer: ExistentialContent] = [:]

    private init() {}

    /// The layout of contexts with this metadata. Worked out outside the lock (it asks the runtime to resolve
    /// type names); two threads missing at once both work it out and agree.
    func layout(forContextMetadata metadata: UnsafeRawPointer) -> CaptureLayout {
        lock.lock()
        let known = layouts[metadata]
        lock.unlock()
        if let known { return known }
        let layout = CaptureLayout(contextMetadata: metadata)
        lock.withLock { layouts[metadata] = layout }
        return layout
    }

    /// The dynamic type name of a live class instance, by its isa.
    func className(ofObject object: UnsafeRawPointer) -> String {
        let metadata = object.load(as: UnsafeRawPointer.self)
        lock.lock()
        let known = classNames[metadata]
        lock.unlock()
        if let known { return known }
        let name = RuntimeType(metadata: metadata).name
        lock.withLock { classNames[metadata] = name }
        return name
    }

    /// What an opaque existential holding a value of this dynamic type keeps alive.
    enum ExistentialContent {
        case nothing
        case object(typeName: String)
        case unknown(String)
    }

    func existentialContent(ofTypeMetadata metadata: UnsafeRawPointer) -> ExistentialContent {
        lock.lock()
        let known = existentialContents[metadata]
        lock.unlock()
        if let known { return known }
        let type = RuntimeType(metadata: metadata)
        let content: ExistentialContent
        if type.isPlainData || type.isText {
            content = .nothing
        } else if type.kind == .class {
            content = .object(typeName: type.name)
        } else {
            content = .unknown("<\(type.name)>")
        }
        lock.withLock { existentialContents[metadata] = content }
        return content
    }
}
#endif
