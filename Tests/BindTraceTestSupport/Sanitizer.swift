#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which sanitizer this test process (and the tools built beside it) runs under.
///
/// A few tests measure what sanitizers change by design: ThreadSanitizer kills a child that starts a
/// thread after a multi-threaded `fork`, and both sanitizers reserve terabytes of shadow address space
/// (so `ulimit -v` stops them) and handle crash signals themselves. Those tests say so and skip.
package enum Sanitizer {
    package static let thread = linked("__tsan_init")
    package static let address = linked("__asan_init")
    package static var any: Bool { thread || address }

    private static func linked(_ symbol: String) -> Bool {
        #if canImport(Glibc)
        return dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol) != nil
        #else
        return dlsym(UnsafeMutableRawPointer(bitPattern: -2), symbol) != nil  // RTLD_DEFAULT
        #endif
    }
}
