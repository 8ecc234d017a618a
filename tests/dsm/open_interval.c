/*
 * A cold copy must not carry writes of the home's open interval.
 *
 * Rank 0 (the page's home) sets byte X to a temporary value and, in the same
 * interval, later restores it. Between the two, rank 1 fetches the page
 * cold by reading another byte of it (no data race). X's net change over the
 * interval is nothing, so rank 0's diff never carries X; if the cold copy had
 * included the temporary value, rank 1 would keep it for good. The ordering
 * is forced through FIFOs outside the DSM, since any DSM synchronization
 * would close rank 0's interval.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "check.h"

static char path[2][256];

static void wait_token(int which)
{
  int fd = open(path[which], O_RDONLY);
  char c;
  CHECK(fd >= 0 && read(fd, &c, 1) == 1);
  close(fd);
}

static void send_token(int which)
{
  int fd = open(path[which], O_WRONLY);
  CHECK(fd >= 0 && write(fd, "x", 1) == 1);
  close(fd);
}

int main(int argc, char **argv)
{
  dsm_startup(argc, argv);
  unsigned me = dsm_proc_id();
  CHECK(dsm_nprocs() == 2);
  const char *key = getenv("DSM_KEY") ? getenv("DSM_KEY") : "nokey";
  for (int i = 0; i < 2; i++)
    snprintf(path[i], sizeof path[i], "/tmp/ompdsm-openiv-%s-%d", key, i);
  static unsigned char *page;
  if (me == 0) {
    for (int i = 0; i < 2; i++) {
      unlink(path[i]);
      CHECK(mkfifo(path[i], 0600) == 0);
    }
    page = dsm_malloc(4096);
    memset(page, 0, 4096);
    page[100] = 11;                 /* the original value of X */
    dsm_distribute(&page, sizeof page);
  }
  dsm_barrier(0);                   /* X == 11 everywhere from now on */
  if (me == 0) {
    page[100] = 99;                 /* open interval: temporary value */
    page[200] = 5;                  /* and a real change, for a diff */
    send_token(0);
    wait_token(1);                  /* rank 1 has fetched the page */
    page[100] = 11;                 /* restored: no net change to X */
  } else {
    wait_token(0);
    volatile unsigned char other = page[3000];   /* cold fetch, not X */
    (void)other;
    send_token(1);
  }
  dsm_barrier(1);
  CHECK_EQ(page[100], 11);
  CHECK_EQ(page[200], 5);
  dsm_barrier(2);
  if (me == 0) {
    for (int i = 0; i < 2; i++) unlink(path[i]);
    printf("open_interval: a cold copy carries no write of the home's open interval: OK\n");
  }
  dsm_exit(0);
}
