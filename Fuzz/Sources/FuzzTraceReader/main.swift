// Fuzz target (a): the trace reader on arbitrary bytes.
//
// Must throw or finish, never crash or hang, and keep the format's promises (see `readChecked`).
// For one input in eight (chosen by content, so a crash reproduces) the file reader, which buffers
// and refills, must agree with the in-memory reader; it costs a file and a 1 MiB buffer per input.
import BindTraceModel
import FuzzSupport

runFuzzer { bytes in
    let outcome = readChecked(bytes)
    if bytes.reduce(0, &+) % 8 == 0 {
        readFileChecked(bytes, matching: outcome)
    }
}
