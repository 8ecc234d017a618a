/* a program without OpenMP still compiles and runs */
#include <stdio.h>
#include <string.h>
static const char *names[] = { "alpha", "beta", "gamma" };
static int counter;
int main(int argc, char *argv[])
{
  (void)argv;
  for (int i = 0; i < 3; i++) counter += (int)strlen(names[i]);
  printf("%d %d\n", counter, argc);
  return 0;
}
