// expect: label_value.c:4:13: error: labels as values (&&label) are not supported
int main(void)
{
  void *p = &&done;
done:
  return p != 0;
}
