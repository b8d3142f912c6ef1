#ifndef SHEETSYNC_CZLIBCRC_SHIM_H
#define SHEETSYNC_CZLIBCRC_SHIM_H
/* zlib: inflate and crc32 for reading XLSX packages (ZipReader, XLSXPackage.inflate), deflate and
 * crc32 for writing them (ZipWriter). */
#include <zlib.h>
#endif
