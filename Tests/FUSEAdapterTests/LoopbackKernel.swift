import CFUSE
@testable import FUSEAdapter
import Foundation
import Glibc

/// libfuse without a mount: a session whose kernel side is this object (fuse_session_custom_io).
/// It writes INIT and then GETATTRs as the kernel would, libfuse hands each GETATTR's request to
/// `handle`, and the replies libfuse sends come back here, so a test sees what the kernel is told.
final class LoopbackKernel {
    /// Each reply's request number and errno (0 for success), in the order libfuse sent them.
    /// Replies may come from another thread (a request answered later): read under `replyLock`.
    private var replies: [(unique: UInt64, errno: Int32)] = []
    private let replyLock = NSLock()
    private let handle: (consuming Request) -> Void
    private var session: OpaquePointer?
    private var nextUnique: UInt64 = 1

    init(handle: @escaping (consuming Request) -> Void) {
        self.handle = handle
        var ops = fuse_lowlevel_ops()
        ops.getattr = { req, _, _ in
            Unmanaged<LoopbackKernel>.fromOpaque(fuse_req_userdata(req)!).takeUnretainedValue().handle(Request(req!))
        }
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup("loopback"), nil]
        defer { free(argv[0]) }
        session = argv.withUnsafeMutableBufferPointer { argv in
            var args = fuse_args(argc: 1, argv: argv.baseAddress, allocated: 0)
            return fuse_session_new(&args, &ops, MemoryLayout<fuse_lowlevel_ops>.size, Unmanaged.passUnretained(self).toOpaque())
        }
        var io = fuse_custom_io(writev: { _, iov, count, userdata in
            Unmanaged<LoopbackKernel>.fromOpaque(userdata!).takeUnretainedValue().receive(UnsafeBufferPointer(start: iov, count: Int(count)))
        }, read: { _, _, _, _ in 0 }, splice_receive: nil, splice_send: nil)
        // libfuse closes the descriptor with the session; nothing is read from or written to it.
        precondition(fuse_session_custom_io(session, &io, open("/dev/null", O_RDWR)) == 0)
        send(opcode: 26, node: 0, body: [7, 31, 0, 0].flatMap(Self.bytes) + [UInt8](repeating: 0, count: 48))  // FUSE_INIT 7.31
    }

    deinit { fuse_session_destroy(session) }

    /// Sends a GETATTR of the root and gives the errno of each reply to it.
    func getattr() -> [Int32] { replies(to: startGetattr()) }

    /// Sends a GETATTR of the root and gives its request number, replied to or not.
    func startGetattr() -> UInt64 {
        send(opcode: 3, node: 1, body: [UInt8](repeating: 0, count: 16))  // FUSE_GETATTR
    }

    /// Sends an INTERRUPT of request `unique`, as the kernel does when its caller gets a signal.
    func interrupt(_ unique: UInt64) {
        send(opcode: 36, node: 0, body: Self.bytes(unique))  // FUSE_INTERRUPT, fuse_interrupt_in
    }

    /// The errno of each reply to request `unique` so far.
    func replies(to unique: UInt64) -> [Int32] {
        replyLock.withLock { replies.filter { $0.unique == unique }.map(\.errno) }
    }

    /// One request as the kernel writes it: a fuse_in_header, then the operation's arguments.
    @discardableResult
    private func send(opcode: UInt32, node: UInt64, body: [UInt8]) -> UInt64 {
        let unique = nextUnique
        nextUnique += 1
        var message = Self.bytes(UInt32(40 + body.count)) + Self.bytes(opcode) + Self.bytes(unique) + Self.bytes(node)
        message += [getuid(), getgid(), UInt32(getpid())].flatMap(Self.bytes) + Self.bytes(UInt32(0)) + body
        message.withUnsafeMutableBytes { raw in
            var buffer = fuse_buf(size: raw.count, flags: fuse_buf_flags(rawValue: 0), mem: raw.baseAddress, fd: -1, pos: 0)
            fuse_session_process_buf(session, &buffer)
        }
        return unique
    }

    /// A reply as libfuse writes it: a fuse_out_header (length, negated errno, request number) first.
    private func receive(_ vectors: UnsafeBufferPointer<iovec>) -> Int {
        let header = UnsafeRawPointer(vectors[0].iov_base!)
        let reply = (unique: header.loadUnaligned(fromByteOffset: 8, as: UInt64.self), errno: -header.loadUnaligned(fromByteOffset: 4, as: Int32.self))
        replyLock.withLock { replies.append(reply) }
        return vectors.reduce(0) { $0 + $1.iov_len }
    }

    private static func bytes<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        withUnsafeBytes(of: value.littleEndian) { Array($0) }
    }
}
