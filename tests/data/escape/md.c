/* A program whose thread name is markdown and HTML: <i>[a](j:)|*_ */
#include <stdlib.h>
#include <sys/prctl.h>
volatile unsigned long sink;
int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000000ul;

	prctl(PR_SET_NAME, (unsigned long)"<i>[a](j:)|*_", 0, 0, 0);
	for (unsigned long i = 0; i < n; i++)
		sink += i;
	return 0;
}
