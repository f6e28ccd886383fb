// Records a known number of updates, waits past a flush, says so, then keeps recording until
// killed. Run with BIND_TRACE=/path: the trace tests kill it and read what reached the file.
import Bind

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = CommandLine.arguments
let count = arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000
let counter = Output<Int>(value: 0).labeled("counter")
counter.bind { _ in }
for value in 1...count { counter.update(withValue: value) }
// The recorder flushes at least every 100 ms.
usleep(400_000)
let line = Array("flushed \(count)\n".utf8)
line.withUnsafeBytes { _ = write(1, $0.baseAddress, $0.count) }
if arguments.count > 2 && arguments[2] == "exit" { exit(0) }
var value = count
while true {
    value += 1
    counter.update(withValue: value)
    if value % 1000 == 0 { usleep(1000) }
}
