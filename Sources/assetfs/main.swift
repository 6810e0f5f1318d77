import AssetFSCLI
import Glibc
import Posix

// Measured on the bad-input check (8 readers over every format): peak RSS 667-727 MiB with glibc's
// moving threshold, 594-601 MiB with buffers of 1 MiB and more always mapped.
Allocator.returnBuffersToTheSystem(from: 1 << 20)

exit(AssetFSCommand.main(Array(CommandLine.arguments.dropFirst())))
