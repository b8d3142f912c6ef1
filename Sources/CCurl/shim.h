#ifndef SHEETSYNC_CCURL_SHIM_H
#define SHEETSYNC_CCURL_SHIM_H
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>

// libcurl is opened when the first Google request is made, not when sheetsync starts: linked, it and
// the 30 libraries it needs (GnuTLS, Kerberos, LDAP, libssh2, …) took about 5.5 ms of CPU at every
// start of every command, most of a `sheetsync --version` (docs/performance.md, "Startup"). So nothing
// here calls libcurl directly: every function goes through `sheetsync_curl_functions()`, whose table is
// filled by dlopen/dlsym once. When libcurl cannot be opened, `sheetsync_curl_global_init` fails and
// `sheetsync_curl_load_error` says why.
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: the typed wrappers
// below pass each argument with the exact C type libcurl reads for that option.

struct sheetsync_curl_api {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
    CURLcode (*easy_perform)(CURL *handle);
    void (*easy_reset)(CURL *handle);
    void (*easy_cleanup)(CURL *handle);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
    /// Why libcurl could not be opened (dlerror's words), or NULL when every function is there.
    const char *error;
};

static inline void sheetsync_curl_load(struct sheetsync_curl_api *api) {
    // libcurl4 (OpenSSL) first, as the build's libcurl4-openssl-dev; the GnuTLS build otherwise.
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) library = dlopen("libcurl-gnutls.so.4", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *why = dlerror();
        api->error = why != NULL ? why : "libcurl.so.4 was not found";
        return;
    }
    api->global_init = (CURLcode (*)(long))dlsym(library, "curl_global_init");
    api->easy_init = (CURL * (*)(void)) dlsym(library, "curl_easy_init");
    api->easy_setopt = (CURLcode (*)(CURL *, CURLoption, ...))dlsym(library, "curl_easy_setopt");
    api->easy_getinfo = (CURLcode (*)(CURL *, CURLINFO, ...))dlsym(library, "curl_easy_getinfo");
    api->easy_perform = (CURLcode (*)(CURL *))dlsym(library, "curl_easy_perform");
    api->easy_reset = (void (*)(CURL *))dlsym(library, "curl_easy_reset");
    api->easy_cleanup = (void (*)(CURL *))dlsym(library, "curl_easy_cleanup");
    api->easy_strerror = (const char *(*)(CURLcode))dlsym(library, "curl_easy_strerror");
    api->slist_append = (struct curl_slist * (*)(struct curl_slist *, const char *)) dlsym(library, "curl_slist_append");
    api->slist_free_all = (void (*)(struct curl_slist *))dlsym(library, "curl_slist_free_all");
    if (api->global_init == NULL || api->easy_init == NULL || api->easy_setopt == NULL || api->easy_getinfo == NULL
        || api->easy_perform == NULL || api->easy_reset == NULL || api->easy_cleanup == NULL
        || api->easy_strerror == NULL || api->slist_append == NULL || api->slist_free_all == NULL) {
        api->error = "libcurl.so.4 lacks a function sheetsync calls (curl_easy_init and its neighbours)";
    }
}

/// The table of libcurl's functions, opened on the first call; `error` is set when it could not be.
/// (Its state is static inside this function: Swift emits an imported header's functions, not its
/// file-scope variables.)
static inline const struct sheetsync_curl_api *sheetsync_curl_functions(void) {
    static struct sheetsync_curl_api table;
    static int loaded;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    if (!__atomic_load_n(&loaded, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&lock);
        if (!__atomic_load_n(&loaded, __ATOMIC_RELAXED)) {
            sheetsync_curl_load(&table);
            __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
    }
    return &table;
}

/// Why libcurl could not be opened, or NULL.
static inline const char *sheetsync_curl_load_error(void) {
    return sheetsync_curl_functions()->error;
}

static inline CURLcode sheetsync_curl_global_init(void) {
    const struct sheetsync_curl_api *api = sheetsync_curl_functions();
    return api->error != NULL ? CURLE_FAILED_INIT : api->global_init(CURL_GLOBAL_DEFAULT);
}

// The functions below are called only after `sheetsync_curl_global_init` succeeded.

static inline CURL *sheetsync_curl_easy_init(void) {
    const struct sheetsync_curl_api *api = sheetsync_curl_functions();
    return api->error != NULL ? NULL : api->easy_init();
}

static inline CURLcode sheetsync_curl_easy_perform(CURL *handle) {
    return sheetsync_curl_functions()->easy_perform(handle);
}

static inline void sheetsync_curl_easy_reset(CURL *handle) {
    sheetsync_curl_functions()->easy_reset(handle);
}

static inline void sheetsync_curl_easy_cleanup(CURL *handle) {
    sheetsync_curl_functions()->easy_cleanup(handle);
}

static inline const char *sheetsync_curl_easy_strerror(CURLcode code) {
    const struct sheetsync_curl_api *api = sheetsync_curl_functions();
    return api->error != NULL ? api->error : api->easy_strerror(code);
}

static inline struct curl_slist *sheetsync_curl_slist_append(struct curl_slist *list, const char *line) {
    return sheetsync_curl_functions()->slist_append(list, line);
}

static inline void sheetsync_curl_slist_free_all(struct curl_slist *list) {
    sheetsync_curl_functions()->slist_free_all(list);
}

static inline CURLcode sheetsync_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return sheetsync_curl_functions()->easy_setopt(handle, option, value);
}

static inline CURLcode sheetsync_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
    return sheetsync_curl_functions()->easy_setopt(handle, option, value);
}

static inline CURLcode sheetsync_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return sheetsync_curl_functions()->easy_setopt(handle, option, value);
}

static inline CURLcode sheetsync_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return sheetsync_curl_functions()->easy_setopt(handle, option, value);
}

static inline CURLcode sheetsync_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return sheetsync_curl_functions()->easy_setopt(handle, option, value);
}

/// For CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION.
static inline CURLcode sheetsync_curl_setopt_write_function(CURL *handle, CURLoption option,
                                                            curl_write_callback callback) {
    return sheetsync_curl_functions()->easy_setopt(handle, option, callback);
}

static inline CURLcode sheetsync_curl_setopt_debug_function(CURL *handle, curl_debug_callback callback) {
    return sheetsync_curl_functions()->easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}

static inline CURLcode sheetsync_curl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) {
    return sheetsync_curl_functions()->easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode sheetsync_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return sheetsync_curl_functions()->easy_getinfo(handle, info, value);
}

#endif
