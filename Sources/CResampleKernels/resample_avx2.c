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

/* Every pair makes the same number of loads, the most any pair needs (the others' extra weights
   are 0): a loop count that changes from pair to pair is mispredicted at every change (measured:
   2 ms less of a 24 MP photo's 1920 px rendition with one count). */
struct aresample_rgb_plan {
    long output_width, pairs, taps;
    long *base;      /* per pair: the input pixel the low half reads first (-1 at most before the row) */
    float *weights;  /* per pair and load: a's weight, b's, spread to the lanes as the pair is summed
                        (a quarter of the table 8 lanes would make, read again every row; as fast) */
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
    plan->output_width = output_width;
    plan->pairs = (output_width + 1) / 2;
    plan->base = malloc(sizeof(long) * plan->pairs);
    if (!plan->base) { aresample_rgb_plan_free(plan); return NULL; }
    /* Pixel a's taps are starts[a] - base + 0..<counts[a] loads in; b's, one pixel further along
       in the high half, starts[b] - base - 1 + 0..<counts[b]. */
    for (long p = 0; p < plan->pairs; p++) {
        long a = 2 * p, b = a + 1 < output_width ? a + 1 : -1;
        long base = starts[a];
        if (b >= 0 && starts[b] - 1 < base) base = starts[b] - 1;
        long end = starts[a] - base + counts[a];
        if (b >= 0 && starts[b] - base - 1 + counts[b] > end) end = starts[b] - base - 1 + counts[b];
        plan->base[p] = base;
        if (end > plan->taps) plan->taps = end;
    }
    plan->weights = calloc((size_t)(plan->pairs * plan->taps * 2), sizeof(float));
    if (!plan->weights) { aresample_rgb_plan_free(plan); return NULL; }
    for (long p = 0; p < plan->pairs; p++) {
        long a = 2 * p, b = a + 1 < output_width ? a + 1 : -1;
        float *w = plan->weights + p * plan->taps * 2;
        for (long k = 0; k < counts[a]; k++) w[2 * (starts[a] - plan->base[p] + k)] = weights[a * stride + k];
        for (long k = 0; b >= 0 && k < counts[b]; k++) w[2 * (starts[b] - plan->base[p] - 1 + k) + 1] = weights[b * stride + k];
    }
    return plan;
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

AVX2 void aresample_row_rgb_avx2(const aresample_rgb_plan *plan, const float *input, float *out) {
    const long taps = plan->taps;
    for (long p = 0; p < plan->pairs; p++) {
        const float *in = input + plan->base[p] * 3, *w = plan->weights + 2 * taps * p;
        __m256 sum = _mm256_setzero_ps();
        for (long j = 0; j < taps; j++) sum = _mm256_add_ps(sum, _mm256_mul_ps(spread(w + 2 * j), _mm256_loadu_ps(in + 3 * j)));
        store_pair(plan, p, sum, out);
    }
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
void aresample_row_rgb_avx2(const aresample_rgb_plan *plan, const float *input, float *out) {
    (void)plan; (void)input; (void)out;
}
long aresample_columns_avx2(const float *const *rows, const float *weights, long count, long length, uint8_t *out) {
    (void)rows; (void)weights; (void)count; (void)length; (void)out;
    return 0;
}

#endif
