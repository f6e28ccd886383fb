import BindText
import Testing

@_spi(Harness) @testable import BindReport

@Suite("SHA-256 and Base64, for the Content-Security-Policy hashes")
struct SHA256Tests {
    @Test(
        "digests match the FIPS 180-4 test vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                String(repeating: "a", count: 1_000_000),
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
            ),
        ])
    func knownVectors(message: String, digest: String) {
        #expect(SHA256.hex(message) == digest)
    }

    @Test("lengths around the 55/56/64-byte padding edges hash like the reference")
    func paddingEdges() {
        // Reference values from `printf 'a%.0s' {1..N} | sha256sum`.
        #expect(
            SHA256.hex(String(repeating: "a", count: 55))
                == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(
            SHA256.hex(String(repeating: "a", count: 56))
                == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(
            SHA256.hex(String(repeating: "a", count: 64))
                == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
    }

    @Test(
        "Base64 matches RFC 4648's examples",
        arguments: [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ])
    func base64(input: String, output: String) {
        #expect(Base64.encode(Array(input.utf8)) == output)
    }

    @Test("a CSP source is the Base64 digest in quotes")
    func cspSource() {
        #expect(SHA256.cspSource(for: "abc") == "'sha256-ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0='")
    }
}
