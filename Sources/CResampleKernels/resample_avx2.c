#include "resample_avx2.h"
#include <stdlib.h>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

int aresample_avx2_available(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

#define AVX2 __attribute__((target("avx2")))

/* The first three lanes of `v` at out[0..2]. */
AVX2 static inline void store_rgb(float *out, __m128 v) {
    _mm_storel_pi((__m64 *)out, v);
    _mm_store_ss(out + 2, _mm_movehl_ps(v, v));
}

/* A group's pixels all make the same number of loads, the most any group needs (the others' extra
   weights are 0): a loop count that changes from group to group is mispredicted at every change
   (measured: 2 ms less of a 24 MP photo's 1920 px rendition with one count). */
struct aresample_rgb_plan {
    long output_width;
    long group;      /* output pixels a vector sums: 2 (AVX2, lanes 0-5) or 5 (AVX-512, lanes 0-14) */
    long slots;      /* weights stored per group and load: 2 (loaded as 8 bytes) or 8 (one 256-bit load) */
    long groups, taps;
    long *base;      /* per group: the input pixel its first pixel reads first (pixel m reads m further) */
    float *weights;  /* per group and load: pixel m's weight in slot m (0 where it has none), spread to
                        its lanes as the group is summed (read again every row, so kept small) */
    long first, end; /* the floats read, relative to the row's first: first (<= 0) ..< end */
};

void aresample_rgb_plan_free(aresample_rgb_plan *plan) {
    if (!plan) return;
    free(plan->base);
    free(plan->weights);
    free(plan);
}

aresample_rgb_plan *aresample_rgb_plan_new(long output_width, const long *starts, const long *counts,
                                           const float *weights, long stride) {
    if (!aresample_avx2_available()) return NULL;
    aresample_rgb_plan *plan = calloc(1, sizeof *plan);
    if (!plan) return NULL;
    const int wide = __builtin_cpu_supports("avx512f");
    plan->output_width = output_width;
    plan->group = wide ? 5 : 2;
    plan->slots = wide ? 8 : 2;
    plan->groups = (output_width + plan->group - 1) / plan->group;
    plan->base = malloc(sizeof(long) * plan->groups);
    if (!plan->base) { aresample_rgb_plan_free(plan); return NULL; }
    /* Pixel m of group p (output x) has its taps at loads starts[x] - m - base + 0..<counts[x]. */
    for (long p = 0; p < plan->groups; p++) {
        long base = starts[p * plan->group], end = 0;
        for (long m = 1, x = p * plan->group + 1; m < plan->group && x < output_width; m++, x++)
            if (starts[x] - m < base) base = starts[x] - m;
        for (long m = 0, x = p * plan->group; m < plan->group && x < output_width; m++, x++)
            if (starts[x] - m - base + counts[x] > end) end = starts[x] - m - base + counts[x];
        plan->base[p] = base;
        if (end > plan->taps) plan->taps = end;
    }
    plan->weights = calloc((size_t)(plan->groups * plan->taps * plan->slots), sizeof(float));
    if (!plan->weights) { aresample_rgb_plan_free(plan); return NULL; }
    const long lanes = wide ? 16 : 8;
    plan->first = 0;
    for (long p = 0; p < plan->groups; p++) {
        float *w = plan->weights + p * plan->taps * plan->slots;
        for (long m = 0, x = p * plan->group; m < plan->group && x < output_width; m++, x++)
            for (long k = 0; k < counts[x]; k++) w[(starts[x] - m - plan->base[p] + k) * plan->slots + m] = weights[x * stride + k];
        if (3 * plan->base[p] < plan->first) plan->first = 3 * plan->base[p];
        if (3 * (plan->base[p] + plan->taps - 1) + lanes > plan->end) plan->end = 3 * (plan->base[p] + plan->taps - 1) + lanes;
    }
    return plan;
}

void aresample_rgb_plan_reads(const aresample_rgb_plan *plan, long *first, long *end) {
    *first = plan->first;
    *end = plan->end;
}

/* Pair p's sum: a in lanes 0-2, b in lanes 3-5. */
AVX2 static inline void store_pair(const aresample_rgb_plan *plan, long p, __m256 sum, float *out) {
    store_rgb(out + 6 * p, _mm256_castps256_ps128(sum));
    if (2 * p + 1 < plan->output_width)
        store_rgb(out + 6 * p + 3, _mm256_castps256_ps128(_mm256_permutevar8x32_ps(sum, _mm256_setr_epi32(3, 4, 5, 5, 5, 5, 5, 5))));
}

/* (a, b) as a a a b | b b b b: lanes 0-2 a's weight, 3-5 b's, 6-7 unused (its input is finite) */
AVX2 static inline __m256 spread(const float *ab) {
    return _mm256_permutevar8x32_ps(_mm256_castps128_ps256(_mm_castpd_ps(_mm_load_sd((const double *)ab))),
                                    _mm256_setr_epi32(0, 0, 0, 1, 1, 1, 1, 1));
}

AVX2 static void row_rgb_pairs(const aresample_rgb_plan *plan, const float *input, float *out) {
    const long taps = plan->taps;
    for (long p = 0; p < plan->groups; p++) {
        const float *in = input + plan->base[p] * 3, *w = plan->weights + 2 * taps * p;
        __m256 sum = _mm256_setzero_ps();
        for (long j = 0; j < taps; j++) sum = _mm256_add_ps(sum, _mm256_mul_ps(spread(w + 2 * j), _mm256_loadu_ps(in + 3 * j)));
        store_pair(plan, p, sum, out);
    }
}

/* Five pixels a vector: 15 of 16 lanes used and 2.6 loads a pixel, against 6 of 8 lanes and 5
   loads a pixel for pairs. Even where AVX-512 runs no more lanes a cycle than AVX2 (AMD's Zen 4
   does 512-bit operations in two halves), a 3000 to 1920 px row takes 3.5 us instead of 5. The
   multiplications and additions are separate instructions (intrinsics are not contracted to
   fused ones), so each pixel's sum has the bits of the AVX2 and portable passes. */
#define AVX512 __attribute__((target("avx512f")))
AVX512 static inline __m512 spread_five(const float *w) {
    /* slot m to lanes 3m..3m+2; lane 15 (the next pixel's red) is summed but not stored */
    const __m512i lanes = _mm512_setr_epi32(0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 4);
    return _mm512_permutexvar_ps(lanes, _mm512_castps256_ps512(_mm256_loadu_ps(w)));
}

/* A row alone: the streaming resampler takes rows in pairs (below) but for an image's last row, or a
   source's that ended early. */
AVX512 static void row_rgb_fives(const aresample_rgb_plan *plan, const float *input, float *out) {
    const long taps = plan->taps;
    for (long p = 0; p < plan->groups; p++) {
        const float *in = input + plan->base[p] * 3, *w = plan->weights + 8 * taps * p;
        __m512 sum = _mm512_setzero_ps();
        for (long j = 0; j < taps; j++) sum = _mm512_add_ps(sum, _mm512_mul_ps(spread_five(w + 8 * j), _mm512_loadu_ps(in + 3 * j)));
        long pixels = plan->output_width - 5 * p < 5 ? plan->output_width - 5 * p : 5;
        _mm512_mask_storeu_ps(out + 15 * p, (__mmask16)((1u << (3 * pixels)) - 1), sum);
    }
}

/* Two rows through the same groups: each group's weights are loaded and spread once for both
   rows, two groups a step (four independent sums in flight). 2000 rows from 3000 to 1920 px:
   6.6 ms against 8.1 two groups a row at a time and 10.6 one group a row at a time (clang -O3
   harness, medians of 12-20 alternating runs); in a 1920 px render of the 24 MP photo, perf
   samples of the horizontal pass fell 26% against one group a row at a time. */
AVX512 static void rows_rgb_fives(const aresample_rgb_plan *plan, const float *input0, const float *input1,
                                  float *out0, float *out1) {
    const long taps = plan->taps;
    long p = 0;
    for (; p + 2 < plan->groups; p += 2) {  /* the last group, maybe partial, goes alone below */
        const long a = plan->base[p] * 3, b = plan->base[p + 1] * 3;
        const float *wa = plan->weights + 8 * taps * p, *wb = wa + 8 * taps;
        __m512 a0 = _mm512_setzero_ps(), a1 = a0, b0 = a0, b1 = a0;
        for (long j = 0; j < taps; j++) {
            __m512 weight_a = spread_five(wa + 8 * j), weight_b = spread_five(wb + 8 * j);
            a0 = _mm512_add_ps(a0, _mm512_mul_ps(weight_a, _mm512_loadu_ps(input0 + a + 3 * j)));
            a1 = _mm512_add_ps(a1, _mm512_mul_ps(weight_a, _mm512_loadu_ps(input1 + a + 3 * j)));
            b0 = _mm512_add_ps(b0, _mm512_mul_ps(weight_b, _mm512_loadu_ps(input0 + b + 3 * j)));
            b1 = _mm512_add_ps(b1, _mm512_mul_ps(weight_b, _mm512_loadu_ps(input1 + b + 3 * j)));
        }
        _mm512_mask_storeu_ps(out0 + 15 * p, (__mmask16)0x7fff, a0);
        _mm512_mask_storeu_ps(out1 + 15 * p, (__mmask16)0x7fff, a1);
        _mm512_mask_storeu_ps(out0 + 15 * (p + 1), (__mmask16)0x7fff, b0);
        _mm512_mask_storeu_ps(out1 + 15 * (p + 1), (__mmask16)0x7fff, b1);
    }
    for (; p < plan->groups; p++) {
        const long a = plan->base[p] * 3;
        const float *w = plan->weights + 8 * taps * p;
        __m512 a0 = _mm512_setzero_ps(), a1 = a0;
        for (long j = 0; j < taps; j++) {
            __m512 weight = spread_five(w + 8 * j);
            a0 = _mm512_add_ps(a0, _mm512_mul_ps(weight, _mm512_loadu_ps(input0 + a + 3 * j)));
            a1 = _mm512_add_ps(a1, _mm512_mul_ps(weight, _mm512_loadu_ps(input1 + a + 3 * j)));
        }
        long pixels = plan->output_width - 5 * p < 5 ? plan->output_width - 5 * p : 5;
        __mmask16 mask = (__mmask16)((1u << (3 * pixels)) - 1);
        _mm512_mask_storeu_ps(out0 + 15 * p, mask, a0);
        _mm512_mask_storeu_ps(out1 + 15 * p, mask, a1);
    }
}

void aresample_row_rgb(const aresample_rgb_plan *plan, const float *input, float *out) {
    if (plan->group == 5) row_rgb_fives(plan, input, out);
    else row_rgb_pairs(plan, input, out);
}

void aresample_rows_rgb(const aresample_rgb_plan *plan, const float *input0, const float *input1, float *out0, float *out1) {
    if (plan->group == 5) {
        rows_rgb_fives(plan, input0, input1, out0, out1);
    } else {
        row_rgb_pairs(plan, input0, out0);
        row_rgb_pairs(plan, input1, out1);
    }
}

AVX2 long aresample_widen_avx2(const uint8_t *bytes, float *out, long count) {
    long i = 0;
    for (; i + 32 <= count; i += 32)
        for (long k = 0; k < 32; k += 8)
            _mm256_storeu_ps(out + i + k, _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(bytes + i + k)))));
    return i;
}

