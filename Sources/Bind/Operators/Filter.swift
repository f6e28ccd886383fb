extension Output {
    /// An Output of the values of this one for which `isIncluded` is true.
    @inlinable
    public final func filter(
        file: StaticString = #fileID, line: UInt = #line, _ isIncluded: @escaping (Value) -> Bool
    ) -> Output<Value> {
        let derived = derive(Value.self, kind: .filter, file: file, line: line)
        bindInternal(
            { value in if isIncluded(value) { derived.update(withValue: value) } }, file: file, line: line)
        return derived
    }
}
