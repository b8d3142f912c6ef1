#ifndef SHEETSYNC_CCURL_SHIM_H
#define SHEETSYNC_CCURL_SHIM_H
#include <curl/curl.h>
#endif
