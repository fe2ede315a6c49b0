newer.c line 1
newer.c line 2
newer.c line 3
newer.c line 4
newer.c line 5
newer.c line 6
