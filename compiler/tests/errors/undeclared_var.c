// expect: undeclared_var.c:4:30: error: 'nosuch' is not a variable
int main(void)
{
#pragma omp parallel private(nosuch)
  ;
  return 0;
}
