/* The fuzzer's allocator for large blocks (large_blocks.c): how many are live now. */
long large_blocks_live(void);
