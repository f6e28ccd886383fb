import BindTraceFormat

extension Output {
    /// An Output of `transform` applied to each value of this one.
    ///
    /// The result is kept alive by this Output (its bound closure holds it), not the other way round.
    @inlinable
    public final func map<Mapped>(
        file: StaticString = #fileID, line: UInt = #line, _ transform: @escaping (Value) -> Mapped
    ) -> Output<Mapped> {
        let derived = derive(Mapped.self, kind: .map, file: file, line: line)
        bindInternal(
            { value in derived.updateFromOperator(transform(value)) }, file: file, line: line,
            captures: .init(transform))
        return derived
    }

    /// ``map(file:line:_:)`` as a function value: records no call site.
    @_disfavoredOverload
    @inlinable
    public final func map<Mapped>(_ transform: @escaping (Value) -> Mapped) -> Output<Mapped> {
        map(file: #fileID, line: #line, transform)
    }
}
