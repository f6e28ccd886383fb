// libFuzzer's driver, linked in by `-sanitize=fuzzer`. SwiftPM gives every executable its own
// `main`, so the fuzz targets call the driver from there rather than using libFuzzer's `main`.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
