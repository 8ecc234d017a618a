/* neighbouring bytes written by different threads (byte-exact diffs) */
#include <stdio.h>
#include <string.h>
char text[4099];
int main(void)
{
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < 4098; i++) text[i] = 'a' + i % 26;
  unsigned h = 0;
  for (int i = 0; i < 4098; i++) h = h * 31 + (unsigned char)text[i];
  printf("%u %zu\n", h, strlen(text));
  return 0;
}
