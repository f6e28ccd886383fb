#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif

/// The trace files named on the command line: files, directories (their `*.trace` files) and glob
/// patterns (`'bind-traces/*.trace'`, for when the shell did not expand them).
struct TraceInputs {
    /// One trace file to read.
    struct Input: Hashable {
        let path: String
        /// Named by the user (a bad file is an error), not found in a directory or by a pattern (a file
        /// that is not a trace is skipped with a warning).
        let isExplicit: Bool
    }

    /// Expands `arguments`, in their order, each directory's files sorted by name, without repeats.
    ///
    /// - Throws: ``ToolFailure`` naming the argument: a path that does not exist, a pattern that
    ///   matches nothing, a directory without traces.
    static func expand(_ arguments: [String]) throws(ToolFailure) -> [Input] {
        var inputs: [Input] = []
        var seen: Set<String> = []
        func add(_ path: String, explicit: Bool) {
            if seen.insert(path).inserted { inputs.append(Input(path: path, isExplicit: explicit)) }
        }
        for argument in arguments {
            if isDirectory(argument) {
                let traces = try traceFiles(in: argument)
                traces.forEach { add($0, explicit: false) }
            } else if exists(argument) {
                add(argument, explicit: true)
            } else if argument.contains(where: { "*?[".contains($0) }) {
                let matches = matches(of: argument)
                if matches.isEmpty { throw ToolFailure("\(argument): no file matches this pattern") }
                let found = inputs.count
                for match in matches {
                    if isDirectory(match) {
                        try traceFiles(in: match).forEach { add($0, explicit: false) }
                    } else if isReadableAsFile(match) {
                        add(match, explicit: false)
                    }
                }
                if inputs.count == found && !matches.contains(where: seen.contains) {
                    throw ToolFailure(
                        "\(argument): no trace file matches this pattern (only FIFOs, sockets or devices)")
                }
            } else {
                // Let the reader say why (no such file, permission): one line naming the path.
                add(argument, explicit: true)
            }
        }
        return inputs
    }

    private static func traceFiles(in directory: String) throws(ToolFailure) -> [String] {
        guard let handle = opendir(directory) else {
            throw ToolFailure("\(directory): cannot open the directory: \(String(cString: strerror(errno)))")
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name.hasSuffix(".trace") && !name.hasPrefix(".") { names.append(name) }
        }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        let files = names.sorted().map { base + $0 }.filter { !isDirectory($0) && isReadableAsFile($0) }
        if files.isEmpty { throw ToolFailure("\(directory): no *.trace files in this directory") }
        return files
    }

    private static func matches(of pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard glob(pattern, 0, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            result.gl_pathv[index].map { String(cString: $0) }
        }
    }

    private static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    /// Whether a file found in a directory or by a pattern can be read to its end: a FIFO, socket or
    /// device there (a symbolic link to `/dev/zero`, a pipe nobody writes) would block or never end,
    /// so it is skipped with a warning. One named on its own is read as given (`<(zcat app.trace.gz)`).
    private static func isReadableAsFile(_ path: String) -> Bool {
        var status = stat()
        // A dangling link or a file gone since the listing: the reader says why.
        guard stat(path, &status) == 0 else { return true }
        let kind = status.st_mode & S_IFMT
        if kind == S_IFREG { return true }
        let name =
            switch kind {
            case S_IFIFO: "a FIFO"
            case S_IFSOCK: "a socket"
            case S_IFCHR, S_IFBLK: "a device"
            default: "not a regular file"
            }
        StandardError.write("bind-trace: \(path): warning: skipped: \(name), not a trace file")
        return false
    }

    private static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
