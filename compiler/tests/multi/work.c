/* the orphaned loop: no parallel construct in this file */
void fill(int *v, int n)
{
#pragma omp for schedule(dynamic, 8)
  for (int i = 0; i < n; i++)
    v[i] = 3 * i;
}
