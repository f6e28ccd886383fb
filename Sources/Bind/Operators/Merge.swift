import BindTraceFormat

extension Output {
    /// An Output that passes on every value of `first` and of `second`.
    ///
    /// As in the original framework, the result stores the latest value when either source stores,
    /// so a closure bound later gets it even when it came from a ``Relay``: storing only what came
    /// from an Output would need a delivery that does not store, which the traced path lacks.
    @inlinable
    public static func merge(
        _ first: Output<Value>, _ second: Output<Value>, file: StaticString = #fileID, line: UInt = #line
    ) -> Output<Value> {
        let derived = Output<Value>(
            value: nil, storesValues: first.storesValues || second.storesValues, kind: .merge, file: file,
            line: line)
        for source in [first, second] {
            source.recordEdge(to: derived, kind: .merge)
            source.bindInternal({ value in derived.updateFromOperator(value) }, file: file, line: line)
        }
        return derived
    }

    /// ``merge(_:_:file:line:)`` as a function value: records no call site.
    @_disfavoredOverload
    @inlinable
    public static func merge(_ first: Output<Value>, _ second: Output<Value>) -> Output<Value> {
        merge(first, second, file: #fileID, line: #line)
    }
}
