#include "lcms_bridge.h"
#include <lcms2.h>
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
