#ifndef ASSETFS_RESAMPLE_AVX2_H
#define ASSETFS_RESAMPLE_AVX2_H
/*
 * AVX2 versions of the bulk of RenditionsKernels' two resampling passes, chosen at run time on
 * CPUs that have AVX2 (RenditionsKernels' own SIMD code is the portable path, and does the rest
 * of each row). Each function does the same multiplications and additions in the same order as
 * that code, without fused multiply-add (not enabled here), so the results are the same to the
 * bit, only 8 lanes wide instead of 4. The contracts are those of resampleRow and
 * resampleColumns in RenditionsKernels; nothing here is checked.
 */
#include <stdint.h>

/* 1 when this CPU runs the functions below (x86-64 with AVX2), else 0: then they must not be called. */
int aresample_avx2_available(void);

/* The horizontal pass of 3-channel rows, planned once per filter: output pixels go in pairs, one
 * 8-lane vector a pair, whose two RGB halves one unaligned load reads at once (input pixels
 * base + j and base + j + 1), each half multiplied by its own pixel's weight for that input pixel
 * (0 where it has none). So a pair costs about the taps of one pixel, and each pixel's sum adds
 * its own taps in their order with zeros between, the same bits as one pixel at a time.
 * NULL when out of memory or when this CPU lacks AVX2. */
typedef struct aresample_rgb_plan aresample_rgb_plan;
aresample_rgb_plan *aresample_rgb_plan_new(long output_width, const long *starts, const long *counts,
                                           const float *weights, long stride);
void aresample_rgb_plan_free(aresample_rgb_plan *plan);
/* Reads input pixels from -1 (one pixel of zeros before the row) to the last tap of every output
 * pixel plus 2 (zeros after it), and writes output_width * 3 samples. */
void aresample_row_rgb_avx2(const aresample_rgb_plan *plan, const float *input, float *out);

/* The vertical pass with the rounding to bytes for the first samples in blocks of 32; returns how
 * many samples it made (a multiple of 32), the caller makes the rest. */
long aresample_columns_avx2(const float *const *rows, const float *weights, long count, long length, uint8_t *out);

#endif
