extension Output {
    /// An Output that passes on every value of `first` and of `second`.
    ///
    /// Like everything derived from a ``Relay``, the result stores nothing when either source is one.
    public static func merge(
        _ first: Output<Value>, _ second: Output<Value>, file: StaticString = #fileID, line: UInt = #line
    ) -> Output<Value> {
        let derived = Output<Value>(
            value: nil, storesValues: first.storesValues && second.storesValues, kind: .merge, file: file,
            line: line)
        for source in [first, second] {
            source.recordEdge(to: derived, kind: .merge)
            source.bindInternal({ value in derived.update(withValue: value) }, file: file, line: line)
        }
        return derived
    }
}
