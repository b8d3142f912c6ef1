#ifndef SHEETSYNC_CLIBXML2_SHIM_H
#define SHEETSYNC_CLIBXML2_SHIM_H
#include <libxml/xmlreader.h>
#include <libxml/parser.h>
#endif
