#ifndef ASSETFS_LCMS_BRIDGE_H
#define ASSETFS_LCMS_BRIDGE_H
/*
 * lcms2 at the edge: a transform from a source colour space (an ICC profile, or primaries from
 * a HEIF nclx box) to sRGB, applied in place to 8-bit pixels. lcms2 reports errors through a
 * log handler (silenced here) and NULL returns; it never exits.
 */
#include <stddef.h>
#include <stdint.h>

typedef struct alcms_transform alcms_transform;

/* From an ICC profile. `channels` is 1 (gray: to a gray profile with the sRGB tone curve) or 3
 * (to sRGB). NULL when the profile is unusable or its colour space does not match `channels`:
 * the caller then treats the pixels as sRGB. */
alcms_transform *alcms_from_icc(const uint8_t *icc, size_t length, int channels);
/* RGB with the given CIE xy primaries and white point, and the sRGB tone curve, or when
 * `curve_table` is given a curve of `curve_entries` samples (linear light 0-1 for evenly spaced
 * signals 0-1: HDR tone mapping). */
alcms_transform *alcms_from_primaries(double rx, double ry, double gx, double gy, double bx, double by,
                                      double wx, double wy, const float *curve_table, int curve_entries);
/* Converts `pixels` pixels of the transform's channel count, in place. */
void alcms_apply(alcms_transform *t, uint8_t *pixels, size_t count);
void alcms_free(alcms_transform *t);
/* Writes lcms2's built-in sRGB profile into `buffer` (NULL: only the size); returns its size, 0 on error. */
size_t alcms_srgb_profile(uint8_t *buffer, size_t capacity);
/* 1 when the profile is sRGB, to within what 8-bit pixels show (a copy by another vendor, v2 or
 * v4): a conversion to sRGB is then not needed. */
int alcms_is_srgb(const uint8_t *icc, size_t length);
/* The lcms2 version, for the renderer's fingerprint. */
int alcms_version(void);

#endif