/* Rounded half up and clamped to 0...255 as RenditionsKernels' quantize: max(0, NaN) is 0
 * (vmaxps answers its second operand when either is NaN), then truncated. */
AVX2 static inline __m256i quantize(__m256 v) {
    v = _mm256_max_ps(_mm256_add_ps(v, _mm256_set1_ps(0.5f)), _mm256_setzero_ps());
    return _mm256_cvttps_epi32(_mm256_min_ps(v, _mm256_set1_ps(255.0f)));
}

AVX2 long aresample_columns_avx2(const float *const *rows, const float *weights, long count, long length, uint8_t *out) {
    long i = 0;
    for (; i + 32 <= length; i += 32) {
        __m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
        for (long k = 0; k < count; k++) {
            __m256 w = _mm256_broadcast_ss(weights + k);
            const float *row = rows[k] + i;
            s0 = _mm256_add_ps(s0, _mm256_mul_ps(w, _mm256_loadu_ps(row)));
            s1 = _mm256_add_ps(s1, _mm256_mul_ps(w, _mm256_loadu_ps(row + 8)));
            s2 = _mm256_add_ps(s2, _mm256_mul_ps(w, _mm256_loadu_ps(row + 16)));
            s3 = _mm256_add_ps(s3, _mm256_mul_ps(w, _mm256_loadu_ps(row + 24)));
        }
        /* 32 bit -> 16 -> 8 (nothing to saturate: already 0...255). The packs work within
           128-bit halves: the 4-byte groups come out as s0 s1 s2 s3 of the low halves, then of
           the high ones, and are put back in order. */
        __m256i words01 = _mm256_packus_epi32(quantize(s0), quantize(s1));
        __m256i words23 = _mm256_packus_epi32(quantize(s2), quantize(s3));
        __m256i bytes = _mm256_packus_epi16(words01, words23);
        bytes = _mm256_permutevar8x32_epi32(bytes, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
        _mm256_storeu_si256((__m256i *)(out + i), bytes);
    }
    return i;
}

#else

int aresample_avx2_available(void) { return 0; }
aresample_rgb_plan *aresample_rgb_plan_new(long output_width, const long *starts, const long *counts,
                                           const float *weights, long stride) {
    (void)output_width; (void)starts; (void)counts; (void)weights; (void)stride;
    return NULL;
}
void aresample_rgb_plan_free(aresample_rgb_plan *plan) { (void)plan; }
void aresample_rgb_plan_reads(const aresample_rgb_plan *plan, long *first, long *end) {
    (void)plan; *first = 0; *end = 0;
}
void aresample_row_rgb(const aresample_rgb_plan *plan, const float *input, float *out) {
    (void)plan; (void)input; (void)out;
}
void aresample_rows_rgb(const aresample_rgb_plan *plan, const float *input0, const float *input1, float *out0, float *out1) {
    (void)plan; (void)input0; (void)input1; (void)out0; (void)out1;
}
long aresample_widen_avx2(const uint8_t *bytes, float *out, long count) {
    (void)bytes; (void)out; (void)count;
    return 0;
}
long aresample_columns_avx2(const float *const *rows, const float *weights, long count, long length, uint8_t *out) {
    (void)rows; (void)weights; (void)count; (void)length; (void)out;
    return 0;
}

#endif
