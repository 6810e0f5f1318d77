#ifndef ASSETFS_CLIBPNG_SHIM_H
#define ASSETFS_CLIBPNG_SHIM_H
/* libpng 1.6. Its classic API reports errors by longjmp, which Swift cannot catch; the simplified
   API (png_image_*) catches them inside libpng and returns 0 with image->message instead. */
#include <png.h>
#endif
