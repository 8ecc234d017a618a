/* A binary tree of malloc'd nodes (built sequentially, irregular: a
   subtree's depth depends on an LCG), traversed with one task per child
   and taskwait, as in BOTS health/Rodinia-style pointer codes: every node
   stores the sum of its subtree's values and its subtree's size, written
   by the task that visits it, read by the parent after its taskwait.
   Deeper than a cut-off the traversal is sequential. Verified node by node
   against a sequential traversal. */
#include <stdio.h>
#include <stdlib.h>

#define MAXDEPTH 16
#define CUTOFF 6

struct node {
  long value;
  long sum;     /* of the subtree's values, written by the traversal */
  long size;    /* nodes in the subtree */
  struct node *left, *right;
};

static unsigned long long lcg_state = 99991ULL;
static unsigned lcg(void)
{
  lcg_state = lcg_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)(lcg_state >> 33);
}

static struct node *build(int depth)
{
  struct node *n = malloc(sizeof *n);
  n->value = (long)(lcg() % 1000) - 300;
  n->sum = n->size = -1;
  n->left = n->right = NULL;
  /* near the root always two children; deeper, sometimes fewer */
  if (depth < MAXDEPTH) {
    unsigned r = lcg() % 8;
    if (depth < 4 || r != 0) n->left = build(depth + 1);
    if (depth < 4 || r > 2) n->right = build(depth + 1);
  }
  return n;
}

static void visit_seq(struct node *n)
{
  long s = n->value, c = 1;
  if (n->left) { visit_seq(n->left); s += n->left->sum; c += n->left->size; }
  if (n->right) { visit_seq(n->right); s += n->right->sum; c += n->right->size; }
  n->sum = s; n->size = c;
}

static void visit(struct node *n, int depth)
{
  if (depth >= CUTOFF) { visit_seq(n); return; }
  if (n->left) {
#pragma omp task default(shared) firstprivate(n, depth)
    visit(n->left, depth + 1);
  }
  if (n->right) {
#pragma omp task firstprivate(n, depth)
    visit(n->right, depth + 1);
  }
#pragma omp taskwait
  long s = n->value, c = 1;
  if (n->left) { s += n->left->sum; c += n->left->size; }
  if (n->right) { s += n->right->sum; c += n->right->size; }
  n->sum = s; n->size = c;
}

/* compares the stored sums with a recomputation; returns the mismatches */
static long check(const struct node *n, long *sum, long *size)
{
  long bad = 0, s = n->value, c = 1, ls, lc;
  if (n->left) { bad += check(n->left, &ls, &lc); s += ls; c += lc; }
  if (n->right) { bad += check(n->right, &ls, &lc); s += ls; c += lc; }
  *sum = s; *size = c;
  return bad + (n->sum != s || n->size != c);
}

static void clear(struct node *n)
{
  if (!n) return;
  n->sum = n->size = -1;
  clear(n->left); clear(n->right);
}

static void destroy(struct node *n)
{
  if (!n) return;
  destroy(n->left); destroy(n->right);
  free(n);
}

int main(void)
{
  struct node *root = build(0);
#pragma omp parallel
  {
#pragma omp single
    visit(root, 0);
  }
  long psum = root->sum, psize = root->size, sum, size;
  long bad = check(root, &sum, &size);
  clear(root);
  visit_seq(root);
  int good = bad == 0 && psum == root->sum && psize == root->size;
  printf("nodes %ld sum %ld left %ld right %ld\n", psize, psum,
         root->left ? root->left->sum : 0, root->right ? root->right->sum : 0);
  printf("mismatched nodes %ld\n", bad);
  printf("%s\n", good ? "OK" : "FAIL");
  destroy(root);
  return good ? 0 : 1;
}
