/* jump.c - for edge/jump-line.out */
int
main(void)
{
	int	i, n = 0;

	for (i = 0; i < 3; i++)
		n += i;
	return n;
}
