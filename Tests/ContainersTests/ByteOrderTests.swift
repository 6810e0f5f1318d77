import Containers
import Testing

struct ByteOrderTests {
    @Test func integersReadInEitherOrder() {
        let bytes: [UInt8] = [0x12, 0x34, 0x56, 0x78, 0x9A]
        #expect(ByteOrder.bigEndian.integer(bytes[0..<2]) == 0x1234)
        #expect(ByteOrder.littleEndian.integer(bytes[0..<2]) == 0x3412)
        #expect(ByteOrder.bigEndian.integer(bytes, at: 1, count: 4) == 0x3456_789A)
        #expect(ByteOrder.littleEndian.integer(bytes, at: 1, count: 4) == 0x9A78_5634)
        // A slice's offsets count from its own start.
        #expect(ByteOrder.bigEndian.integer(bytes[2...], at: 1, count: 2) == 0x789A)
    }

    @Test func eightBytesKeepTheirBitPatternAndShortInputReadsWhatThereIs() {
        #expect(ByteOrder.bigEndian.integer([UInt8](repeating: 0xFF, count: 8)) == -1)
        #expect(ByteOrder.bigEndian.integer([0, 0, 0, 1, 0, 0, 0, 0]) == 1 << 32)
        #expect(ByteOrder.bigEndian.integer([0x01, 0x02], at: 1, count: 4) == 0x02)
        #expect(ByteOrder.littleEndian.integer([], at: 5, count: 4) == 0)
    }

    @Test func writtenBytesReadBackTheSame() {
        for order in [ByteOrder.bigEndian, .littleEndian] {
            for value in [0, 1, 0x2A, 0xBEEF, 0x1234_5678] {
                #expect(order.integer(order.bytes(of: value, count: 4)) == value)
            }
        }
        #expect(ByteOrder.littleEndian.bytes(of: 0x0102, count: 2) == [0x02, 0x01])
        #expect(ByteOrder.bigEndian.bytes(of: 0x0102, count: 2) == [0x01, 0x02])
    }
}
