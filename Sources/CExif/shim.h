#ifndef ASSETFS_CEXIF_SHIM_H
#define ASSETFS_CEXIF_SHIM_H
#include <libexif/exif-data.h>
#include <libexif/exif-loader.h>

/* The IFD0 Orientation tag, or 0 when it is absent or not a SHORT (exif_data_get_entry is a macro). */
static inline int cexif_orientation(ExifData *data) {
    if (!data || !data->ifd[EXIF_IFD_0]) return 0;
    ExifEntry *e = exif_content_get_entry(data->ifd[EXIF_IFD_0], EXIF_TAG_ORIENTATION);
    if (!e || e->format != EXIF_FORMAT_SHORT || e->components < 1 || !e->data || e->size < 2) return 0;
    return exif_get_short(e->data, exif_data_get_byte_order(data));
}
#endif
