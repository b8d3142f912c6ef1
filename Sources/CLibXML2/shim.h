#ifndef SHEETSYNC_CLIBXML2_SHIM_H
#define SHEETSYNC_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, so its encoding.h pulls in the system ICU headers, which
 * clash with the copy Foundation ships as _FoundationICU ("enum UErrorCode ... not present in
 * definition"). Only the tail of xmlCharEncodingHandler depends on it, a struct Swift never sees
 * by value (libxml2 hands out pointers), so its ICU members are left out of this view. */
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#endif
