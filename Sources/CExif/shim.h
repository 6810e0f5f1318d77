#ifndef ASSETFS_CEXIF_SHIM_H
#define ASSETFS_CEXIF_SHIM_H
#include <stddef.h>
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>

/* The IFD0 Orientation tag, or 0 when it is absent or not a SHORT (exif_data_get_entry is a macro). */
static inline int cexif_orientation(ExifData *data) {
    if (!data || !data->ifd[EXIF_IFD_0]) return 0;
    ExifEntry *e = exif_content_get_entry(data->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
    if (!e || e->format != EXIF_FORMAT_SHORT || e->components < 1 || !e->data || e->size < 2) return 0;
    return exif_get_short(e->data, exif_data_get_byte_order(data));
}

/* Whether the EXIF says Adobe RGB: ColorSpace 2, or 0xFFFF (uncalibrated) with the interoperability
   index "R03" (DCF's option file). */
static inline int cexif_is_adobe_rgb(ExifData *data) {
    if (!data || !data->ifd[EXIF_IFD_EXIF]) return 0;
    ExifEntry *space = exif_content_get_entry(data->ifd[EXIF_IFD_EXIF], EXIF_TAG_COLOR_SPACE);
    if (!space || space->format != EXIF_FORMAT_SHORT || !space->data || space->size < 2) return 0;
    int value = exif_get_short(space->data, exif_data_get_byte_order(data));
    if (value == 2) return 1;
    if (value != 0xFFFF || !data->ifd[EXIF_IFD_INTEROPERABILITY]) return 0;
    ExifEntry *index = exif_content_get_entry(data->ifd[EXIF_IFD_INTEROPERABILITY], EXIF_TAG_INTEROPERABILITY_INDEX);
    return index && index->data && index->size >= 3 && index->data[0] == 'R' && index->data[1] == '0' && index->data[2] == '3';
}

/* The entry `tag` of IFD `ifd`, or NULL (the IFD array is a C array, awkward from Swift). */
static inline ExifEntry *cexif_entry(ExifData *data, int ifd, int tag) {
    if (!data || ifd < 0 || ifd >= EXIF_IFD_COUNT || !data->ifd[ifd]) return NULL;
    return exif_content_get_entry(data->ifd[ifd], (ExifTag)tag);
}

/* Parses an EXIF block (from "Exif\0\0" on) as it is: without FOLLOW_SPECIFICATION, which would
   add the entries the specification calls mandatory with made-up values. */
static inline ExifData *cexif_load_as_is(const unsigned char *bytes, unsigned int size) {
    ExifData *data = exif_data_new();
    if (!data) return NULL;
    exif_data_unset_option(data, EXIF_DATA_OPTION_FOLLOW_SPECIFICATION);
    exif_data_load_data(data, bytes, size);
    return data;
}

/* Component `index` of a RATIONAL entry as numerator and denominator; 0 when there is none. */
static inline int cexif_rational(ExifEntry *e, ExifByteOrder order, unsigned int index, unsigned int *numerator, unsigned int *denominator) {
    if (!e || e->format != EXIF_FORMAT_RATIONAL || index >= e->components || !e->data || e->size < 8 * (index + 1)) return 0;
    ExifRational r = exif_get_rational(e->data + 8 * index, order);
    *numerator = r.numerator;
    *denominator = r.denominator;
    return 1;
}
#endif
