/* a plain C syntax error is reported at the offending token */
// expect: syntax_error.c:6:3: error: syntax error
int main(void)
{
  int x = 1
  return x;
}
