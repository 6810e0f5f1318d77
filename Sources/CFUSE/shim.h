#ifndef ASSETFS_CFUSE_SHIM_H
#define ASSETFS_CFUSE_SHIM_H
#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>
#include <fuse_opt.h>

/* `fuse_session_loop_mt`, `fuse_parse_cmdline` and `FUSE_ARGS_INIT` are macros, invisible to Swift. */
static inline int cfuse_session_loop_mt(struct fuse_session *se, struct fuse_loop_config *config) {
    return fuse_session_loop_mt(se, config);
}
static inline struct fuse_args cfuse_args_init(int argc, char **argv) {
    struct fuse_args args = FUSE_ARGS_INIT(argc, argv);
    return args;
}
static inline int cfuse_parse_cmdline(struct fuse_args *args, struct fuse_cmdline_opts *opts) {
    return fuse_parse_cmdline(args, opts);
}
#endif
