#ifndef ASSETFS_RESAMPLE_AVX2_H
#define ASSETFS_RESAMPLE_AVX2_H
/*
 * AVX2 versions of the bulk of RenditionsKernels' two resampling passes (and an AVX-512 one of
 * the horizontal), chosen at run time on CPUs that have them (RenditionsKernels' own SIMD code is
 * the portable path, and does the rest of each row). Each function does the same multiplications
 * and additions in the same order as that code, without fused multiply-add, so the results are
 * the same to the bit, only 8 or 16 lanes wide instead of 4. The contracts are those of
 * resampleRow, resampleColumns and widen in RenditionsKernels; nothing here is checked.
 */
#include <stdint.h>

/* 1 when this CPU runs the functions below (x86-64 with AVX2), else 0: then they must not be called. */
int aresample_avx2_available(void);

/* The horizontal pass of 3-channel rows, planned once per filter: output pixels go in groups, one
 * vector a group, whose RGB thirds one unaligned load reads at once: 2 pixels in 8 lanes (AVX2),
 * or 5 in 16 where the CPU has AVX-512. Pixel m of a group reads input pixel base + j + m at
 * load j, multiplied by its own weight for that input pixel (0 where it has none). So a group
 * costs about the taps of one pixel, and each pixel's sum adds its own taps in their order with
 * zeros between, the same bits as one pixel at a time.
 * NULL when out of memory or when this CPU lacks AVX2. */
typedef struct aresample_rgb_plan aresample_rgb_plan;
aresample_rgb_plan *aresample_rgb_plan_new(long output_width, const long *starts, const long *counts,
                                           const float *weights, long stride);
void aresample_rgb_plan_free(aresample_rgb_plan *plan);
/* The samples a row's pass reads, from the row's first: first (at most 0) ..< end. Those outside
 * the row must be zeros (finite: they are multiplied by weights of 0). */
void aresample_rgb_plan_reads(const aresample_rgb_plan *plan, long *first, long *end);
/* Writes output_width * 3 samples. */
void aresample_row_rgb(const aresample_rgb_plan *plan, const float *input, float *out);
/* Two rows at once, the same as a row at a time (the AVX-512 pass reads the weights once for both). */
void aresample_rows_rgb(const aresample_rgb_plan *plan, const float *input0, const float *input1, float *out0, float *out1);

/* Bytes to floats for the first samples in blocks of 32; returns how many it made (a multiple
 * of 32), the caller makes the rest. */
long aresample_widen_avx2(const uint8_t *bytes, float *out, long count);

/* The vertical pass with the rounding to bytes for the first samples in blocks of 32; returns how
 * many samples it made (a multiple of 32), the caller makes the rest. */
long aresample_columns_avx2(const float *const *rows, const float *weights, long count, long length, uint8_t *out);

#endif
