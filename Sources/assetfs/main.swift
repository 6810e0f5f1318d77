import AssetFSCLI
import Glibc

exit(AssetFSCommand.main(Array(CommandLine.arguments.dropFirst())))
