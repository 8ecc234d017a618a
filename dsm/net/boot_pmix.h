/*
 * boot_pmix.h — starting a job under a launcher that runs a PMIx server
 * (Open MPI's mpirun, Slurm's srun --mpi=pmix) instead of dsmrun.
 *
 * PMIx gives the rank and the size, and carries the two things dsmrun would
 * have put in the environment: where the master listens and the job's key.
 * Everything after that (HELLO, the address table, liveness, shutdown) is
 * the transport's own, as under dsmrun (docs/protocol.md, "Bootstrap").
 *
 * boot_pmix.c when PMIx's headers were there at build time (it dlopen()s
 * libpmix at run time, so libdsm gains no link dependency); otherwise
 * boot_pmix_none.c, which only warns that a PMIx launcher was ignored.
 */
#ifndef DSM_BOOT_PMIX_H
#define DSM_BOOT_PMIX_H

#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Started by a PMIx launcher, and not told to ignore it (DSM_PMIX=0).
 * Every PMIx server gives its clients their namespace and rank in these two
 * variables (the server URI variables change names between versions). The
 * caller has already seen that DSM_RANK is absent: dsmrun always wins. */
static inline int dsm__pmix_launched(void)
{
  const char *off = getenv("DSM_PMIX");
  if (off && !strcmp(off, "0"))
    return 0;
  return getenv("PMIX_NAMESPACE") && getenv("PMIX_RANK");
}

/* dsm__runtime_init, when DSM_RANK is not set: under a PMIx launcher,
 * connect to its server, set *rank and *size and return 1; otherwise 0
 * (the process is a job of one). Fatal when the launcher is there but
 * libpmix cannot be used: N singletons would each redo the whole job. */
int  dsm__pmix_start(unsigned *rank, unsigned *size);
/* dsm__pmix_start returned 1 and the job has not ended. */
int  dsm__pmix_active(void);
/* Collective over the job, once the sockets are open. Rank 0 passes the
 * service port it bound (network order), draws the job's key, publishes
 * both and gets the key back with *master set to itself on loopback; the
 * others get the key and the address of rank 0 to say HELLO to. */
void dsm__pmix_meet(uint16_t port, struct sockaddr_in *master, uint8_t key[16]);
/* The normal end of the job (after the transport's collective shutdown). */
void dsm__pmix_finish(void);
/* The job dies (dsm__fatal): ask the launcher to end every rank, with msg
 * in its report. Returns, so that the caller exits with status, if the
 * launcher does not end this process first. Nothing when not active. */
void dsm__pmix_abort(int status, const char *msg);

#endif
