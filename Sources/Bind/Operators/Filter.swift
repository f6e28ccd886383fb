import BindTraceFormat

extension Output {
    /// An Output of the values of this one for which `isIncluded` is true.
    @inlinable
    public final func filter(
        file: StaticString = #fileID, line: UInt = #line, _ isIncluded: @escaping (Value) -> Bool
    ) -> Output<Value> {
        let derived = derive(Value.self, kind: .filter, file: file, line: line)
        bindInternal(
            { value in if isIncluded(value) { derived.updateFromOperator(value) } }, file: file, line: line,
            captures: .init(isIncluded))
        return derived
    }

    /// ``filter(file:line:_:)`` as a function value: records no call site.
    @_disfavoredOverload
    @inlinable
    public final func filter(_ isIncluded: @escaping (Value) -> Bool) -> Output<Value> {
        filter(file: #fileID, line: #line, isIncluded)
    }
}
