/* a heap linked list built by one thread, processed by all */
#include <stdio.h>
#include <stdlib.h>
struct node { int v; struct node *next; };
int main(void)
{
  struct node *head = NULL;
  long total = 0;
#pragma omp parallel
  {
#pragma omp single
    for (int i = 0; i < 100; i++) {
      struct node *n = malloc(sizeof *n);
      n->v = i; n->next = head; head = n;
    }
    long mine = 0;
    int me = 0;
    for (struct node *p = head; p; p = p->next, me++)
      if (me % 1 == 0) mine += p->v;
#pragma omp single
    total = mine;
  }
  printf("%ld\n", total);
  while (head) { struct node *n = head->next; free(head); head = n; }
  return 0;
}
