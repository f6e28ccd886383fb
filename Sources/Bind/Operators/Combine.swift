import BindTraceFormat

extension Output {
    /// An Output of the latest pair of values, updated whenever either source updates once both have a value.
    ///
    /// The sources are not retained: each keeps the result alive through the closure it holds. Once
    /// either source is released, the result emits nothing more, as in the original framework.
    /// A ``Relay`` among the sources is never replayed: its value pairs only with the update it
    /// arrives in, and the result of a combine with a Relay stores nothing.
    ///
    /// ```swift
    /// let form = Output.combine(name, age)   // Output<(String, Int)>
    /// ```
    @inlinable
    public static func combine<A, B>(
        _ first: Output<A>, _ second: Output<B>, file: StaticString = #fileID, line: UInt = #line
    ) -> Output<(A, B)> {
        combinePair(first, second, file: file, line: line)
    }

    /// `combine(_:_:file:line:)` as a function value: records no call site.
    @_disfavoredOverload
    @inlinable
    public static func combine<A, B>(_ first: Output<A>, _ second: Output<B>) -> Output<(A, B)> {
        combinePair(first, second, file: #fileID, line: #line)
    }

    /// ``combine(_:_:file:line:)->Output<(Value,Value)>`` of this type as a function value: records no call site.
    @_disfavoredOverload
    @inlinable
    public static func combine(_ first: Output<Value>, _ second: Output<Value>) -> Output<(Value, Value)> {
        Output<(Value, Value)>.combinePair(first, second, file: #fileID, line: #line)
    }

    /// ``combine(outputs:file:line:)`` as a function value: records no call site.
    @_disfavoredOverload
    @inlinable
    public static func combine(outputs: [Output<Value>]) -> Output<[Value]> {
        combine(outputs: outputs, file: #fileID, line: #line)
    }

    /// `combine(_:_:file:line:)` for two Outputs of this type: `Output.combine(a, b)` needs no type spelled out.
    @inlinable
    public static func combine(
        _ first: Output<Value>, _ second: Output<Value>, file: StaticString = #fileID, line: UInt = #line
    ) -> Output<(Value, Value)> {
        Output<(Value, Value)>.combinePair(first, second, file: file, line: line)
    }

    /// An Output of the latest values of all `outputs`, in order, once every one has a value.
    ///
    /// With no outputs at all, every one of them has a value: the result holds `[]` from the start.
    /// The sources are not retained; once any of them is released, the result emits nothing more,
    /// as in the original framework.
    @inlinable
    public static func combine(
        outputs: [Output<Value>], file: StaticString = #fileID, line: UInt = #line
    ) -> Output<[Value]> {
        let derived = Output<[Value]>(
            value: outputs.isEmpty ? [] : nil, storesValues: outputs.allSatisfy(\.storesValues), kind: .combine,
            file: file, line: line)
        let latest = Guarded([Value?](repeating: nil, count: outputs.count))
        let sourcesAlive = SourcesAlive()
        for (index, source) in outputs.enumerated() {
            source.recordEdge(to: derived, kind: .combine)
            let remembers = source.storesValues
            let watch = sourcesAlive.watch(source.stopProbe(for: derived))
            source.bindInternal(
                { value in
                    guard watch.allAlive else { return }
                    let all: [Value]? = latest.update { latest in
                        if remembers { latest[index] = value }
                        var all: [Value] = []
                        all.reserveCapacity(latest.count)
                        for (slot, stored) in latest.enumerated() {
                            if slot == index {
                                all.append(value)
                            } else if let stored {
                                all.append(stored)
                            } else {
                                return nil
                            }
                        }
                        return all
                    }
                    if let all { derived.updateFromOperator(all) }
                }, file: file, line: line)
        }
        return derived
    }
}

extension Output {
    /// Both `combine(_:_:)` overloads. A source that does not store (a ``Relay``) is not remembered
    /// either: as in the original framework, which read the other source's stored `value`.
    @inlinable
    static func combinePair<A, B>(_ first: Output<A>, _ second: Output<B>, file: StaticString, line: UInt)
        -> Output<(A, B)>
    {
        let derived = Output<(A, B)>(
            value: nil, storesValues: first.storesValues && second.storesValues, kind: .combine, file: file,
            line: line)
        let latest = Guarded<(A?, B?)>((nil, nil))
        let remembersFirst = first.storesValues
        let remembersSecond = second.storesValues
        first.recordEdge(to: derived, kind: .combine)
        second.recordEdge(to: derived, kind: .combine)
        let sourcesAlive = SourcesAlive()
        let firstWatch = sourcesAlive.watch(first.stopProbe(for: derived))
        let secondWatch = sourcesAlive.watch(second.stopProbe(for: derived))
        first.bindInternal(
            { a in
                guard firstWatch.allAlive else { return }
                let pair: (A, B)? = latest.update { latest in
                    if remembersFirst { latest.0 = a }
                    return latest.1.map { (a, $0) }
                }
                if let pair { derived.updateFromOperator(pair) }
            }, file: file, line: line)
        second.bindInternal(
            { b in
                guard secondWatch.allAlive else { return }
                let pair: (A, B)? = latest.update { latest in
                    if remembersSecond { latest.1 = b }
                    return latest.0.map { ($0, b) }
                }
                if let pair { derived.updateFromOperator(pair) }
            }, file: file, line: line)
        return derived
    }
}

extension Output where Value == Never {
    /// Lets `Output.combine(isLiked, likes)` pair two Outputs of different types with no type spelled out.
    @inlinable
    public static func combine<A, B>(
        _ first: Output<A>, _ second: Output<B>, file: StaticString = #fileID, line: UInt = #line
    ) -> Output<(A, B)> {
        Output<A>.combinePair(first, second, file: file, line: line)
    }
}

/// Whether every source of a combine is still alive, with no weak reference to any of them.
///
/// Each source's bound closure holds one ``Watch``; a source that is released releases its
/// closures, so the watch's `deinit` tells the others, and the trace (the combine stopped).
@usableFromInline
final class SourcesAlive: @unchecked Sendable {
    private let lock = Lock()
    /// Guarded by `lock`.
    private var anyReleased = false

    @usableFromInline init() {}

    deinit { lock.deallocate() }

    @usableFromInline var allAlive: Bool { lock.withLock { !anyReleased } }

    /// A watch for one more source: its closure must hold it.
    @usableFromInline func watch(_ probe: StopProbe) -> Watch { Watch(self, probe: probe) }

    /// Marks a source released; true for the first, the moment the combine stops.
    fileprivate func released() -> Bool {
        lock.withLock {
            defer { anyReleased = true }
            return !anyReleased
        }
    }

    /// Held by one source's closure: released with it.
    @usableFromInline
    final class Watch: @unchecked Sendable {
        private let sources: SourcesAlive
        private let probe: StopProbe

        fileprivate init(_ sources: SourcesAlive, probe: StopProbe) {
            self.sources = sources
            self.probe = probe
        }

        deinit { if sources.released() { probe.stopped() } }

        @usableFromInline var allAlive: Bool { sources.allAlive }
    }
}
