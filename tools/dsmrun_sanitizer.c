/*
 * dsmrun_sanitizer.c — AddressSanitizer defaults for the launcher.
 *
 * dsmrun builds its argument vectors, host table and environment once and
 * keeps them until the job ends; exit() is their free(). LeakSanitizer would
 * report them as leaks in a sanitizer build (meson -Db_sanitize=address),
 * so the launcher checks memory errors but not leaks. libdsm, whose
 * processes run for a long time, keeps leak checking on.
 */
#if defined(__SANITIZE_ADDRESS__)
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "detect_leaks=0"; }
#endif
