internal import CFUSE
import Glibc

/// A command line as libfuse understands it, parsed by libfuse itself (`fuse_opt_parse`, then
/// `fuse_parse_cmdline`), with assetfs's own `-o` options and the SOURCE argument taken out
/// first (libfuse takes one positional argument). Options may come before or after the
/// positional arguments, as mount.fuse3 passes them.
public struct FUSEArguments: Sendable {
    /// The first non-option argument.
    public var source: String?
    public var mountpoint: String?
    public var foreground = false
    public var debug = false
    public var singleThreaded = false
    public var showHelp = false
    public var showVersion = false
    /// Our own `-o key=value` options, in the order given.
    public var ownOptions: [(key: String, value: String)] = []
    /// What is left for `fuse_session_new`: program name and standard FUSE options.
    public var libfuseArguments: [String] = []

    public struct Failure: Error, Sendable { public var message: String }

    /// `ownKeys` are the option names (before `=`, or whole for flags) that assetfs handles.
    public init(_ arguments: [String], ownKeys: Set<String>) throws(Failure) {
        final class Context {
            let ownKeys: Set<String>
            var positional: [String] = []
            var own: [(String, String)] = []
            init(ownKeys: Set<String>) { self.ownKeys = ownKeys }
        }
        let context = Context(ownKeys: ownKeys)
        var args = Self.makeArgs(["assetfs"] + arguments)
        defer { fuse_opt_free_args(&args) }
        let status = withExtendedLifetime(context) {
            fuse_opt_parse(&args, Unmanaged.passUnretained(context).toOpaque(), nil) { data, arg, key, _ in
                let context = Unmanaged<Context>.fromOpaque(data!).takeUnretainedValue()
                let text = String(cString: arg!)
                if key == FUSE_OPT_KEY_NONOPT {
                    if context.positional.isEmpty { context.positional.append(text); return 0 }  // SOURCE
                    context.positional.append(text)
                    return 1
                }
                let name = String(text.prefix { $0 != "=" })
                guard key == FUSE_OPT_KEY_OPT, context.ownKeys.contains(name) else { return 1 }
                context.own.append((name, text.contains("=") ? String(text.drop { $0 != "=" }.dropFirst()) : ""))
                return 0
            }
        }
        guard status == 0 else { throw Failure(message: "cannot parse the options (see 'assetfs --help')") }
        source = context.positional.first
        ownOptions = context.own
        if context.positional.count > 2 {
            throw Failure(message: "too many arguments: '\(context.positional[2])' (expected SOURCE MOUNTPOINT)")
        }
        var options = fuse_cmdline_opts()
        // libfuse checks the mountpoint here, with a message that names no fix: ours come later.
        let (parsedStatus, messages) = LibfuseLog.capturing { cfuse_parse_cmdline(&args, &options) }
        if parsedStatus != 0 {
            guard context.positional.count == 2 else {
                throw Failure(message: "\(messages.first ?? "cannot parse the command line"); see 'assetfs --help'")
            }
            mountpoint = context.positional[1]
        }
        if let mount = options.mountpoint { mountpoint = String(cString: mount); free(mount) }
        libfuseArguments = (0..<Int(args.argc)).map { String(cString: args.argv[$0]!) }
        if let unknown = Self.unknownFlag(in: libfuseArguments) {
            throw Failure(message: "unknown option \(unknown); see 'assetfs --help' for the options")
        }
        foreground = options.foreground != 0
        debug = options.debug != 0
        singleThreaded = options.singlethread != 0
        showHelp = options.show_help != 0
        showVersion = options.show_version != 0
    }

    /// The first dash option (`-x`, `--bogus`) left for `fuse_session_new` that it would refuse.
    /// Asked now, so that the option is named instead of SOURCE or MOUNTPOINT looked for first.
    static func unknownFlag(in libfuseArguments: [String]) -> String? {
        var rest = libfuseArguments.dropFirst()[...]
        while let argument = rest.popFirst() {
            if argument == "-o" { _ = rest.popFirst(); continue }
            if argument.hasPrefix("-o") { continue }
            if argument.hasPrefix("-"), FUSEMount.refusal(of: ["assetfs", argument]) != nil { return argument }
        }
        return nil
    }

    /// Whether `libfuseArguments` let users other than the one mounting in (`-o allow_other`).
    public static func lets(otherUsersIn libfuseArguments: [String]) -> Bool {
        var rest = libfuseArguments.dropFirst()[...]
        while let argument = rest.popFirst() {
            let options = argument == "-o" ? rest.popFirst() ?? "" : argument.hasPrefix("-o") ? String(argument.dropFirst(2)) : ""
            if options.split(separator: ",").contains("allow_other") { return true }
        }
        return false
    }

    static func makeArgs(_ strings: [String]) -> fuse_args {
        var args = cfuse_args_init(0, nil)
        for string in strings { _ = fuse_opt_add_arg(&args, string) }
        return args
    }
}
