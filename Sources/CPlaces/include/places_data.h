#ifndef ASSETFS_PLACES_DATA_H
#define ASSETFS_PLACES_DATA_H

/// The GeoNames place table (places.bin, laid out as tools/make-places.py says), built into the
/// binary so that a clean clone's build has it: no file to install, nothing read at start.
extern const unsigned char assetfs_places[];
extern const unsigned long assetfs_places_size;

/// The table's first byte (Swift does not import an array of unknown size).
static inline const unsigned char *assetfs_places_pointer(void) { return assetfs_places; }

#endif
