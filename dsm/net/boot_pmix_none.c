/*
 * boot_pmix_none.c — the PMIx bootstrap of a libdsm built without PMIx's
 * headers (-Dpmix=disabled, or no libpmix-dev): under mpirun or srun every
 * process runs as a job of one, and says so once, so that nobody mistakes
 * N copies of the same answer for a parallel run.
 */
#include <unistd.h>

#include "boot_pmix.h"
#include "dsm_internal.h"

int dsm__pmix_start(unsigned *rank, unsigned *size)
{
  (void)rank; (void)size;
  if (dsm__pmix_launched()) {
    static const char msg[] =
      "dsm: warning: started by a PMIx launcher (mpirun, srun) but this libdsm was built "
      "without PMIx support (no libpmix-dev at build time, or -Dpmix=disabled): this process "
      "runs as a job of one. Rebuild with -Dpmix=enabled, or start the job with dsmrun.\n";
    ssize_t w = write(2, msg, sizeof msg - 1);
    (void)w;
  }
  return 0;
}

int dsm__pmix_active(void) { return 0; }

void dsm__pmix_meet(uint16_t port, struct sockaddr_in *master, uint8_t key[16])
{
  (void)port; (void)master; (void)key;
  DSM__ASSERT(0);
}

void dsm__pmix_finish(void) {}

void dsm__pmix_abort(int status, const char *msg) { (void)status; (void)msg; }
