/* Breadth-first search in the style of Rodinia's bfs (written here): the
   master writes a graph file (node count, then each node's first edge and
   degree, the source, the edge count, then each edge's destination), reads
   it back with fscanf into heap arrays the threads share, and every level
   is two parallel loops: the frontier's nodes give their unvisited
   neighbours a cost, then those neighbours become the next frontier. A
   neighbour reached from two frontier nodes gets the same cost from both,
   as in the original. The costs are printed as a histogram and a checksum:
   any wrong visit order, lost write or stale read changes them. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NODES 6000
#define MAXDEG 7

typedef struct { int start, degree; } Node;

static unsigned long long lcg = 88172645463325252ULL;
static unsigned next(void)
{
  lcg = lcg * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(lcg >> 33);
}

static void write_graph(const char *path)
{
  FILE *f = fopen(path, "w");
  if (!f) { perror(path); exit(1); }
  int *deg = malloc(NODES * sizeof *deg), edges = 0;
  fprintf(f, "%d\n", NODES);
  for (int i = 0; i < NODES; i++) {
    deg[i] = 1 + (int)(next() % MAXDEG);
    fprintf(f, "%d %d\n", edges, deg[i]);
    edges += deg[i];
  }
  fprintf(f, "\n0\n\n%d\n", edges);
  for (int i = 0; i < NODES; i++)
    for (int k = 0; k < deg[i]; k++) {
      /* mostly near neighbours, some long jumps: a few hundred levels
         would be a path, one level a star; this gives about a dozen */
      int to = next() % 4 ? (i + 1 + (int)(next() % 40)) % NODES : (int)(next() % NODES);
      fprintf(f, "%d %d\n", to, 1 + (int)(next() % 9));
    }
  free(deg);
  fclose(f);
}

int main(void)
{
  char path[64];
  snprintf(path, sizeof path, "/tmp/ompdsm-bfs-%d.txt", (int)getpid());
  write_graph(path);

  FILE *f = fopen(path, "r");
  int n, source, nedges;
  if (!f || fscanf(f, "%d", &n) != 1) { printf("cannot read %s\n", path); return 1; }
  Node *nodes = malloc(n * sizeof *nodes);
  char *mask = malloc(n), *updating = malloc(n), *visited = malloc(n);
  int *cost = malloc(n * sizeof *cost);
  for (int i = 0; i < n; i++) {
    if (fscanf(f, "%d %d", &nodes[i].start, &nodes[i].degree) != 2) { printf("bad node %d\n", i); return 1; }
    mask[i] = updating[i] = visited[i] = 0;
  }
  if (fscanf(f, "%d %d", &source, &nedges) != 2) { printf("bad header\n"); return 1; }
  int *edges = malloc(nedges * sizeof *edges);
  for (int i = 0; i < nedges; i++) {
    int weight;
    if (fscanf(f, "%d %d", &edges[i], &weight) != 2) { printf("bad edge %d\n", i); return 1; }
  }
  fclose(f);
  remove(path);

  for (int i = 0; i < n; i++) cost[i] = -1;
  mask[source] = visited[source] = 1;
  cost[source] = 0;

  int levels = 0, more;
  do {
    more = 0;
#pragma omp parallel for
    for (int tid = 0; tid < n; tid++) {
      if (mask[tid]) {
        mask[tid] = 0;
        for (int e = nodes[tid].start; e < nodes[tid].start + nodes[tid].degree; e++) {
          int id = edges[e];
          if (!visited[id]) {
            cost[id] = cost[tid] + 1;
            updating[id] = 1;
          }
        }
      }
    }
#pragma omp parallel for reduction(+:more)
    for (int tid = 0; tid < n; tid++) {
      if (updating[tid]) {
        mask[tid] = visited[tid] = 1;
        updating[tid] = 0;
        more++;
      }
    }
    levels++;
  } while (more);

  int hist[64] = { 0 }, unreached = 0, maxc = 0;
  unsigned long long sum = 0;
  for (int i = 0; i < n; i++) {
    if (cost[i] < 0) { unreached++; continue; }
    if (cost[i] < 64) hist[cost[i]]++;
    if (cost[i] > maxc) maxc = cost[i];
    sum = sum * 31 + (unsigned)cost[i] * (unsigned)(i + 1);
  }
  printf("nodes %d edges %d levels %d deepest %d unreached %d\n", n, nedges, levels, maxc, unreached);
  for (int c = 0; c <= maxc && c < 64; c++) printf("cost %d: %d nodes\n", c, hist[c]);
  printf("checksum %llu\n", sum);
  free(nodes); free(mask); free(updating); free(visited); free(cost); free(edges);
  return 0;
}
