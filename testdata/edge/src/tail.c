tail.c line 1
tail.c line 2
tail.c line 3 has no newline