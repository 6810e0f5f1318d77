// scale-gen's --metadata: dates, GPS, keywords, people and ratings for each photo (scale-meta.c).
#include <stddef.h>

#define META_MAX 8704   // the most meta_segments writes: an Exif APP1 and an XMP APP1

// Lays out the ten years of days over `photos` photos; call once, before meta_segments.
void meta_plan(long photos);
// Writes photo `photo`'s Exif APP1 and (when it has any) XMP APP1 to out; returns their size.
size_t meta_segments(unsigned char *out, long photo);
