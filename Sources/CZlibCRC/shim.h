#ifndef SHEETSYNC_CZLIBCRC_SHIM_H
#define SHEETSYNC_CZLIBCRC_SHIM_H
/* zlib: crc32 for checking every inflated XLSX part (XLSXPackage.inflate), and deflate and crc32
 * for writing packages (ZipWriter). ZIPFoundation links zlib for inflating, but on Linux computes
 * CRC-32 with its own byte-at-a-time Swift loop (12 % of reading a 100k-row workbook) and leaves
 * comparing it to the caller. */
#include <zlib.h>
#endif
