#include "lcms_bridge.h"
#include <lcms2.h>
#include <math.h>
#include <stdlib.h>

struct alcms_transform {
    cmsContext context;
    cmsHTRANSFORM transform;
};

static void quiet(cmsContext id, cmsUInt32Number code, const char *text) { (void)id; (void)code; (void)text; }

static cmsToneCurve *srgb_curve(cmsContext ctx) {
    /* IEC 61966-2-1: Y = ((aX + b)^g) for X >= d, Y = cX below */
    cmsFloat64Number p[5] = {2.4, 1.0 / 1.055, 0.055 / 1.055, 1.0 / 12.92, 0.04045};
    return cmsBuildParametricToneCurve(ctx, 4, p);
}

static alcms_transform *make(cmsContext ctx, cmsHPROFILE source, int channels) {
    cmsHPROFILE target = NULL;
    if (channels == 1) {
        cmsToneCurve *curve = srgb_curve(ctx);
        if (curve) target = cmsCreateGrayProfileTHR(ctx, cmsD50_xyY(), curve);
        if (curve) cmsFreeToneCurve(curve);
    } else {
        target = cmsCreate_sRGBProfileTHR(ctx);
    }
    cmsHTRANSFORM transform = NULL;
    if (target) {
        cmsUInt32Number format = channels == 1 ? TYPE_GRAY_8 : TYPE_RGB_8;
        transform = cmsCreateTransformTHR(ctx, source, format, target, format, INTENT_PERCEPTUAL, 0);
        cmsCloseProfile(target);
    }
    cmsCloseProfile(source);
    if (!transform) { cmsDeleteContext(ctx); return NULL; }
    alcms_transform *t = malloc(sizeof *t);
    if (!t) { cmsDeleteTransform(transform); cmsDeleteContext(ctx); return NULL; }
    t->context = ctx;
    t->transform = transform;
    return t;
}

static cmsContext new_context(void) {
    cmsContext ctx = cmsCreateContext(NULL, NULL);
    if (ctx) cmsSetLogErrorHandlerTHR(ctx, quiet);
    return ctx;
}

alcms_transform *alcms_from_icc(const uint8_t *icc, size_t length, int channels) {
    if (!icc || length < 132 || length > (64u << 20) || (channels != 1 && channels != 3)) return NULL;
    cmsContext ctx = new_context();
    if (!ctx) return NULL;
    cmsHPROFILE source = cmsOpenProfileFromMemTHR(ctx, icc, (cmsUInt32Number)length);
    if (!source) { cmsDeleteContext(ctx); return NULL; }
    cmsColorSpaceSignature space = cmsGetColorSpace(source);
    if ((channels == 1 && space != cmsSigGrayData) || (channels == 3 && space != cmsSigRgbData)) {
        cmsCloseProfile(source);
        cmsDeleteContext(ctx);
        return NULL;
    }
    return make(ctx, source, channels);
}

alcms_transform *alcms_from_primaries(double rx, double ry, double gx, double gy, double bx, double by,
                                      double wx, double wy, const float *curve_table, int curve_entries) {
    cmsContext ctx = new_context();
    if (!ctx) return NULL;
    cmsCIExyY white = {wx, wy, 1.0};
    cmsCIExyYTRIPLE primaries = {{rx, ry, 1.0}, {gx, gy, 1.0}, {bx, by, 1.0}};
    cmsToneCurve *curve = curve_table && curve_entries >= 2
        ? cmsBuildTabulatedToneCurveFloat(ctx, (cmsUInt32Number)curve_entries, curve_table)
        : srgb_curve(ctx);
    if (!curve) { cmsDeleteContext(ctx); return NULL; }
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE source = cmsCreateRGBProfileTHR(ctx, &white, &primaries, curves);
    cmsFreeToneCurve(curve);
    if (!source) { cmsDeleteContext(ctx); return NULL; }
    return make(ctx, source, 3);
}

void alcms_apply(alcms_transform *t, uint8_t *pixels, size_t count) {
    /* cmsDoTransform takes a 32-bit pixel count */
    while (count > 0) {
        cmsUInt32Number n = count > (1u << 30) ? (1u << 30) : (cmsUInt32Number)count;
        cmsDoTransform(t->transform, pixels, pixels, n);
        pixels += (size_t)n * (size_t)T_CHANNELS(cmsGetTransformInputFormat(t->transform));
        count -= n;
    }
}

void alcms_free(alcms_transform *t) {
    if (!t) return;
    cmsDeleteTransform(t->transform);
    cmsDeleteContext(t->context);
    free(t);
}

int alcms_version(void) { return cmsGetEncodedCMMversion(); }

/* A matrix/shaper RGB profile is sRGB when its colorants (D50-adapted, as lcms2's sRGB's) match
   sRGB's to 5e-4 (vendors' copies differ by ~1e-4 in their s15Fixed16 rounding) and each of its
   tone curves, followed by the inverse of sRGB's, leaves every 8-bit level within a quarter of a
   level of where it was: a conversion to sRGB would change nothing but rounding. */
int alcms_is_srgb(const uint8_t *icc, size_t length) {
    if (!icc || length < 132 || length > (64u << 20)) return 0;
    cmsContext ctx = new_context();
    if (!ctx) return 0;
    cmsHPROFILE profile = cmsOpenProfileFromMemTHR(ctx, icc, (cmsUInt32Number)length);
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(ctx);
    int same = profile && srgb && cmsGetColorSpace(profile) == cmsSigRgbData && cmsGetPCS(profile) == cmsSigXYZData
        && cmsIsMatrixShaper(profile);
    static const cmsTagSignature colorants[3] = {cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag};
    static const cmsTagSignature curves[3] = {cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag};
    for (int i = 0; same && i < 3; i++) {
        const cmsCIEXYZ *a = cmsReadTag(profile, colorants[i]), *b = cmsReadTag(srgb, colorants[i]);
        same = a && b && fabs(a->X - b->X) < 5e-4 && fabs(a->Y - b->Y) < 5e-4 && fabs(a->Z - b->Z) < 5e-4;
        const cmsToneCurve *curve = same ? cmsReadTag(profile, curves[i]) : NULL, *ours = same ? cmsReadTag(srgb, curves[i]) : NULL;
        cmsToneCurve *back = ours ? cmsReverseToneCurve(ours) : NULL;
        same = curve && back;
        for (int level = 0; same && level < 256; level++) {
            float again = cmsEvalToneCurveFloat(back, cmsEvalToneCurveFloat(curve, (float)level / 255)) * 255;
            same = fabsf(again - (float)level) < 0.25f;
        }
        if (back) cmsFreeToneCurve(back);
    }
    if (profile) cmsCloseProfile(profile);
    if (srgb) cmsCloseProfile(srgb);
    cmsDeleteContext(ctx);
    return same;
}

size_t alcms_srgb_profile(uint8_t *buffer, size_t capacity) {
    cmsContext ctx = new_context();
    if (!ctx) return 0;
    cmsHPROFILE profile = cmsCreate_sRGBProfileTHR(ctx);
    cmsUInt32Number size = 0;
    if (profile && cmsSaveProfileToMem(profile, NULL, &size) && buffer && capacity >= size) {
        if (!cmsSaveProfileToMem(profile, buffer, &size)) size = 0;
    }
    if (profile) cmsCloseProfile(profile);
    cmsDeleteContext(ctx);
    return size;
}
