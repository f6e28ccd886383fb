import Testing

@_spi(Harness) @testable import BindGraph

@Suite("Colours")
struct GraphColorTests {
    @Test("hex strings round-trip, with alpha only when translucent")
    func hex() {
        #expect(GraphColor(hex: "#1565c0")?.hexString == "#1565c0")
        #expect(GraphColor(hex: "abc") == GraphColor(red: 0xAA, green: 0xBB, blue: 0xCC))
        #expect(GraphColor(hex: "#11223344")?.hexString == "#11223344")
        #expect(GraphColor(hex: "red") == nil)
        #expect(GraphColor(hex: "#12345") == nil)
    }

    @Test("fading scales opacity")
    func fading() {
        #expect(GraphColor.black.withOpacity(0.5).hexString == "#00000080")
    }
}
